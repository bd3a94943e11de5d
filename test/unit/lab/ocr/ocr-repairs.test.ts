import fc from 'fast-check';
import { RESTORED_CONFIDENCE, withDecimalPoint } from '../../../../functions/lab/ocr/decimal-points';
import { despeckle } from '../../../../functions/lab/ocr/despeckle';
import { normaliseWord } from '../../../../functions/lab/ocr/normalise-word';
import type { PageImage, RecognizedWord } from '../../../../functions/lab/ocr/recognizer';

/** A white 300-dpi page with black rectangles [x, y, width, height] drawn on it. */
function page(rects: Array<[number, number, number, number]>, width = 400, height = 200): PageImage {
  const grey = new Uint8Array(width * height).fill(250);
  for (const [x0, y0, w, h] of rects) for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) grey[y * width + x] = 10;
  return { width, height, dpi: 300, grey };
}

/** Two "digits" 12 px wide and 30 px tall standing on the baseline y = 130, 8 px apart, from x = 100. */
const DIGITS: Array<[number, number, number, number]> = [
  [100, 100, 12, 30],
  [128, 100, 12, 30],
];
const WORD: RecognizedWord = { text: '53', x0: 100, y0: 100, x1: 140, y1: 130, confidence: 0.95 };

describe('normaliseWord', () => {
  it.each([
    ['364.', '364'],
    ['Thousand/uL.', 'Thousand/uL'],
    ['‘mmol/L', 'mmol/L'],
    ['mg/dL"', 'mg/dL'],
    ['1O5', '105'],
    ['l.2', '1.2'],
    ['4O-5O', '40-50'],
    ['09/17/25,', '09/17/25'],
    ['ulU/mL', 'uIU/mL'],
    ['cells/ul', 'cells/uL'],
    ['[HPF', '/HPF'],
    ['lU/L', 'IU/L'],
    ['ONS', 'QNS'],
    ['NEGATlVE', 'NEGATIVE'],
    ['N0NE', 'NONE'],
    ['>0R', '>OR'],
    ['0R', 'OR'],
    ['<0R=', '<OR='],
  ])('repairs %s as %s', (read, repaired) => expect(normaliseWord(read)).toBe(repaired));

  it.each(['Dr.', 'Collected:', 'patient.', 'Iron', 'lO', 'II', 'x10E3/uL', '>6.4', '<7.0', '1,234', 'Bind.Cap.(TIBC)', 'mg/dL', 'mcg/dL', 'Date/Time', 'X10E3/uL', 'x10E3/ulL', 'QNS', 'TNP', 'ONE', 'SO', 'Ons', 'HIGH', '10R', '>0', '0R5'])('leaves %s as it is', (word) => expect(normaliseWord(word)).toBe(word));

  it('never touches a word without digits or slashes beyond its opening quote marks, and is idempotent', () => {
    const confusable = fc.constantFrom(...'0123456789OolI1[|/.,-<>% mgdLuIUHPF"\'`~‘’“”'.split(''));
    fc.assert(
      fc.property(fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ unit: confusable, minLength: 1, maxLength: 10 })), (word) => {
        const once = normaliseWord(word);
        expect(normaliseWord(once)).toBe(once);
        // Only numbers, units and upper-case words that may be a text result are ever respelled.
        const stripped = word.trim().replace(/^[\s‘’“”"'`~]+(?=.)/u, '');
        if (!/[\d/[|]/.test(word) && !/^[A-Z|!lo]{3,}$/.test(stripped)) expect(once).toBe(stripped);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('withDecimalPoint', () => {
  it('puts back a point printed on the baseline between two digits, and flags the word', () => {
    const image = page([...DIGITS, [118, 126, 4, 4]]);
    expect(withDecimalPoint(WORD, image)).toMatchObject({ text: '5.3', confidence: RESTORED_CONFIDENCE });
  });

  it('leaves digits without a point, with a speck smaller than a point, or with a mark above the baseline', () => {
    expect(withDecimalPoint(WORD, page(DIGITS))).toBe(WORD);
    expect(withDecimalPoint(WORD, page([...DIGITS, [119, 128, 1, 2]]))).toBe(WORD);
    expect(withDecimalPoint(WORD, page([...DIGITS, [116, 113, 8, 3]]))).toBe(WORD);
  });

  it('doubts the word rather than guessing when its digits are not one blob each', () => {
    const joined = page([[100, 100, 40, 30], [150, 100, 12, 30], [143, 126, 4, 4]]);
    expect(withDecimalPoint({ ...WORD, text: '123', x1: 162 }, joined)).toMatchObject({ text: '123', confidence: 0 });
  });

  it('reads a point the engine took for a colon, semicolon or comma as the point the image shows', () => {
    const point = page([...DIGITS, [118, 126, 4, 4]]);
    for (const text of ['5:3', '5;3', '5,3']) expect(withDecimalPoint({ ...WORD, text }, point)).toMatchObject({ text: '5.3', confidence: RESTORED_CONFIDENCE });
  });

  it('keeps a colon that is one (a second dot above the point), a comma with a tail, and a mark without a point', () => {
    const colon = { ...WORD, text: '5:3' };
    expect(withDecimalPoint(colon, page([...DIGITS, [118, 126, 4, 4], [118, 110, 4, 4]]))).toBe(colon);
    expect(withDecimalPoint(colon, page(DIGITS))).toBe(colon);
    const comma = { ...WORD, text: '5,3' };
    expect(withDecimalPoint(comma, page([...DIGITS, [118, 126, 4, 10]]))).toBe(comma);
    // A thousands separator has three digits after it.
    const thousands = { ...WORD, text: '1,234' };
    expect(withDecimalPoint(thousands, page([...DIGITS, [118, 126, 4, 4]]))).toBe(thousands);
  });

  it('leaves words that are not whole numbers', () => {
    const word = { ...WORD, text: '5.3' };
    expect(withDecimalPoint(word, page([...DIGITS, [118, 126, 4, 4]]))).toBe(word);
  });
});

describe('despeckle', () => {
  it('whitens isolated specks and keeps every mark that stands near other ink', () => {
    const image = page([...DIGITS, [118, 126, 4, 4], [300, 50, 2, 2], [20, 180, 3, 3], [250, 100, 40, 3]]);
    const { image: clean, removed } = despeckle(image);
    expect(removed).toBe(2);
    expect(clean.grey[51 * 400 + 301]).toBe(255);
    expect(clean.grey[181 * 400 + 21]).toBe(255);
    // The point beside its digits, the digits and a long rule stay.
    expect(clean.grey[127 * 400 + 119]).toBe(10);
    expect(clean.grey[110 * 400 + 105]).toBe(10);
    expect(clean.grey[101 * 400 + 260]).toBe(10);
  });

  it('returns a page without specks unchanged', () => {
    const image = page(DIGITS);
    expect(despeckle(image)).toEqual({ image, removed: 0 });
  });

  /**
   * The rule read pixel by pixel (a flood fill of each 8-connected blob of ink), against which the
   * implementation (blobs among ink runs) is checked: a blob of at most 20 px, under 6 px a side, with no
   * other ink within 9 px of its box (at 300 dpi), is a speck; its pixels, and no others, turn white.
   */
  function specksByFloodFill(image: PageImage): { grey: Uint8Array; removed: number } {
    const { width, height } = image;
    const ink = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && image.grey[y * width + x]! < 128;
    const blob = new Int32Array(width * height).fill(-1);
    const members: number[][] = [];
    for (let start = 0; start < width * height; start++) {
      if (blob[start] !== -1 || !ink(start % width, Math.floor(start / width))) continue;
      const pixels = [start];
      blob[start] = members.length;
      for (let k = 0; k < pixels.length; k++) {
        const [x, y] = [pixels[k]! % width, Math.floor(pixels[k]! / width)];
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const i = (y + dy) * width + x + dx;
            if (ink(x + dx, y + dy) && blob[i] === -1) {
              blob[i] = members.length;
              pixels.push(i);
            }
          }
        }
      }
      members.push(pixels);
    }
    const grey = new Uint8Array(image.grey);
    let removed = 0;
    members.forEach((pixels, label) => {
      const xs = pixels.map((i) => i % width);
      const ys = pixels.map((i) => Math.floor(i / width));
      const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      if (pixels.length > 20 || x1 - x0 >= 6 || y1 - y0 >= 6) return;
      for (let y = Math.max(0, y0 - 9); y <= Math.min(height - 1, y1 + 9); y++) {
        for (let x = Math.max(0, x0 - 9); x <= Math.min(width - 1, x1 + 9); x++) if (ink(x, y) && blob[y * width + x] !== label) return;
      }
      removed++;
      for (const i of pixels) grey[i] = 255;
    });
    return { grey, removed };
  }

  it('whitens exactly the blobs the pixel-by-pixel rule calls specks, on pages of random ink', () => {
    const mark = fc.tuple(fc.nat(59), fc.nat(39), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }));
    fc.assert(
      fc.property(fc.array(mark, { maxLength: 25 }), fc.array(fc.tuple(fc.nat(59), fc.nat(39)), { maxLength: 40 }), (rects, dots) => {
        const image = page(
          [...rects.map(([x, y, w, h]): [number, number, number, number] => [x, y, Math.min(w, 60 - x), Math.min(h, 40 - y)]), ...dots.map(([x, y]): [number, number, number, number] => [x, y, 1, 1])],
          60,
          40,
        );
        const expected = specksByFloodFill(image);
        const { image: clean, removed } = despeckle(image);
        expect(removed).toBe(expected.removed);
        expect(Buffer.from(clean.grey).equals(Buffer.from(expected.grey))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
