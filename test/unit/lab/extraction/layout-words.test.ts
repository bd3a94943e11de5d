import fc from 'fast-check';
import { pageLines } from '../../../../functions/lab/parsers/layout';
import type { PageText } from '../../../../functions/lab/pdf-text';

/**
 * Words rebuilt from one text item that holds a whole line (a text view printed to PDF): split at every
 * white-space character a regular expression's `\s` knows (tabs, no-break and em spaces included), a
 * run of two or more blanks or a tab before a word marking a column break, only a word at the item's
 * start placed exactly.
 */

const BLANKS = [' ', '  ', '   ', '\t', '\u00a0', '\u2003', '\u3000', '\ufeff', ' \t'];
const TOKENS = ['GLUCOSE', '95', 'H', '65-99', 'mg/dL', 'µg/L', '≥', '(calc)', 'x', '𝑥', 'Ünit'];

const itemText = fc
  .array(fc.tuple(fc.constantFrom(...BLANKS, ''), fc.constantFrom(...TOKENS)), { minLength: 1, maxLength: 12 })
  .chain((parts) => fc.constantFrom(...BLANKS, '').map((tail) => parts.map(([blank, token]) => `${blank}${token}`).join('') + tail));

function onePage(str: string, width: number): PageText {
  return { pageNumber: 1, width: 612, height: 792, items: [{ str, x: 40, y: 700, width, height: 8 }] };
}

describe('words of a text item', () => {
  it('are the item split at white space, with column breaks and exact starts where the item says', () => {
    fc.assert(
      fc.property(itemText, fc.integer({ min: 0, max: 600 }), (str, width) => {
        const expected = [...str.matchAll(/\S+/g)];
        const lines = pageLines(onePage(str, width));
        expect(lines).toHaveLength(1);
        const words = lines[0]!.words;
        expect(words.map((w) => w.text)).toEqual(expected.map((m) => m[0]));
        words.forEach((word, k) => {
          const match = expected[k]!;
          const before = k === 0 ? '' : str.slice(expected[k - 1]!.index + expected[k - 1]![0].length, match.index);
          expect(word.spaced).toBe(before.length >= 2 || before.includes('\t'));
          expect(word.exact).toBe(match.index === 0);
          expect(word.x0).toBeGreaterThanOrEqual(40);
          expect(word.x1).toBeLessThanOrEqual(40 + width + 1e-9);
          if (k > 0) expect(word.x0).toBeGreaterThanOrEqual(words[k - 1]!.x1);
        });
        expect(lines[0]!.text).toBe(expected.map((m) => m[0]).join(' '));
      }),
      { numRuns: 300 },
    );
  });

  it('give no line for an item of blanks only', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...BLANKS), { minLength: 1, maxLength: 5 }), (blanks) => {
        expect(pageLines(onePage(blanks.join(''), 50))).toEqual([]);
      }),
    );
  });
});

describe('a raised lab number between the two lines of a wrapped name, as OCR places it', () => {
  // Labcorp's `Alkaline` / `Phosphatase 01` in 7-point type: the engine sizes words by their glyphs
  // (6.24 points) and sets the small `01` 2.88 points above the lower line's baseline.
  const page = (source: 'ocr' | 'text'): PageText => {
    const item = (str: string, x: number, y: number, height: number) => ({ str, x, y, width: 5 * str.length, height, ...(source === 'ocr' ? { confidence: 0.9 } : {}) });
    return {
      pageNumber: 1,
      width: 612,
      height: 792,
      source,
      items: [item('Alkaline', 31.2, 559.44, 6.24), item('01', 67.2, 552.24, 4.8), item('Phosphatase', 31.2, 549.36, 6.24), item('129', 199.9, 549.24, 6.24)],
    };
  };
  const texts = (source: 'ocr' | 'text') => pageLines(page(source)).map((line) => line.text);

  it('joins the lower line on a recognised page', () => {
    expect(texts('ocr')).toEqual(['Alkaline', 'Phosphatase 01 129']);
  });

  it('keeps to the text layer’s grouping on a text page, whose sizes are font sizes', () => {
    expect(texts('text')).toEqual(['Alkaline', '01', 'Phosphatase 129']);
  });
});
