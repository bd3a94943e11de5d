import fc from 'fast-check';
import { isBilevel } from '../../../../functions/lab/ocr/bilevel';

/** A page of `width` × `height` paper with black strokes (rectangles) where `strokes` puts them. */
function page(width: number, height: number, strokes: readonly { x: number; y: number; w: number; h: number }[]): Uint8Array {
  const grey = new Uint8Array(width * height).fill(255);
  for (const { x, y, w, h } of strokes) {
    for (let row = y; row < Math.min(height, y + h); row++) grey.fill(0, row * width + x, row * width + Math.min(width, x + w));
  }
  return grey;
}

/** The page as a grey scan shows it: every pixel the mean of its 3 × 3 neighbourhood, so each edge shades into the paper. */
function antialiased(grey: Uint8Array, width: number): Uint8Array {
  const height = grey.length / width;
  const out = new Uint8Array(grey.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) sum += grey[Math.min(height - 1, Math.max(0, y + dy)) * width + Math.min(width - 1, Math.max(0, x + dx))]!;
      out[y * width + x] = Math.round(sum / 9);
    }
  }
  return out;
}

const WIDTH = 120;
const HEIGHT = 80;
/** Glyph-like strokes: one to three pixels thick, a few to a few dozen long, enough of them to mark the page. */
const strokes = fc.array(
  fc.record({ x: fc.integer({ min: 0, max: WIDTH - 1 }), y: fc.integer({ min: 0, max: HEIGHT - 1 }), w: fc.integer({ min: 1, max: 30 }), h: fc.integer({ min: 1, max: 3 }) }),
  { minLength: 20, maxLength: 100 },
);

describe('isBilevel', () => {
  it('tells a page drawn from a black-and-white image (its ink pure black) from the same page scanned in grey', () => {
    fc.assert(
      fc.property(strokes, (drawn) => {
        const sharp = page(WIDTH, HEIGHT, drawn);
        expect(isBilevel(sharp)).toBe(true);
        expect(isBilevel(antialiased(sharp, WIDTH))).toBe(false);
      }),
      { numRuns: 50 },
    );
  });

  it('says nothing of a blank page, nor of one in grey levels only', () => {
    expect(isBilevel(new Uint8Array(WIDTH * HEIGHT).fill(255))).toBe(false);
    expect(isBilevel(new Uint8Array(WIDTH * HEIGHT).map((_, i) => (i % 5 === 0 ? 90 : 255)))).toBe(false);
  });
});
