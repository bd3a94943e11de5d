import fc from 'fast-check';
import { evenlyLit, UNEVEN } from '../../../../functions/lab/ocr/lighting';
import type { PageImage } from '../../../../functions/lab/ocr/recognizer';

/**
 * Flat-field correction of a page's uneven light (functions/lab/ocr/lighting.ts), on synthetic pages: a
 * paper grey with rows of glyph-sized ink marks, lit by a falloff across the page as on a photo.
 */

const DPI = 100;
const [WIDTH, HEIGHT] = [300, 360];
const PAPER = 245;
const INK = 25;

/** Whether a pixel is one of the page's ink marks: 6 × 9-pixel glyphs, 4 apart, on lines 20 pixels apart. */
const isInk = (x: number, y: number) => x >= 20 && x < WIDTH - 20 && y >= 20 && y < HEIGHT - 20 && y % 20 < 9 && x % 10 < 6;

/** The page lit `light(x, y)` (0–1) over each pixel, paper and ink alike, plus `noise` grey levels drawn from `random`. */
function page(light: (x: number, y: number) => number, noise = 0, random: () => number = Math.random): PageImage {
  const grey = new Uint8Array(WIDTH * HEIGHT);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const level = (isInk(x, y) ? INK : PAPER) * light(x, y) + (random() - 0.5) * noise;
      grey[y * WIDTH + x] = Math.max(0, Math.min(255, Math.round(level)));
    }
  }
  return { width: WIDTH, height: HEIGHT, dpi: DPI, grey };
}

/** The dimmest paper and the palest ink of the page. */
function levels(image: PageImage): { dimmestPaper: number; palestInk: number } {
  let [dimmestPaper, palestInk] = [255, 0];
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const level = image.grey[y * WIDTH + x]!;
      if (isInk(x, y)) palestInk = Math.max(palestInk, level);
      else dimmestPaper = Math.min(dimmestPaper, level);
    }
  }
  return { dimmestPaper, palestInk };
}

describe('evenlyLit', () => {
  it('makes the paper of a page lit from full to 40 % across it near white again, its ink as dark as printed', () => {
    const dim = page((x, y) => 1 - 0.6 * (0.6 * (x / WIDTH) + 0.4 * (y / HEIGHT)));
    // As lit, the dim corner's paper is darker than 128, where deskew and despeckling take pixels for ink.
    expect(levels(dim).dimmestPaper).toBeLessThan(128);
    const { dimmestPaper, palestInk } = levels(evenlyLit(dim));
    // Paper near white again (the page's edges, beyond the outermost cells' centres, a little under), ink as dark as printed.
    expect(dimmestPaper).toBeGreaterThanOrEqual(200);
    expect(palestInk).toBeLessThanOrEqual(60);
  });

  it('leaves a page lit evenly as it is, pixel for pixel, also with a scanner’s noise and a dark logo', () => {
    const even = page(() => 1, 16);
    expect(evenlyLit(even)).toBe(even);
    // A solid logo an inch square: the cells around it show the paper's light, and nothing changes.
    const logo = page(() => 1);
    for (let y = 100; y < 200; y++) logo.grey.fill(10, y * WIDTH + 100, y * WIDTH + 200);
    expect(evenlyLit(logo)).toBe(logo);
  });

  it('gives near-white paper and dark ink whatever the falloff, and leaves the page as it is within the threshold', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 0.65, noNaN: true }), fc.integer({ min: 0, max: 3 }), (falloff, corner) => {
        // The light falls off toward one of the four corners.
        const [fx, fy] = [corner & 1, corner >> 1];
        const light = (x: number, y: number) => 1 - falloff * (0.6 * Math.abs(fx - x / WIDTH) + 0.4 * Math.abs(fy - y / HEIGHT));
        const dim = page(light);
        const corrected = evenlyLit(dim);
        if (falloff * PAPER <= UNEVEN * 0.8) expect(corrected).toBe(dim);
        const { dimmestPaper, palestInk } = levels(corrected);
        expect(dimmestPaper).toBeGreaterThanOrEqual(200);
        expect(palestInk).toBeLessThanOrEqual(60);
      }),
      { numRuns: 12 },
    );
  });
});
