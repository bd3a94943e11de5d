import type { TextItem } from '../pdf-text';
import { normaliseWord } from './normalise-word';

/**
 * The OCR port: a page image in, the words on it with their boxes out. Two adapters implement it:
 * tesseract.js inside the function (tesseract-recognizer.ts, the default and the local one) and Amazon
 * Textract (functions/platform/textract-recognizer.ts), chosen by HALE_OCR_ENGINE. Both are handed the
 * same rendered, deskewed greyscale page, so their words land in the same frame.
 */

/** A rendered page: 8-bit grey, row-major, top row first. */
export interface PageImage {
  width: number;
  height: number;
  /**
   * Pixels per inch of the sheet the page shows, which sizes glyphs and specks: the resolution it was
   * rendered at (PDF units are 1/72 inch), but on a page drawn under its size (a photo's: page-image.ts
   * `renderResolution`) the resolution a sheet of ordinary size would have; positions go back to PDF units by
   * the page's size, not by this.
   */
  dpi: number;
  grey: Uint8Array;
}

/** One recognised word in image pixels (origin top-left). */
export interface RecognizedWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Baseline (y, pixels) at the word's centre, when the engine knows it. */
  baseline?: number;
  /** Height of the word's text line, ascender to baseline plus descender room: about the font size. */
  lineHeight?: number;
  /** 0–1. */
  confidence: number;
}

/** A region of a page image, pixels, inclusive. */
export interface ImageRegion {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The region copied out of the page onto white, `border` pixels of it on every side; `dx` and `dy` move
 * the copy's pixels back onto the page.
 */
export function cutOut(image: PageImage, region: ImageRegion, border = 0): { crop: PageImage; dx: number; dy: number } {
  const width = region.x1 - region.x0 + 1 + 2 * border;
  const height = region.y1 - region.y0 + 1 + 2 * border;
  const grey = new Uint8Array(width * height).fill(255);
  for (let y = region.y0; y <= region.y1; y++) {
    const from = y * image.width;
    grey.set(image.grey.subarray(from + region.x0, from + region.x1 + 1), (y - region.y0 + border) * width + border);
  }
  return { crop: { width, height, dpi: image.dpi, grey }, dx: region.x0 - border, dy: region.y0 - border };
}

export interface TextRecognizer {
  /** Human-readable engine name for logs (`tesseract`, `textract`). */
  readonly engine: string;
  /** How many pages it reads at once to advantage (its engines); one when left out. */
  readonly parallelism?: number;
  recognize(image: PageImage): Promise<RecognizedWord[]>;
  /**
   * Reads one region of the page as a single line of text (a second look where the page reading left
   * ink without words); words in page pixels. Engines that read whole pages reliably leave it out.
   */
  recognizeLine?(image: PageImage, region: ImageRegion): Promise<RecognizedWord[]>;
}

/** Share of a box's height below the baseline when an engine gives boxes only (descenders of g, p, y). */
const DESCENT = 0.2;

/**
 * How far (share of the page's body size) an engine's size estimate strays for text of the body size.
 * Tesseract sizes each line it finds from that line's own glyphs: `A/G` (a slash descends) comes out a
 * point taller than `Ratio` below it, and the reader takes a point's difference for a title or a
 * superscript. Real size changes on a report (titles, headers, footnotes) are larger than this.
 */
const SIZE_NOISE = 0.1;

/**
 * Words on the baseline of body-size text whose size is estimated at most this far from the body size
 * (a ratio) are body size too. Tesseract sizes each run of words it finds on its own, and a run of
 * symbols comes out taller (`> OR = 40 mg/dL` three points over its row's `HDL` and `66`); the cells of
 * one table row share a baseline and a size, and a title or a superscript has a baseline of its own.
 */
const ROW_SIZE_STRAY = 1.5;
/**
 * Further still (up to this ratio), a word whose baseline body-size words hold the most of (two or
 * more) is body size: Tesseract sized a lone value of a noisy scan's row 1.6 times its row's other cells
 * (`114` between `Glucose` and `mg/dL`), and the reader took the row for a title set large. A title set
 * large has its own baseline, or the most of the words on it.
 */
const ROW_OUTLIER = 2;
/**
 * Brackets reach above the capitals and below the baseline, a comma below it, and Tesseract sizes a
 * line from its glyphs' reach: a line of bracketed words only (`(SGOT)`, the wrapped rest of
 * `AST (SGOT)`), or of one word ending in a comma (`IRON,`, the first line of a wrapped `IRON, TOTAL`),
 * comes out up to a third taller than the body text it is set in. Within ROW_SIZE_STRAY of the body
 * size, such a line is body size: a title is set in words, not in brackets alone, and does not stop at
 * a comma.
 */
const BRACKETED = /^\(.*\)[.,]?$/;
const COMMA_ENDED = /^[^\s(),]+,$/;
/** Baselines this close (share of the body size) are one row's. */
const SAME_BASELINE = 0.25;

/**
 * Sizes within SIZE_NOISE of the page's body size (the median) become the body size, and so do sizes
 * within ROW_SIZE_STRAY of it on the baseline of a body-size word or of a line its marks make taller, and
 * sizes within ROW_OUTLIER of it on a baseline that is mostly body size; others stay.
 */
function snappedToBodySize(items: TextItem[]): TextItem[] {
  if (items.length === 0) return items;
  const sizes = items.map((i) => i.height).sort((a, b) => a - b);
  const body = sizes[sizes.length >> 1]!;
  const isBody = (height: number) => Math.abs(height - body) <= SIZE_NOISE * body;
  const within = (height: number, ratio: number) => height <= ratio * body && height >= body / ratio;
  const sameRow = (a: TextItem, b: TextItem) => Math.abs(a.y - b.y) <= SAME_BASELINE * body;
  const bodyBaselines = items.filter((i) => isBody(i.height));
  const sizedByMarks = (i: TextItem) => {
    const line = items.filter((other) => sameRow(other, i));
    return line.every((other) => BRACKETED.test(other.str)) || (line.length === 1 && COMMA_ENDED.test(i.str));
  };
  const snapped = items.map((i) => isBody(i.height) || (within(i.height, ROW_SIZE_STRAY) && (bodyBaselines.some((b) => sameRow(b, i)) || sizedByMarks(i))));
  return items.map((i, k) => {
    if (snapped[k]) return { ...i, height: body };
    if (!within(i.height, ROW_OUTLIER)) return i;
    const row = items.flatMap((other, j) => (sameRow(other, i) ? [j] : []));
    const bodies = row.filter((j) => snapped[j]).length;
    return bodies >= 2 && bodies > row.length - bodies ? { ...i, height: body } : i;
  });
}

/**
 * Words as the text items the reader consumes: PDF units, baseline origin bottom-left, height about
 * the font size (an estimate near the page's body size is that size), the engine's confidence kept,
 * unambiguous confusions repaired (normalise-word.ts). `pageHeight` is in PDF units, `scale` the PDF
 * units a pixel of the image spans (72 / dpi, or more on a page drawn under its size: page-image.ts).
 */
export function wordsToItems(words: readonly RecognizedWord[], scale: number, pageHeight: number): TextItem[] {
  const items = words
    .map((w) => ({ ...w, text: normaliseWord(w.text) }))
    .filter((w) => w.text !== '')
    .map((w) => {
      const boxHeight = w.y1 - w.y0;
      const baseline = w.baseline ?? w.y1 - DESCENT * boxHeight;
      const size = w.lineHeight ?? boxHeight;
      return {
        str: w.text,
        x: round(w.x0 * scale),
        y: round(pageHeight - baseline * scale),
        width: round((w.x1 - w.x0) * scale),
        height: round(size * scale),
        confidence: round(Math.min(1, Math.max(0, w.confidence))),
      };
    });
  return snappedToBodySize(items);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
