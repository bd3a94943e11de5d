import fc from 'fast-check';
import { estimateSkew, inkShare, linesRunDown } from '../../../../functions/lab/ocr/deskew';
import { turned } from '../../../../functions/lab/ocr/grey-geometry';

/** A white page with rows of dark dashes (words) along lines tilted by `degrees`. */
function tiltedPage(degrees: number, width = 600, height = 700): { width: number; height: number; grey: Uint8Array } {
  const grey = new Uint8Array(width * height).fill(255);
  const slope = Math.tan((degrees * Math.PI) / 180);
  for (let row = 60; row < height - 60; row += 24) {
    for (let x = 40; x < width - 40; x++) {
      if (x % 50 > 38) continue; // gaps between words
      for (let t = 0; t < 7; t++) {
        const y = Math.round(row + x * slope) + t;
        if (y >= 0 && y < height) grey[y * width + x] = 20;
      }
    }
  }
  return { width, height, grey };
}

describe('estimateSkew', () => {
  it('finds the tilt of text lines within ±0.1° for any skew up to ±4°', () => {
    fc.assert(
      fc.property(fc.double({ min: -4, max: 4, noNaN: true }), (degrees) => {
        expect(Math.abs(estimateSkew(tiltedPage(degrees)) - degrees)).toBeLessThanOrEqual(0.1);
      }),
      { numRuns: 6 },
    );
  });

  it('answers 0 for a blank page', () => {
    const blank = { width: 300, height: 300, grey: new Uint8Array(300 * 300).fill(250) };
    expect(estimateSkew(blank)).toBe(0);
    expect(inkShare(blank)).toBe(0);
    expect(inkShare(tiltedPage(0))).toBeGreaterThan(0.05);
  });
});

describe('linesRunDown', () => {
  it('tells a straightened page whose lines run across it from the same page turned a quarter either way', () => {
    fc.assert(
      // Straightened: what skew is left is within the measure's error.
      fc.property(fc.double({ min: -0.3, max: 0.3, noNaN: true }), fc.constantFrom(1, 3), (degrees, turns) => {
        const page = { ...tiltedPage(degrees), dpi: 150 };
        expect(linesRunDown(page)).toBe(false);
        expect(linesRunDown(turned(page, turns))).toBe(true);
        expect(linesRunDown(turned(page, 2))).toBe(false);
      }),
      { numRuns: 6 },
    );
  });
});

