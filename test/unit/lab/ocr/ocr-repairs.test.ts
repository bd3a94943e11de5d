import fc from 'fast-check';
import vocabulary from '../../../../data/lab/report-vocabulary.json';
import { RESTORED_CONFIDENCE, withDecimalPoint } from '../../../../functions/lab/ocr/decimal-points';
import { despeckle } from '../../../../functions/lab/ocr/despeckle';
import { normaliseWord, PRINTED_UNITS, TEXT_RESULT_WORDS } from '../../../../functions/lab/ocr/normalise-word';
import { withoutPhantomMark } from '../../../../functions/lab/ocr/phantom-mark';
import { withDroppedHyphen, withRangeMarksRestored, withRangeSpacing, withSplitPointsJoined, withSplitRangesJoined } from '../../../../functions/lab/ocr/range-hyphens';
import { printedRangeText } from '../../../../functions/lab/ocr/range-text-spelling';
import type { PageImage, RecognizedWord } from '../../../../functions/lab/ocr/recognizer';
import { withSpeckHyphenSplit } from '../../../../functions/lab/ocr/speck-hyphens';
import { withTrailingPeriod } from '../../../../functions/lab/ocr/trailing-period';
import { withUnitLetterCase } from '../../../../functions/lab/ocr/unit-letter-case';
import { withUnitLostStroke } from '../../../../functions/lab/ocr/unit-lost-stroke';
import { respacedUnit } from '../../../../functions/lab/ocr/unit-spacing';
import { parseRange } from '../../../../functions/lab/parsers/values';
import { isPrintedUnit } from '../../../../functions/lab/ucum/to-ucum';

/** A white 300-dpi page with black rectangles [x, y, width, height] drawn on it. */
function page(rects: Array<[number, number, number, number]>, width = 400, height = 200): PageImage {
  const grey = new Uint8Array(width * height).fill(250);
  for (const [x0, y0, w, h] of rects) for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) grey[y * width + x] = 10;
  return { width, height, dpi: 300, grey };
}

/**
 * Two "digits" 12 px wide and 30 px tall standing on the baseline y = 130, from x = 100, 20 px apart:
 * room for a point between them ([120, 126, 4, 4]), on the 32 px pitch a point gives digits of a 22 px one.
 */
const DIGITS: Array<[number, number, number, number]> = [
  [100, 100, 12, 30],
  [132, 100, 12, 30],
];
const POINT: [number, number, number, number] = [120, 126, 4, 4];
const WORD: RecognizedWord = { text: '53', x0: 100, y0: 100, x1: 144, y1: 130, confidence: 0.95 };

describe('normaliseWord', () => {
  it.each([
    ['364.', '364'],
    ['Thousand/uL.', 'Thousand/uL'],
    ['‘mmol/L', 'mmol/L'],
    ['mg/dL"', 'mg/dL'],
    ['1O5', '105'],
    ['l.2', '1.2'],
    ['4O-5O', '40-50'],
    ['<@.005', '<0.005'],
    ['1@5', '105'],
    ['09/17/25,', '09/17/25'],
    ['ulU/mL', 'uIU/mL'],
    ['cells/ul', 'cells/uL'],
    ['[HPF', '/HPF'],
    // A unit's opening slash lost (a 1-bit scan): only where the unit table prints the unit with it.
    ['HPF', '/HPF'],
    ['LPF', '/LPF'],
    ['PLT', 'PLT'],
    ['lU/L', 'IU/L'],
    // The letters of printed units, their case read otherwise: the unit nearest in case.
    ['x10E3/ul', 'x10E3/uL'],
    ['mg/dl', 'mg/dL'],
    ['ONS', 'QNS'],
    ['NEGATlVE', 'NEGATIVE'],
    ['N0NE', 'NONE'],
    ['>0R', '>OR'],
    ['0R', 'OR'],
    ['<0R=', '<OR='],
    // A comparison sign with stair-stepped edges (a fax), read as a guillemet.
    ['«0.2', '<0.2'],
    ['»39', '>39'],
    ['«200', '<200'],
    ['‹.5', '<.5'],
    ['IU/L:', 'IU/L'],
    ['x10E3/ulL', 'x10E3/uL'],
    ['mg/dlL', 'mg/dL'],
    ['mg/dL;', 'mg/dL'],
    ['J!', 'JI'],
    ['N|1', 'NL1'],
    // A unit's slash read as an upright stroke.
    ['gldL', 'g/dL'],
    ['mgIdL', 'mg/dL'],
    ['pglmL', 'pg/mL'],
    // A speck read as a mark inside a unit.
    ['x10E:3/uL', 'x10E3/uL'],
    ["mg/d'L", 'mg/dL'],
    // A small g read as an a.
    ['ma/dl', 'mg/dL'],
    // A stretch of a table rule, or a speck.
    ['|', ''],
    ['||', ''],
    ['pa/mL', 'pg/mL'],
    // A small c read as an e.
    ['meg/dL', 'mcg/dL'],
    // A speck after a word of a text result, read as a closing quote.
    ['Reactive’', 'Reactive'],
    ['NEGATIVE"', 'NEGATIVE'],
    // A point's dot read with a tail, as a comma: no thousands separator.
    ['4,14-5.80', '4.14-5.80'],
    ['0.450-4,500', '0.450-4.500'],
    ['<0,5', '<0.5'],
    ['12,50', '12.50'],
  ])('repairs %s as %s', (read, repaired) => expect(normaliseWord(read)).toBe(repaired));

  it.each(['Dr.', 'Collected:', 'patient.', 'Iron', 'lO', 'II', 'x10E3/uL', '>6.4', '<7.0', '1,234', 'Bind.Cap.(TIBC)', 'mg/dL', 'mcg/dL', 'Date/Time', 'X10E3/uL', 'QNS', 'TNP', 'ONE', 'SO', 'Ons', 'HIGH', '10R', '>0', '0R5', '@', 'a@b.com', '@5a', 'Date/Time:', 'Units:', '%:', '|!', 'E!', 'Lipid', 'Glucose', 'Cholesterol', 'mL', 'Ul', 'fL', 'mL/min/1.73', '1:40/x', 'patients’', 'said"', '150,000-450,000', '1,000', '>1,500', '«', '»Note', 'a«1'])('leaves %s as it is', (word) => expect(normaliseWord(word)).toBe(word));

  it('never touches a word without digits or slashes beyond its opening quote marks, and is idempotent', () => {
    const confusable = fc.constantFrom(...'0123456789OolI1@[|/.,-<>% mgdLuIUHPF"\'`~‘’“”'.split(''));
    fc.assert(
      fc.property(fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ unit: confusable, minLength: 1, maxLength: 10 })), (word) => {
        const once = normaliseWord(word);
        expect(normaliseWord(once)).toBe(once);
        // Only numbers, units (also a word that becomes one with a stroke read as its slash), upper-case words that may be a text result, words of a text result closing in a quote and short codes with a stroke mark are ever respelled.
        const stripped = word.trim().replace(/^[\s‘’“”"'`~]+(?=.)/u, '');
        const textResultWord = TEXT_RESULT_WORDS.has(stripped.replace(/[‘’“”"'`]+$/u, '').toUpperCase());
        if (!/[\d/[|]/.test(word) && !/^[A-Z|!lo]{3,}$/.test(stripped) && !/^[A-Z!]{2,4}$/.test(stripped) && !PRINTED_UNITS.has(once) && !textResultWord) expect(once).toBe(stripped);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('withDecimalPoint', () => {
  it('puts back a point printed on the baseline between two digits, and flags the word', () => {
    const image = page([...DIGITS, POINT]);
    expect(withDecimalPoint(WORD, image)).toMatchObject({ text: '5.3', confidence: RESTORED_CONFIDENCE });
  });

  it('leaves digits without a point, with a speck smaller than a point, or with a mark above the baseline', () => {
    expect(withDecimalPoint(WORD, page(DIGITS))).toBe(WORD);
    expect(withDecimalPoint(WORD, page([...DIGITS, [121, 128, 1, 2]]))).toBe(WORD);
    expect(withDecimalPoint(WORD, page([...DIGITS, [118, 113, 8, 3]]))).toBe(WORD);
  });

  it('takes a point as small as a tenth of the digits to the nearest pixel, and no smaller speck', () => {
    // 7-pt Helvetica's `4.8` on a 150-dpi scan, at 300 dpi: digits 22 px tall, a point 2 px across (2.2 measures as 2).
    const small: Array<[number, number, number, number]> = [
      [100, 108, 12, 22],
      [132, 108, 12, 22],
    ];
    expect(withDecimalPoint({ ...WORD, y0: 108 }, page([...small, [121, 128, 2, 2]]))).toMatchObject({ text: '5.3', confidence: RESTORED_CONFIDENCE });
    expect(withDecimalPoint({ ...WORD, y0: 108 }, page([...small, [121, 129, 1, 1]]))).toMatchObject({ text: '53' });
    // Beside digits 30 px tall a point is 3 px or more: 2 px is a speck.
    expect(withDecimalPoint(WORD, page([...DIGITS, [121, 128, 2, 2]]))).toBe(WORD);
  });

  it("puts back a point level with the digits' feet where a soft scan broke those feet off", () => {
    // Each digit's last 3 rows (a serif `3`'s lower bowl) a blob of its own, a row of paper above them.
    const broken: Array<[number, number, number, number]> = [
      [100, 100, 12, 26],
      [101, 127, 9, 3],
      [132, 100, 12, 26],
      [133, 127, 9, 3],
    ];
    expect(withDecimalPoint(WORD, page([...broken, POINT]))).toMatchObject({ text: '5.3', confidence: RESTORED_CONFIDENCE });
    expect(withDecimalPoint(WORD, page(broken))).toBe(WORD);
    // A foot broken off the middle digit is part of it, and no point between its neighbours.
    const middle = { ...WORD, text: '531', x1: 176 };
    expect(withDecimalPoint(middle, page([[100, 100, 12, 30], [122, 100, 12, 26], [126, 127, 4, 3], [144, 100, 12, 30]]))).toBe(middle);
  });

  it('doubts the word rather than guessing when its digits are not one blob each', () => {
    const joined = page([[100, 100, 40, 30], [150, 100, 12, 30], [143, 126, 4, 4]]);
    expect(withDecimalPoint({ ...WORD, text: '123', x1: 162 }, joined)).toMatchObject({ text: '123', confidence: 0 });
  });

  it('reads a point the engine took for a colon, semicolon, comma, percent sign, s or dollar sign as the point the image shows', () => {
    const point = page([...DIGITS, POINT]);
    for (const text of ['5:3', '5;3', '5,3', '5%3', '5s3', '5$3']) expect(withDecimalPoint({ ...WORD, text }, point)).toMatchObject({ text: '5.3', confidence: RESTORED_CONFIDENCE });
  });

  it('puts back the point of a value the engine read glued to its flag, and no mark in the usual gap before the flag', () => {
    const flagged = { ...WORD, text: '53H', x1: 166 };
    // The flag on the digits' 22 px pitch after the 3.
    const flag: [number, number, number, number] = [154, 100, 12, 30];
    expect(withDecimalPoint(flagged, page([...DIGITS, flag, POINT]))).toMatchObject({ text: '5.3H', confidence: RESTORED_CONFIDENCE });
    const unpointed = { ...flagged, x1: 144 };
    expect(withDecimalPoint(unpointed, page([[100, 100, 12, 30], [122, 100, 12, 30], [144, 100, 12, 30], [137, 126, 4, 4]]))).toBe(unpointed);
    expect(withDecimalPoint(flagged, page([...DIGITS, flag]))).toBe(flagged);
  });

  it('puts back the points of both numbers of a range, the hyphen being no glyph of them', () => {
    const range = { ...WORD, text: '53-86', x1: 208 };
    const pointed: Array<[number, number, number, number]> = [...DIGITS, [150, 113, 8, 3], [164, 100, 12, 30], [196, 100, 12, 30]];
    expect(withDecimalPoint(range, page([...pointed, POINT, [184, 126, 4, 4]]))).toMatchObject({ text: '5.3-8.6' });
    // 53 without a point, on the plain pitch.
    const half: Array<[number, number, number, number]> = [[100, 100, 12, 30], [122, 100, 12, 30], [140, 113, 8, 3], [154, 100, 12, 30], [186, 100, 12, 30], [174, 126, 4, 4]];
    expect(withDecimalPoint({ ...range, x1: 198 }, page(half))).toMatchObject({ text: '53-8.6' });
  });

  it('restores every point a number or range was printed with, from where the image shows it, and invents none from a mark in a digit gap', () => {
    const number = fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 3 })).map(([whole, decimals]) => ({ whole, decimals }));
    fc.assert(
      fc.property(number, fc.option(number, { nil: undefined }), fc.constantFrom('', 'H', 'LL'), fc.option(fc.nat(), { nil: undefined }), (first, second, flag, speckAt) => {
        // Glyphs 12 px wide on a 20 px pitch, a point 4 px square alone in a 12 px slot, a hyphen in one.
        const rects: Array<[number, number, number, number]> = [];
        let printed = '';
        let x = 10;
        /** Where each digit that another digit follows directly starts: a speck may fall in the 8 px gap after it. */
        const gaps: number[] = [];
        const glyph = (character: string) => {
          if (/\d/.test(character) && /\d$/.test(printed)) gaps.push(x - 20);
          printed += character;
          if (character === '.') rects.push([x + 4, 126, 4, 4]);
          else if (character === '-') rects.push([x + 2, 113, 8, 3]);
          else rects.push([x, 100, 12, 30]);
          x += /[.-]/.test(character) ? 12 : 20;
        };
        const draw = ({ whole, decimals }: { whole: number; decimals: number }) => {
          for (let i = 0; i < whole; i++) glyph(String((i + 3) % 10));
          if (decimals > 0) glyph('.');
          for (let i = 0; i < decimals; i++) glyph(String((i + 7) % 10));
        };
        draw(first);
        if (second) {
          glyph('-');
          draw(second);
        }
        for (const letter of flag) glyph(letter);
        // A speck the size of a point in the 8 px gap between two digits, 2 px from each.
        if (speckAt !== undefined && gaps.length > 0) rects.push([gaps[speckAt % gaps.length]! + 14, 126, 4, 4]);
        const read = printed.replaceAll('.', '');
        const word = { ...WORD, text: read, x0: 10, x1: x };
        const result = withDecimalPoint(word, page(rects, x + 20));
        if (!/\d\d/.test(read) || printed === read) expect(result).toBe(word);
        else expect(result).toMatchObject({ text: printed, confidence: RESTORED_CONFIDENCE });
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a colon that is one (a second dot above the point), a comma with a tail, and a mark without a point', () => {
    const colon = { ...WORD, text: '5:3' };
    expect(withDecimalPoint(colon, page([...DIGITS, POINT, [120, 110, 4, 4]]))).toBe(colon);
    expect(withDecimalPoint(colon, page(DIGITS))).toBe(colon);
    const comma = { ...WORD, text: '5,3' };
    expect(withDecimalPoint(comma, page([...DIGITS, [120, 126, 4, 10]]))).toBe(comma);
    // A mark as tall as a digit between them (`%`, `s`), or none at all.
    for (const text of ['5%3', '5s3', '5$3']) {
      const misread = { ...WORD, text };
      expect(withDecimalPoint(misread, page([...DIGITS, [118, 104, 8, 22]]))).toBe(misread);
      expect(withDecimalPoint(misread, page(DIGITS))).toBe(misread);
    }
    // A thousands separator has three digits after it.
    const thousands = { ...WORD, text: '1,234' };
    expect(withDecimalPoint(thousands, page([...DIGITS, POINT]))).toBe(thousands);
  });

  it('leaves words that are not whole numbers', () => {
    const word = { ...WORD, text: '5.3' };
    expect(withDecimalPoint(word, page([...DIGITS, POINT]))).toBe(word);
  });
});

/**
 * A range `whole.decimals-whole.decimals` drawn as DIGITS are, points in 12 px slots (none for no
 * decimals; left blank, as ink lost, without `points`), the hyphen in a 14 px one (or a mark `mark` there).
 */
function range(first: [number, number], second: [number, number], mark: [number, number, number, number] | null = [2, 113, 8, 3], points = true) {
  const rects: Array<[number, number, number, number]> = [];
  let x = 100;
  const digits = (n: number) => {
    for (let i = 0; i < n; i++, x += 20) rects.push([x, 100, 12, 30]);
  };
  const number = ([whole, decimals]: [number, number]) => {
    digits(whole);
    if (decimals === 0) return;
    if (points) rects.push([x, 126, 4, 4]);
    x += 12;
    digits(decimals);
  };
  number(first);
  if (mark) rects.push([x + mark[0], mark[1], mark[2], mark[3]]);
  x += 14;
  number(second);
  return { image: page(rects, x + 20), x1: x };
}

/** The printed range of `range`'s shape: 3s and 7s, then 4s and 5s (rising). */
function printedRange([whole1, decimals1]: [number, number], [whole2, decimals2]: [number, number]): string {
  const number = (whole: string, decimals: string) => (decimals === '' ? whole : `${whole}.${decimals}`);
  return `${number('3'.repeat(whole1), '7'.repeat(decimals1))}-${number('4'.repeat(whole2), '5'.repeat(decimals2))}`;
}

describe('withRangeSpacing', () => {
  /** Digits 12 px wide and 30 tall on a 20 px pitch from x = 100, the bounds' first digits `gap` pitches apart, a hyphen half way up between. */
  function range(firstDigits: number, secondDigits: number, gap: number): { image: PageImage; x1: number } {
    const rects: Array<[number, number, number, number]> = [];
    for (let i = 0; i < firstDigits; i++) rects.push([100 + 20 * i, 100, 12, 30]);
    const second = 100 + 20 * (firstDigits - 1 + gap);
    for (let i = 0; i < secondDigits; i++) rects.push([second + 20 * i, 100, 12, 30]);
    const hyphenCentre = (100 + 20 * (firstDigits - 1) + 6 + second + 6) / 2;
    rects.push([Math.round(hyphenCentre - 6), 113, 12, 4]);
    return { image: page(rects), x1: second + 20 * (secondDigits - 1) + 12 };
  }
  const word = (text: string, x1: number): RecognizedWord => ({ text, x0: 100, y0: 100, x1, y1: 130, confidence: 0.91 });

  it('puts back the spaces printed around the hyphen of a range, where its digits stand apart by more than the hyphen alone gives', () => {
    // Courier's `6 - 24`: the 6 and the 2 four pitches apart; Helvetica's, 2.6.
    const courier = range(1, 2, 4);
    expect(withRangeSpacing(word('6-24', courier.x1), courier.image)).toMatchObject({ text: '6 - 24', confidence: 0.91 });
    const helvetica = range(2, 3, 2.6);
    expect(withRangeSpacing(word('65-100', helvetica.x1), helvetica.image)).toMatchObject({ text: '65 - 100' });
  });

  it('leaves a range printed without spaces, one with no plain pair of digits to measure by, one whose glyphs are not its digits, and any other word', () => {
    for (const gap of [2, 1.6]) {
      const unspaced = range(2, 2, gap);
      const read = word('65-99', unspaced.x1);
      expect(withRangeSpacing(read, unspaced.image)).toBe(read);
    }
    const wide = range(1, 1, 4);
    const noPair = word('6-9', wide.x1);
    expect(withRangeSpacing(noPair, wide.image)).toBe(noPair);
    // Courier's `7.5-12.5` on a 20 px pitch, its 1 narrower and standing right of its cell's middle, as
    // DejaVu Sans Mono draws it: by the pair `12` the hyphen would measure 2.4 pitches.
    const cells: Array<[number, number, number, number]> = [0, 2, 5, 7].map((cell) => [100 + 20 * cell, 100, 12, 30]);
    cells.push([184, 100, 9, 30], [123, 126, 4, 4], [223, 126, 4, 4], [160, 113, 12, 4]);
    const withOne = word('7.5-12.5', 252);
    expect(withRangeSpacing(withOne, page(cells))).toBe(withOne);
    const courier = range(1, 2, 4);
    for (const text of ['6-245', '24-6', '6-24H', '2024-06']) {
      const other = word(text, courier.x1);
      expect(withRangeSpacing(other, courier.image)).toBe(other);
    }
  });
});

describe('withDroppedHyphen', () => {

  it('puts back the hyphen of a range where the image shows it, and flags the word', () => {
    fc.assert(
      fc.property(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 })), fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 })), (first, second) => {
        const { image, x1 } = range(first, second);
        const printed = printedRange(first, second);
        const word = { ...WORD, text: printed.replace('-', ''), x1 };
        expect(withDroppedHyphen(word, image)).toMatchObject({ text: printed, confidence: RESTORED_CONFIDENCE });
        // The hyphen read as a point.
        expect(withDroppedHyphen({ ...word, text: printed.replace('-', '.') }, image)).toMatchObject({ text: printed, confidence: RESTORED_CONFIDENCE });
      }),
      { numRuns: 100 },
    );
  });

  it('leaves the word without a hyphen in the image, with a mark on the baseline or a tall one, and any word that is no such range', () => {
    for (const mark of [null, [2, 127, 8, 3], [4, 104, 3, 20]] as Array<[number, number, number, number] | null>) {
      const { image, x1 } = range([1, 1], [1, 1], mark);
      for (const text of ['1.54.5', '1.5.4.5']) {
        const word = { ...WORD, text, x1 };
        expect(withDroppedHyphen(word, image)).toBe(word);
      }
    }
    const { image, x1 } = range([1, 1], [1, 1]);
    // A hyphen in the image, but a reading with more digits than the image has glyphs, or no such range.
    for (const text of ['1.5-4.5', '15.45', '1.5.4.55']) expect(withDroppedHyphen({ ...WORD, text, x1 }, image)).toMatchObject({ text });
  });
});

describe('withRangeMarksRestored', () => {
  const sides = fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 }));
  const rising = fc.tuple(sides, sides).filter(([first, second]) => first[0] <= second[0]);

  it('puts back the marks of a range the engine lost (its hyphen and points, or some of them), where the image shows them all, and flags the word', () => {
    fc.assert(
      fc.property(rising, fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), ([first, second], kept) => {
        fc.pre(first[0] + first[1] + second[0] + second[1] >= 3);
        const { image, x1 } = range(first, second);
        const printed = printedRange(first, second);
        // Each mark kept or lost as `kept` says, at least one lost; the hyphen only with a point lost too (`1.54.5` is withDroppedHyphen's).
        let mark = 0;
        const read = [...printed].filter((c) => /\d/.test(c) || kept[mark++]!).join('');
        fc.pre(read !== printed && (read.includes('-') || !read.includes('.')));
        const word = { ...WORD, text: read, x1 };
        expect(withRangeMarksRestored(word, image)).toMatchObject({ text: printed, confidence: RESTORED_CONFIDENCE });
        // Read whole, the range stays as it is, trusted as much as before.
        const whole = { ...word, text: printed };
        expect(withRangeMarksRestored(whole, image)).toBe(whole);
      }),
      { numRuns: 200 },
    );
  });

  it('leaves the digits where a wide gap shows no mark (a point lost), where no hyphen shows, or where the range would fall', () => {
    fc.assert(
      fc.property(sides, sides, (first, second) => {
        fc.pre(first[0] + first[1] + second[0] + second[1] >= 3);
        const text = printedRange(first, second).replace(/[.-]/g, '');
        const cases = [range(first, second, null), ...(first[1] + second[1] > 0 ? [range(first, second, undefined, false)] : [])];
        for (const { image, x1 } of cases) {
          const word = { ...WORD, text, x1 };
          expect(withRangeMarksRestored(word, image)).toBe(word);
        }
      }),
      { numRuns: 100 },
    );
    const { image, x1 } = range([2, 0], [1, 0]);
    // `33-4` falls: no range.
    const falling = { ...WORD, text: '334', x1 };
    expect(withRangeMarksRestored(falling, image)).toBe(falling);
  });
});

describe('withSplitRangesJoined', () => {
  it('joins two numbers the engine read apart into the range the image shows between them, and flags it', () => {
    const { image, x1 } = range([3, 0], [3, 0]);
    // `333` ends at x = 152, the hyphen stands at 162-169, `444` starts at 174.
    const words: RecognizedWord[] = [
      { ...WORD, text: '333', x1: 152 },
      { ...WORD, text: '444', x0: 174, x1 },
    ];
    expect(withSplitRangesJoined(words, image)).toEqual([{ ...WORD, text: '333-444', x1, confidence: RESTORED_CONFIDENCE }]);
    const apart = range([3, 0], [3, 0], null);
    expect(withSplitRangesJoined(words, apart.image)).toEqual(words);
    // A falling pair is no range.
    const falling = [words[0]!, { ...words[1]!, text: '111' }];
    expect(withSplitRangesJoined(falling, image)).toEqual(falling);
  });

  it('takes a hyphen that noise broke in two for one, where its pieces stand side by side at one height', () => {
    // A noisy `6 - 24`: `6` at x = 100, `24` at 170 and 190, the hyphen's pieces 5 and 4 px wide, 3 px apart.
    const digits: Array<[number, number, number, number]> = [
      [100, 100, 12, 30],
      [170, 100, 12, 30],
      [190, 100, 12, 30],
    ];
    const words: RecognizedWord[] = [
      { ...WORD, text: '6', x0: 100, x1: 112 },
      { ...WORD, text: '24', x0: 170, x1: 202 },
    ];
    const broken = page([...digits, [133, 113, 5, 3], [141, 113, 4, 3]]);
    expect(withSplitRangesJoined(words, broken)).toEqual([{ ...WORD, text: '6-24', x0: 100, x1: 202, confidence: RESTORED_CONFIDENCE }]);
    // Pieces at two heights, or further apart than a break, are no hyphen.
    for (const pieces of [
      [
        [133, 113, 5, 3],
        [141, 119, 4, 3],
      ],
      [
        [130, 113, 5, 3],
        [145, 113, 4, 3],
      ],
    ] as Array<Array<[number, number, number, number]>>) {
      expect(withSplitRangesJoined(words, page([...digits, ...pieces]))).toEqual(words);
    }
  });
});

describe('withSplitPointsJoined', () => {
  // `11` (glyphs at x = 100 and 120) and `9` (at 143), 30 px tall on the baseline y = 129, 11 px apart.
  const glyphs: Array<[number, number, number, number]> = [
    [100, 100, 12, 30],
    [120, 100, 12, 30],
    [143, 100, 12, 30],
  ];
  const words: RecognizedWord[] = [
    { ...WORD, text: '11', x0: 100, x1: 132 },
    { ...WORD, text: '9', x0: 143, x1: 155 },
  ];

  it('joins a number the engine parted at its point, the point put back where the image shows it, and flags it', () => {
    expect(withSplitPointsJoined(words, page([...glyphs, [136, 126, 4, 4]]))).toEqual([{ ...WORD, text: '11.9', x0: 100, x1: 155, confidence: RESTORED_CONFIDENCE }]);
    const range = [words[0]!, { ...words[1]!, text: '4-51.1' }];
    expect(withSplitPointsJoined(range, page([...glyphs, [136, 126, 4, 4]]))[0]!.text).toBe('11.4-51.1');
    const upperBound = [{ ...words[0]!, text: '1.0-2' }, words[1]!];
    expect(withSplitPointsJoined(upperBound, page([...glyphs, [136, 126, 4, 4]]))[0]!.text).toBe('1.0-2.9');
  });

  it('joins across a thin Courier’s point cell (1.26 of the digits’ height between the inks), and a range parted at both its points', () => {
    // URW's Nimbus Mono at 10 pt and 300 dpi: `8` `6-10.3`, digits 27 px tall and 34 px apart, the point 6 px across.
    const courier = page([[100, 100, 14, 27], [148, 100, 14, 27], [118, 121, 6, 6]]);
    const split: RecognizedWord[] = [
      { ...WORD, text: '8', x0: 100, x1: 114, y1: 127 },
      { ...WORD, text: '6-10.3', x0: 148, x1: 260, y1: 127 },
    ];
    expect(withSplitPointsJoined(split, courier)).toEqual([{ ...WORD, text: '8.6-10.3', x0: 100, x1: 260, y1: 127, confidence: RESTORED_CONFIDENCE }]);
    // `3` `6-5` `1` for `3.6-5.1`: the 3 and the 6 (x = 100, 148), the hyphen, the 5 and the 1 (x = 196, 244), a point in each gap.
    const twice = page([[100, 100, 14, 27], [148, 100, 14, 27], [168, 112, 14, 3], [196, 100, 14, 27], [244, 100, 14, 27], [118, 121, 6, 6], [214, 121, 6, 6]]);
    const parted: RecognizedWord[] = [
      { ...WORD, text: '3', x0: 100, x1: 114, y1: 127 },
      { ...WORD, text: '6-5', x0: 148, x1: 210, y1: 127 },
      { ...WORD, text: '1', x0: 244, x1: 258, y1: 127 },
    ];
    expect(withSplitPointsJoined(parted, twice).map((w) => w.text)).toEqual(['3.6-5.1']);
  });

  it('leaves the words apart without a mark in the gap, with a mark no point (a hyphen, a mark above the baseline, two marks), or a gap wider than a point’s', () => {
    for (const marks of [[], [[134, 113, 8, 3]], [[136, 110, 4, 4]], [[134, 126, 3, 3], [139, 126, 3, 3]]] as Array<Array<[number, number, number, number]>>) {
      expect(withSplitPointsJoined(words, page([...glyphs, ...marks]))).toEqual(words);
    }
    // 50 px between the inks, 1.67 of the digits' height: wider than any monospaced point cell.
    const far = [words[0]!, { ...words[1]!, x0: 182, x1: 194 }];
    expect(withSplitPointsJoined(far, page([[100, 100, 12, 30], [120, 100, 12, 30], [182, 100, 12, 30], [155, 126, 4, 4]]))).toEqual(far);
    // Together no number: two points in one.
    const twoPoints = [{ ...words[0]!, text: '1.1' }, words[1]!];
    expect(withSplitPointsJoined(twoPoints, page([...glyphs, [136, 126, 4, 4]]))).toEqual(twoPoints);
    const notNumbers = [{ ...words[0]!, text: 'ab' }, words[1]!];
    expect(withSplitPointsJoined(notNumbers, page([...glyphs, [136, 126, 4, 4]]))).toEqual(notNumbers);
  });
});

describe('withSpeckHyphenSplit', () => {
  /** `Ab` and `cd` as 12 × 30 px glyphs on a 20 px pitch, 28 px apart (a space), with `between` drawn in the gap. */
  function words(between: Array<[number, number, number, number]>): PageImage {
    return page([[100, 100, 12, 30], [120, 100, 12, 30], [160, 100, 12, 30], [180, 100, 12, 30], ...between]);
  }
  const read: RecognizedWord = { text: 'Ab-cd', x0: 100, y0: 100, x1: 192, y1: 130, confidence: 0.71 };

  it('splits a word at a hyphen the engine read where the page shows a speck in a space', () => {
    expect(withSpeckHyphenSplit(read, words([[145, 114, 2, 2]]))).toEqual([
      { ...read, text: 'Ab', x1: 131 },
      { ...read, text: 'cd', x0: 160 },
    ]);
  });

  it('keeps a printed hyphen, two marks, a mark in a gap narrower than a space, and words that are no two words joined', () => {
    for (const between of [[[141, 113, 10, 3]], [[145, 114, 2, 2], [150, 110, 2, 2]], []] as Array<Array<[number, number, number, number]>>) {
      expect(withSpeckHyphenSplit(read, words(between))).toEqual([read]);
    }
    const tight = page([[100, 100, 12, 30], [120, 100, 12, 30], [136, 100, 12, 30], [156, 100, 12, 30], [133, 114, 2, 2]]);
    expect(withSpeckHyphenSplit({ ...read, x1: 168 }, tight)).toEqual([{ ...read, x1: 168 }]);
    for (const text of ['A-cd', '12-34', 'Ab-cd-ef']) expect(withSpeckHyphenSplit({ ...read, text }, words([[145, 114, 2, 2]]))).toEqual([{ ...read, text }]);
  });
});

describe('withUnitLetterCase', () => {
  /**
   * Glyphs 12 px wide on a 20 px pitch from x = 100, on the baseline y = 130: capitals and digits 30 px
   * tall, small letters 21 (`m`: 25, a monospaced font's large x-height), descenders 8 px below.
   */
  function unit(shapes: string): PageImage {
    const rects = [...shapes].map((shape, i): [number, number, number, number] => {
      const x = 100 + 20 * i;
      if (shape === 'C') return [x, 100, 12, 30];
      if (shape === 'x') return [x, 109, 12, 21];
      if (shape === 'm') return [x, 105, 12, 25];
      return [x, 109, 12, 29]; // 'p': a small letter with a descender
    });
    return page(rects);
  }
  const word = (text: string) => ({ ...WORD, text, x1: 100 + 20 * text.length - 8, y1: 138 });

  it('gives the first letter the case its height shows, where only that makes the word a printed unit', () => {
    // `pg`: both small with descenders, the first as tall as the second.
    expect(withUnitLetterCase(word('Pg'), unit('pp'))).toMatchObject({ text: 'pg' });
    // `x10E3/uL`: a small x against the digits' cap line and the u's x line.
    expect(withUnitLetterCase(word('X10E3/uL'), unit('xCCCCCxC'))).toMatchObject({ text: 'x10E3/uL' });
    expect(withUnitLetterCase(word('x10E3/UL'), unit('CCCCCCCC'))).toMatchObject({ text: 'X10E3/UL' });
    // Liberation Mono: the x line a sixth of the glyphs' height under the cap line.
    expect(withUnitLetterCase(word('X10E3/uL'), unit('mCCCCCmC'))).toMatchObject({ text: 'x10E3/uL' });
  });

  it('leaves a word whose first letter stands as read, is between the lines, or is no unit either way', () => {
    const capital = word('Pg');
    expect(withUnitLetterCase(capital, unit('Cp'))).toBe(capital);
    const between = page([
      [100, 104, 12, 26],
      [120, 109, 12, 29],
    ]);
    expect(withUnitLetterCase(capital, between)).toBe(capital);
    for (const text of ['pg', 'Glucose', 'X10E3/UL', '5.3']) {
      const read = word(text);
      expect(withUnitLetterCase(read, unit('pp'))).toBe(read);
    }
  });
});

describe('withUnitLostStroke', () => {
  /** `U/L` from x = 110 on the baseline y = 130, 30 px tall (the slash 34, below the line); the box from x = 100. */
  const UL: Array<[number, number, number, number]> = [
    [110, 100, 14, 30],
    [128, 98, 8, 34],
    [140, 100, 12, 30],
  ];
  const read: RecognizedWord = { text: 'U/L', x0: 100, y0: 98, x1: 152, y1: 132, confidence: 0.53 };

  it('reads a unit with a bare upright stroke before it, inside its box, as the unit with its capital I', () => {
    expect(withUnitLostStroke(read, page([[100, 100, 4, 30], ...UL]))).toMatchObject({ text: 'IU/L' });
  });

  it('leaves the unit where the box holds no stroke, a stroke too wide, short or touching, or the I makes no printed unit', () => {
    for (const rects of [UL, [[100, 100, 12, 30], ...UL], [[100, 110, 4, 20], ...UL], [[100, 100, 11, 30], ...UL.slice(1)]] as Array<Array<[number, number, number, number]>>) {
      expect(withUnitLostStroke(read, page(rects))).toBe(read);
    }
    const notUnit = { ...read, text: 'U/X' };
    expect(withUnitLostStroke(notUnit, page([[100, 100, 4, 30], ...UL]))).toBe(notUnit);
  });
});

describe('withoutPhantomMark', () => {
  /** `7:` read where the page prints a lone digit 12 px wide and 30 px tall, its box ending at the digit. */
  const read: RecognizedWord = { text: '7:', x0: 100, y0: 100, x1: 111, y1: 130, confidence: 0.63 };
  const DIGIT: [number, number, number, number] = [100, 100, 12, 30];

  it('is the number alone where the page shows nothing but its digits after it', () => {
    expect(withoutPhantomMark(read, page([DIGIT]))).toMatchObject({ text: '7', confidence: 0.63 });
    for (const text of ['7;', '7,', '7.']) expect(withoutPhantomMark({ ...read, text }, page([DIGIT])).text).toBe('7');
    const two = { ...read, text: '24:', x1: 131 };
    expect(withoutPhantomMark(two, page([DIGIT, [120, 100, 12, 30]])).text).toBe('24');
  });

  it('leaves a mark the page prints, any other ink near it, and words that are no number and a mark', () => {
    const cases: Array<Array<[number, number, number, number]>> = [
      [DIGIT, [114, 108, 4, 4], [114, 124, 4, 4]], // a colon's two dots
      [DIGIT, [114, 125, 4, 9]], // a comma's tail
      [DIGIT, [116, 126, 3, 3]], // a speck just after the box
      [DIGIT, [114, 101, 3, 3]], // a speck beside the digit's top
    ];
    for (const rects of cases) expect(withoutPhantomMark(read, page(rects))).toBe(read);
    for (const text of ['7', '7.5', 'mg:', '7:5']) expect(withoutPhantomMark({ ...read, text }, page([DIGIT]))).toMatchObject({ text });
    // Two glyphs under a one-digit reading: the engine read a mark where a digit stands.
    expect(withoutPhantomMark(read, page([DIGIT, [116, 100, 12, 30]]))).toBe(read);
  });
});

describe('withTrailingPeriod', () => {
  /** `Estab`: five glyphs 12 px wide on a 20 px pitch from x = 100, 30 px tall on the baseline y = 130; the box ends at the last glyph. */
  const letters: Array<[number, number, number, number]> = [0, 1, 2, 3, 4].map((i) => [100 + 20 * i, 100, 12, 30]);
  const estab: RecognizedWord = { text: 'Estab', x0: 100, y0: 100, x1: 191, y1: 130, confidence: 0.96 };
  const PERIOD: [number, number, number, number] = [195, 125, 5, 5];

  it('puts back the period printed just after a surely read word, outside the box the engine gave it', () => {
    expect(withTrailingPeriod(estab, page([...letters, PERIOD]))).toMatchObject({ text: 'Estab.', x1: 199 });
    // A monospaced cell: the point 10 px from the last letter.
    expect(withTrailingPeriod(estab, page([...letters, [202, 125, 5, 5]]))).toMatchObject({ text: 'Estab.' });
  });

  it('leaves the word where the mark is no period of its own, or the word is no surely read one ending in a letter', () => {
    const cases: Array<Array<[number, number, number, number]>> = [
      [...letters], // no mark
      [...letters, [195, 112, 5, 5]], // half way up: a speck or a hyphen's part
      [...letters, [206, 125, 5, 5]], // farther than a monospaced cell
      [...letters, [195, 125, 5, 11]], // a comma's tail below the line
      [...letters, [195, 128, 2, 2]], // a speck smaller than a point
      [...letters, PERIOD, [205, 125, 5, 5]], // dot leaders
      [...letters, PERIOD, [206, 100, 12, 30]], // the next glyph
      [...letters, [203, 126, 8, 4], [209, 100, 3, 27]], // the foot of the next word's `A`, its stroke beyond what is looked at
    ];
    for (const rects of cases) expect(withTrailingPeriod(estab, page(rects))).toBe(estab);
    // Letters 22 px tall: a 2 px speck after them is under a tenth of their height (a point between digits that small is one, `withDecimalPoint`).
    const small = { ...estab, y0: 108 };
    expect(withTrailingPeriod(small, page([...letters.map(([x]): [number, number, number, number] => [x, 108, 12, 22]), [195, 128, 2, 2]]))).toBe(small);
    const image = page([...letters, PERIOD]);
    for (const word of [{ ...estab, text: '53.1' }, { ...estab, text: '5' }, { ...estab, confidence: 0.5 }]) expect(withTrailingPeriod(word, image)).toBe(word);
  });
});

describe('despeckle', () => {
  it('whitens isolated specks and keeps every mark that stands near other ink', () => {
    const image = page([...DIGITS, POINT, [300, 50, 2, 2], [20, 180, 3, 3], [250, 100, 40, 3]]);
    const { image: clean, removed } = despeckle(image);
    expect(removed).toBe(2);
    expect(clean.grey[51 * 400 + 301]).toBe(255);
    expect(clean.grey[181 * 400 + 21]).toBe(255);
    // The point beside its digits, the digits and a long rule stay.
    expect(clean.grey[127 * 400 + 121]).toBe(10);
    expect(clean.grey[110 * 400 + 105]).toBe(10);
    expect(clean.grey[101 * 400 + 260]).toBe(10);
  });

  it('keeps a point centred in a monospaced cell, resting on the baseline of a glyph close on each side', () => {
    // Courier: the point stands 10 px from each digit, beyond the clearance that makes a speck.
    const courier: Array<[number, number, number, number]> = [
      [100, 100, 12, 30],
      [136, 100, 12, 30],
    ];
    expect(despeckle(page([...courier, [122, 126, 4, 4]])).removed).toBe(0);
    // The same dot half way up, or with a glyph on one side only, or far from both, is a speck.
    expect(despeckle(page([...courier, [122, 112, 4, 4]])).removed).toBe(1);
    expect(despeckle(page([courier[0]!, [122, 126, 4, 4]])).removed).toBe(1);
    expect(despeckle(page([[100, 100, 12, 30], [160, 100, 12, 30], [134, 126, 4, 4]])).removed).toBe(1);
  });

  it('returns a page without specks unchanged', () => {
    const image = page(DIGITS);
    const { image: out, removed, blobs } = despeckle(image);
    expect(out).toBe(image);
    expect(removed).toBe(0);
    // Its blobs are the page's glyphs, for the stroke weight (stroke-weight.ts): none left out.
    expect(blobs.reduce((sum, blob) => sum + blob.area, 0)).toBe(image.grey.filter((g) => g < 128).length);
  });

  /**
   * The rule read pixel by pixel (a flood fill of each 8-connected blob of ink), against which the
   * implementation (blobs among ink runs) is checked: a blob of at most 20 px, under 6 px a side, with no
   * other ink within 9 px of its box (at 300 dpi), is a speck, unless it has on each side a blob 2.5 times
   * as tall or more (at most 60 px), whose bottom is within 15 % of its height of the speck's and whose
   * gap to it is at most 70 % of its height; a speck's pixels, and no others, turn white.
   */
  interface Box {
    x0: number;
    x1: number;
    y0: number;
    y1: number;
  }

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
    const boxes = members.map((pixels): Box => {
      const xs = pixels.map((i) => i % width);
      const ys = pixels.map((i) => Math.floor(i / width));
      return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
    });
    members.forEach((pixels, label) => {
      const { x0, x1, y0, y1 } = boxes[label]!;
      if (pixels.length > 20 || x1 - x0 >= 6 || y1 - y0 >= 6) return;
      for (let y = Math.max(0, y0 - 9); y <= Math.min(height - 1, y1 + 9); y++) {
        for (let x = Math.max(0, x0 - 9); x <= Math.min(width - 1, x1 + 9); x++) if (ink(x, y) && blob[y * width + x] !== label) return;
      }
      const flank = (side: (box: Box) => number) =>
        boxes.some((box, other) => {
          const tall = box.y1 - box.y0 + 1;
          return other !== label && tall >= 2.5 * (y1 - y0 + 1) && tall <= 60 && Math.abs(box.y1 - y1) <= 0.15 * tall && side(box) > 0 && side(box) <= 0.7 * tall;
        });
      if (flank((box) => x0 - box.x1) && flank((box) => box.x0 - x1)) return;
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
        expectSameAsFloodFill(image);
      }),
      { numRuns: 300 },
    );
  });

  it('whitens exactly the blobs the pixel-by-pixel rule calls specks, on lines of glyphs with dots between them', () => {
    // A line left to right: glyphs 10–30 px tall, some followed by a dot of 1–5 px, each 1–24 px after
    // the one before, standing on a baseline give or take a few pixels: points between digits, and specks.
    const mark = (tall: fc.Arbitrary<number>, wide: fc.Arbitrary<number>) => fc.record({ tall, wide, gap: fc.integer({ min: 1, max: 24 }), shift: fc.integer({ min: -5, max: 5 }) });
    const dotSide = fc.integer({ min: 1, max: 5 });
    const cell = fc.tuple(mark(fc.integer({ min: 10, max: 30 }), fc.integer({ min: 2, max: 14 })), fc.option(mark(dotSide, dotSide), { nil: undefined }));
    fc.assert(
      fc.property(fc.array(cell, { minLength: 2, maxLength: 8 }), (cells) => {
        const rects: Array<[number, number, number, number]> = [];
        let x = 0;
        for (const { tall, wide, gap, shift } of cells.flat().filter((m) => m !== undefined)) {
          x += gap;
          if (x + wide > 300) break;
          rects.push([x, 45 + shift - tall, wide, tall]);
          x += wide;
        }
        expectSameAsFloodFill(page(rects, 300, 60));
      }),
      { numRuns: 300 },
    );
  });

  function expectSameAsFloodFill(image: PageImage): void {
    const expected = specksByFloodFill(image);
    const { image: clean, removed, blobs } = despeckle(image);
    expect(removed).toBe(expected.removed);
    expect(Buffer.from(clean.grey).equals(Buffer.from(expected.grey))).toBe(true);
    // The blobs given back are the ink left: the specks' are not among them.
    expect(blobs.reduce((sum, blob) => sum + blob.area, 0)).toBe(clean.grey.filter((g) => g < 128).length);
  }
});

describe('printedRangeText', () => {
  /** The text ranges a report prints, spaces and letter case aside. */
  const TEXT_RANGES = new Set([...vocabulary.textResults.phrases, 'Not Estab.'].map((t) => t.replace(/\s+/g, '').toLowerCase()));

  it.each([
    ['>OR =40', '> OR = 40'],
    ['>OR=40', '> OR = 40'],
    ['<OR = 0.5', '< OR = 0.5'],
    ['> OR =60', '> OR = 60'],
    ['Not Estab', 'Not Estab.'],
    ['NotEstab.', 'Not Estab.'],
    ['NONESEEN', 'NONE SEEN'],
    ['NoneSeen', 'None Seen'],
    // Two texts read so (`NON REACTIVE`, `NONREACTIVE`): the one spaced where the reading turns to a capital.
    ['NonReactive', 'Non Reactive'],
    ['NONREACTIVE', 'NONREACTIVE'],
    // Marks a speck left at a word's end.
    ['Non. Reactive', 'Non Reactive'],
    ['Non Reactive’', 'Non Reactive'],
    ['NEGATIVE.', 'NEGATIVE'],
    ['1+,', '1+'],
  ])('gives %s as printed, %s', (read, printed) => expect(printedRangeText(read)).toBe(printed));

  it.each(['Not Estab.', 'SEE NOTE:', '65-99.', 'nonreactive', 'Non Reactive'])('keeps %s as read: printed so, or two texts read so and no capital to tell them apart', (read) => expect(printedRangeText(read)).toBe(read));

  it('leaves any other range text, and the bounds of every text, as read', () => {
    const bound = fc.tuple(fc.constantFrom('<', '>', '≤', '>='), fc.constantFrom('', ' '), fc.constantFrom('OR', 'or', '0R', ''), fc.constantFrom('', ' '), fc.constantFrom('=', ''), fc.constantFrom('', ' '), fc.stringMatching(/^\d{1,3}(\.\d{1,2})?$/)).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(bound, fc.string({ maxLength: 12 }), fc.constantFrom('Not Estab.', 'Not Established', 'NEGATIVE', '65-99', 'NONESEEN', 'NotEstab.', 'Non Reactive', 'Non. Reactive', 'TRACE’', '3.5.')), (text) => {
        const printed = printedRangeText(text);
        expect(printedRangeText(printed)).toBe(printed);
        if (!/^[<>]\s*OR\s*=\s*[\d.]+$/.test(text) && text !== 'Not Estab') {
          // Only a text of the vocabulary read with its spaces lost or a speck's marks at a word's end changes, and only in those.
          const unspaced = (t: string) => t.replace(/\s+/g, '').toLowerCase();
          const markless = (t: string) => t.replace(/[.,'‘’`]+(?=\s|$)/g, '');
          if (TEXT_RANGES.has(unspaced(text))) expect(unspaced(printed)).toBe(unspaced(text));
          else if (TEXT_RANGES.has(unspaced(markless(text)))) expect(unspaced(printed)).toBe(unspaced(markless(text)));
          else expect(printed).toBe(text);
        }
        const [before, after] = [parseRange(text), parseRange(printed)];
        expect([after?.min, after?.max, after?.minInclusive, after?.maxInclusive]).toEqual([before?.min, before?.max, before?.minInclusive, before?.maxInclusive]);
      }),
      { numRuns: 500 },
    );
  });
});

describe('respacedUnit', () => {
  it.each([
    ['mg/dL(calc)', 'mg/dL (calc)'],
    ['mg/gcreat', 'mg/g creat'],
    ['%by wt', '% by wt'],
    ['ug/mL  FEU', 'ug/mL FEU'],
    // The link word of a described unit run into a neighbour.
    ['%of total Hgb', '% of total Hgb'],
    ['% oftotal Hgb', '% of total Hgb'],
  ])('gives %s as the unit table prints it, %s', (read, printed) => expect(respacedUnit(read)).toBe(printed));

  it.each(['mL/min/1.73m2', 'mL/min/1.73 m2', 'mg/dL', 'mg /dL x', 'Thousand/uL'])('leaves %s as it is', (unit) => expect(respacedUnit(unit)).toBe(unit));

  it('gives a unit as read or a unit the reader knows spelt the same with spaces aside, and is idempotent', () => {
    const spaced = fc.constantFrom(...PRINTED_UNITS).chain((unit) =>
      fc.array(fc.constantFrom('', ' '), { minLength: unit.length, maxLength: unit.length }).map((gaps) => [...unit.replace(/\s+/g, '')].map((c, i) => `${c}${gaps[i]}`).join('').trim()),
    );
    const glued = fc.constantFrom('% of total Hgb', '% by wt', 'mg/dL in serum').chain((unit) => fc.nat().map((at) => unit.replace(at % 2 === 0 ? / (of|by|in)/ : /(of|by|in) /, '$1')));
    fc.assert(
      fc.property(fc.oneof(spaced, glued, fc.string({ maxLength: 10 })), (read) => {
        const unit = respacedUnit(read);
        expect(respacedUnit(unit)).toBe(unit);
        if (unit !== read) {
          expect(isPrintedUnit(unit)).toBe(true);
          expect(unit.replace(/\s+/g, '')).toBe(read.replace(/\s+/g, ''));
        }
      }),
    );
  });
});
