import type { Blob } from './decimal-points';
import { median } from './median';
import type { PageImage } from './recognizer';

/**
 * Whether a page is printed in a light, thin-stroked type that the engine reads better drawn a pixel
 * bolder. Courier's stems are about 0.09 of its capitals' height, and URW's Nimbus Mono PS (what
 * fontconfig draws for Courier where Ghostscript's fonts are installed) as thin; the text faces reports
 * print in otherwise (Helvetica, Times, their DejaVu, Liberation and Nimbus likenesses) measure 0.10–0.14.
 * At 300 dpi a 10-point Nimbus Mono stem is two pixels, and Tesseract misreads such strokes with
 * confidence: `27` read `277`, `357` read `3547`, `%` read `oS °`, `> OR = 60` read `> OR! 60`, and
 * their rows were lost. Read one pixel bolder (`emboldened`), the same page gives each of them.
 *
 * Not where the strokes are blurred: a scan at 150 dpi drawn at 300 already spreads each stroke into
 * grey, and thickening that grey closes letters (a bold panel title `CBC With Differential/Platelet`
 * read `CBC MER Differential/Plateler`). Nor a type of ordinary weight: drawn bolder, clean pages of
 * DejaVu Sans lost rows they read before. The measures are the page's own, taken on the ink despeckle.ts
 * found: no font is named or recognised.
 */

/** A stem thinner than this share of the capitals' height is a light type's: on 32 scanned pages in six fonts, Nimbus Mono's measured 0.084–0.094, the others' 0.100–0.140. */
const THIN_STEM_SHARE = 0.096;
/** A stem's grey edges wider than this (pixels at 300 dpi, beyond its ink) are a blur: a sharp scan's measure 1.9–2.7, a 150-dpi scan's drawn at 300 dpi 3.7–4. */
const MAX_SPREAD = 3;
/** Grey level under which a pixel holds ink (antialiased edges included). */
const PAPER = 224;
/** A horizontal run of ink at most this wide (inches) crosses a stem; a wider one is a bar or a rule. */
const MAX_STEM_INCHES = 0.03;
/** Glyph heights counted (inches): from a 6-point x-height to a 20-point capital; specks and rules aside. */
const MIN_GLYPH_INCHES = 0.04;
const MAX_GLYPH_INCHES = 0.3;
/** The share of glyphs shorter than the capitals: most glyphs are lower-case letters, points and marks. */
const CAPITAL_QUANTILE = 0.75;

export interface StrokeWeight {
  /** Median width (pixels) of the ink across a stem, its grey edges counted by their darkness. */
  stem: number;
  /** The capitals' height (pixels): the upper quartile of glyph heights. */
  capitals: number;
  /** Median width (pixels) of a stem's run of ink beyond its ink: its grey edges, about two pixels on a sharp 300-dpi page, four on a blurred one. */
  spread: number;
}

/** The page's stems, capitals and their spread (see above), its glyphs the blobs of ink despeckle.ts found; undefined on a page with no glyphs to measure. */
export function strokeWeight(image: PageImage, glyphs: readonly Pick<Blob, 'y0' | 'y1'>[]): StrokeWeight | undefined {
  const { width, height, grey, dpi } = image;
  const heights = glyphs
    .map((g) => g.y1 - g.y0 + 1)
    .filter((h) => h >= MIN_GLYPH_INCHES * dpi && h <= MAX_GLYPH_INCHES * dpi)
    .sort((a, b) => a - b);
  const capitals = heights[Math.floor(CAPITAL_QUANTILE * heights.length)];
  const maxStem = MAX_STEM_INCHES * dpi;
  const stems: number[] = [];
  const spreads: number[] = [];
  for (let y = 0; y < height; y++) {
    let x = y * width;
    const end = x + width;
    while (x < end) {
      if (grey[x]! >= PAPER) {
        x++;
        continue;
      }
      const first = x;
      let ink = 0;
      for (; x < end && grey[x]! < PAPER; x++) ink += 255 - grey[x]!;
      if (x - first > maxStem || ink < 128) continue;
      stems.push(ink / 255);
      spreads.push(x - first - ink / 255);
    }
  }
  const stem = median(stems);
  const spread = median(spreads);
  if (capitals === undefined || stem === undefined || spread === undefined) return undefined;
  return { stem, capitals, spread };
}

/** Whether the engine should read the page a pixel bolder: a light type, sharply drawn (see above). */
export function isLightType(weight: StrokeWeight | undefined): boolean {
  return weight !== undefined && weight.stem < THIN_STEM_SHARE * weight.capitals && weight.spread <= MAX_SPREAD;
}
