import fc from 'fast-check';
import { despeckle } from '../../../../functions/lab/ocr/despeckle';
import type { RenderedPage } from '../../../../functions/lab/ocr/page-image';
import { recognizePages } from '../../../../functions/lab/ocr/recognize-pages';
import type { PageImage, RecognizedWord, TextRecognizer } from '../../../../functions/lab/ocr/recognizer';
import { isLightType, strokeWeight } from '../../../../functions/lab/ocr/stroke-weight';

/**
 * A light type is read a pixel bolder (stroke-weight.ts). Pages are drawn as rows of glyphs made of
 * upright stems, antialiased at their fractional edges as a renderer draws them: a third of them
 * capitals, the rest lower case at 0.7 of their height.
 */

interface Type {
  /** Stem width, pixels (fractional). */
  stem: number;
  /** Capitals' height, pixels. */
  capitals: number;
}

const [WIDTH, HEIGHT, DPI] = [640, 420, 300];

/** A page of glyphs in the type: each glyph two stems, spaced as a text's. */
function page({ stem, capitals }: Type): PageImage {
  const grey = new Uint8Array(WIDTH * HEIGHT).fill(255);
  // Letters as wide as 0.7 of the capitals, their stems at least three pixels apart (antialiased edges
  // apart), every stem at the same offset within its pixels.
  const gap = Math.ceil(Math.max(0.55 * capitals * 0.7, stem + 3));
  const pitch = Math.ceil(gap + stem + 3);
  for (let row = 0, top = 20; top + capitals < HEIGHT - 20; row++, top += Math.ceil(capitals * 1.6)) {
    for (let glyph = 0, left = 20.3; left + pitch < WIDTH - 20; glyph++, left += pitch) {
      const height = (glyph + row) % 3 === 0 ? capitals : Math.round(0.7 * capitals);
      for (const x of [left, left + gap]) {
        for (let column = Math.floor(x); column < Math.ceil(x + stem); column++) {
          const covered = Math.min(column + 1, x + stem) - Math.max(column, x);
          for (let y = top + capitals - height; y < top + capitals; y++) grey[y * WIDTH + column] = Math.round(255 * (1 - covered));
        }
      }
    }
  }
  return { width: WIDTH, height: HEIGHT, dpi: DPI, grey };
}

/**
 * Whether a stem's right edge leaves its last pixel covered by an eighth or more: a pixel covered less
 * is lighter than the paper level the measure counts ink under, and the stem would measure a sliver short.
 */
const measuresWhole = (stem: number) => (0.3 + stem) % 1 === 0 || (0.3 + stem) % 1 >= 0.13;

/** The page blurred as a low-resolution scan drawn larger is: each pixel the mean of the 5 × 5 square about it. */
function blurred(image: PageImage): PageImage {
  const grey = new Uint8Array(image.grey.length);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      let [sum, n] = [0, 0];
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          const [u, v] = [x + dx, y + dy];
          if (u < 0 || v < 0 || u >= image.width || v >= image.height) continue;
          sum += image.grey[v * image.width + u]!;
          n++;
        }
      }
      grey[y * image.width + x] = Math.round(sum / n);
    }
  }
  return { ...image, grey };
}

const isLight = (image: PageImage) => {
  const { image: clean, blobs } = despeckle(image);
  return isLightType(strokeWeight(clean, blobs));
};

const COURIER: Type = { stem: 2.1, capitals: 26 };
const HELVETICA: Type = { stem: 3.1, capitals: 26 };

describe('stroke weight', () => {
  it('measures the stems by their ink, grey edges counted, and the capitals by the upper quartile of glyph heights', () => {
    fc.assert(
      fc.property(fc.double({ min: 1.2, max: 4.5, noNaN: true }).filter(measuresWhole), fc.integer({ min: 16, max: 40 }), (stem, capitals) => {
        const { image, blobs } = despeckle(page({ stem, capitals }));
        const weight = strokeWeight(image, blobs)!;
        // Each grey level is rounded to a 255th: the stem's ink within a hundredth of a pixel.
        expect(Math.abs(weight.stem - stem)).toBeLessThan(0.02);
        expect(weight.capitals).toBe(capitals);
      }),
      { numRuns: 25 },
    );
  });

  it('calls a type light where its stems are under 0.096 of its capitals, away from that line', () => {
    const ratio = fc.oneof(fc.double({ min: 0.05, max: 0.088, noNaN: true }), fc.double({ min: 0.105, max: 0.16, noNaN: true }));
    fc.assert(
      fc.property(
        fc.tuple(ratio, fc.integer({ min: 18, max: 36 })).filter(([share, capitals]) => measuresWhole(share * capitals)),
        ([share, capitals]) => {
          expect(isLight(page({ stem: share * capitals, capitals }))).toBe(share < 0.096);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('does not call a blurred page light, however thin its type: its strokes are spread into grey already', () => {
    expect(isLight(page(COURIER))).toBe(true);
    expect(isLight(blurred(page(COURIER)))).toBe(false);
  });

  it('measures nothing on a page without glyphs', () => {
    const blank: PageImage = { width: WIDTH, height: HEIGHT, dpi: DPI, grey: new Uint8Array(WIDTH * HEIGHT).fill(255) };
    expect(strokeWeight(blank, [])).toBeUndefined();
    expect(isLightType(undefined)).toBe(false);
  });

  it.each([
    ['a light type is read a pixel bolder', COURIER, true],
    ['a type of ordinary weight is read as drawn', HELVETICA, false],
  ])('%s; the repairs after see the page as drawn', async (_what, type, bolder) => {
    const drawn = page(type);
    const rendered: RenderedPage = { pageNumber: 1, width: (WIDTH * 72) / DPI, height: (HEIGHT * 72) / DPI, image: drawn, unitsPerPixel: 72 / DPI, skewDegrees: 0, drawn, renderer: 'pdf.js' };
    async function* render() {
      yield rendered;
    }
    const seen: PageImage[] = [];
    const word = (text: string, x0: number): RecognizedWord => ({ text, confidence: 0.95, x0, y0: 20, x1: x0 + 60, y1: 46 });
    const engine: TextRecognizer = {
      engine: 'watching',
      recognize: async (image) => {
        seen.push(image);
        return ['GLUCOSE', 'SODIUM', 'CHLORIDE', 'CALCIUM', 'ALBUMIN'].map((text, i) => word(text, 20 + 110 * i));
      },
    };
    const pages = [];
    for await (const recognition of recognizePages(new Uint8Array(), [1], engine, DPI, render)) pages.push(recognition);
    expect(pages).toHaveLength(1);
    expect(seen).toHaveLength(1);
    const ink = (image: PageImage) => image.grey.reduce((sum, g) => sum + (255 - g), 0);
    if (bolder) expect(ink(seen[0]!)).toBeGreaterThan(1.3 * ink(drawn));
    else expect(seen[0]!.grey).toEqual(drawn.grey);
  });
});
