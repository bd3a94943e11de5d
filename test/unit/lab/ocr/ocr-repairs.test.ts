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
  ])('repairs %s as %s', (read, repaired) => expect(normaliseWord(read)).toBe(repaired));

  it.each(['Dr.', 'Collected:', 'patient.', 'Iron', 'lO', 'II', 'x10E3/uL', '>6.4', '<7.0', '1,234', 'Bind.Cap.(TIBC)', 'mg/dL', 'mcg/dL', 'Date/Time', 'X10E3/uL', 'x10E3/ulL', 'QNS', 'TNP', 'ONE', 'SO', 'Ons', 'HIGH'])('leaves %s as it is', (word) => expect(normaliseWord(word)).toBe(word));

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
});
