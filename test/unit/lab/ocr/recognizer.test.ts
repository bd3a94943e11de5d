import fc from 'fast-check';
import { type RecognizedWord, wordsToItems } from '../../../../functions/lab/ocr/recognizer';

describe('wordsToItems', () => {
  it('turns pixel boxes (origin top-left) into PDF items: baseline from the bottom, size from the line, confidence kept', () => {
    const items = wordsToItems(
      [
        { text: 'GLUCOSE', x0: 150, y0: 600, x1: 300, y1: 633, baseline: 633, lineHeight: 33.3, confidence: 0.93 },
        { text: '127', x0: 1200, y0: 600, x1: 1260, y1: 633, confidence: 0.7 },
        { text: '   ', x0: 1, y0: 1, x1: 2, y1: 2, confidence: 0.1 },
      ],
      72 / 300,
      792,
    );
    expect(items).toEqual([
      { str: 'GLUCOSE', x: 36, y: 640.08, width: 36, height: 7.99, confidence: 0.93 },
      // No baseline from the engine: the box bottom less a descender's share; a size a hair from the page's is the page's.
      { str: '127', x: 288, y: expect.closeTo(792 - (633 - 0.2 * 33) * 0.24, 1), width: 14.4, height: 7.99, confidence: 0.7 },
    ]);
  });

  it('gives words the page’s body size where the engine’s estimate strays from it by a tenth or less, and keeps larger differences', () => {
    const word = (text: string, lineHeight: number, baseline: number): RecognizedWord => ({ text, x0: 10, y0: baseline - 30, x1: 50, y1: baseline, baseline, lineHeight, confidence: 0.9 });
    // A title above the rows and a footnote below them, each on a baseline of its own.
    const items = wordsToItems([word('A/G', 38, 400), word('Ratio', 34, 440), word('QNS', 35, 440), word('TITLE', 50, 300), word('note', 25, 900)], 72 / 300, 792);
    expect(items.map((i) => i.height)).toEqual([8.4, 8.4, 8.4, 12, 6]);
  });

  it('gives the body size to a word on the baseline of a body-size word, however the engine sized its run of words (up to half again)', () => {
    const word = (text: string, lineHeight: number, baseline: number): RecognizedWord => ({ text, x0: 10, y0: baseline - 30, x1: 50, y1: baseline, baseline, lineHeight, confidence: 0.9 });
    // `> OR = 40` sized 11 pt on the row of `HDL` and `66` (8.4 pt); the same size on a line of its own stays.
    const row = [word('HDL', 35, 400), word('66', 35, 400), word('>', 46, 401), word('OR', 46, 401)];
    const otherRows = [word('LDL', 35, 440), word('110', 35, 440), word('mg/dL', 35, 440), word('TRIG', 35, 480), word('136', 35, 480)];
    const items = wordsToItems([...row, ...otherRows, word('Title', 46, 300), word('BANNER', 80, 402)], 72 / 300, 792);
    expect(items.map((i) => i.height)).toEqual([8.4, 8.4, 8.4, 8.4, 8.4, 8.4, 8.4, 8.4, 8.4, 11.04, 19.2]);
  });

  it('gives the body size to a word sized up to twice the body size on a baseline whose words are mostly body size', () => {
    const word = (text: string, lineHeight: number, baseline: number): RecognizedWord => ({ text, x0: 10, y0: baseline - 30, x1: 50, y1: baseline, baseline, lineHeight, confidence: 0.9 });
    // `114` sized 1.6 times its row's cells; a title as large, with one body-size word beside it, stays.
    const row = [word('Glucose', 40, 400), word('114', 63, 400), word('mg/dL', 40, 400), word('65-99', 40, 400)];
    const title = [word('Comp.', 63, 300), word('Metabolic', 63, 300), word('01', 40, 300)];
    const otherRows = [word('BUN', 40, 450), word('9', 40, 450), word('Sodium', 40, 500), word('141', 40, 500)];
    const items = wordsToItems([...row, ...title, ...otherRows], 72 / 300, 792);
    expect(items.map((i) => i.height)).toEqual([9.6, 9.6, 9.6, 9.6, 15.12, 15.12, 9.6, 9.6, 9.6, 9.6, 9.6]);
  });

  it('gives the body size to a line of bracketed words only, which brackets make taller (up to half again)', () => {
    const word = (text: string, lineHeight: number, baseline: number): RecognizedWord => ({ text, x0: 10, y0: baseline - 30, x1: 50, y1: baseline, baseline, lineHeight, confidence: 0.9 });
    // `(SGOT)`, the wrapped rest of `AST (SGOT)`, sized 1.15 times the rows; a word as large stays, and so does a line of brackets twice as large.
    const rows = [word('AST', 40, 400), word('29', 40, 400), word('ALT', 40, 450), word('36', 40, 450), word('BUN', 40, 480)];
    const items = wordsToItems([...rows, word('(SGOT)', 46, 420), word('Title', 46, 300), word('(14)', 80, 350)], 72 / 300, 792);
    expect(items.map((i) => i.height)).toEqual([9.6, 9.6, 9.6, 9.6, 9.6, 9.6, 11.04, 19.2]);
  });

  it('gives the body size to a line of one word ending in a comma, which the comma makes taller (up to half again)', () => {
    const word = (text: string, lineHeight: number, baseline: number): RecognizedWord => ({ text, x0: 10, y0: baseline - 30, x1: 50, y1: baseline, baseline, lineHeight, confidence: 0.9 });
    // `IRON,`, the first line of a wrapped `IRON, TOTAL`, sized 1.3 times the rows; a title of two words as large stays.
    const rows = [word('TOTAL', 40, 400), word('195', 40, 400), word('FERRITIN', 40, 450), word('40', 40, 450), word('BUN', 40, 480)];
    const items = wordsToItems([...rows, word('IRON,', 52, 360), word('LIPID', 52, 300), word('PANEL,', 52, 300)], 72 / 300, 792);
    expect(items.map((i) => i.height)).toEqual([9.6, 9.6, 9.6, 9.6, 9.6, 9.6, 12.48, 12.48]);
  });

  it('leaves every size either the body size or more than a tenth from it, and sizing twice changes nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 10, max: 80 }), { minLength: 1, maxLength: 30 }), (heights) => {
        const words = heights.map((h, i): RecognizedWord => ({ text: `w${i}`, x0: 10 * i, y0: 100, x1: 10 * i + 8, y1: 130, baseline: 130, lineHeight: h, confidence: 0.9 }));
        const items = wordsToItems(words, 72 / 300, 792);
        const sizes = items.map((i) => i.height).sort((a, b) => a - b);
        const body = sizes[sizes.length >> 1]!;
        for (const size of sizes) expect(size === body || Math.abs(size - body) > 0.1 * body - 0.01).toBe(true);
        const again = wordsToItems(
          items.map((item, i) => ({ ...words[i]!, lineHeight: (item.height * 300) / 72 })),
          72 / 300,
          792,
        );
        expect(again.map((i) => i.height)).toEqual(items.map((i) => i.height));
      }),
    );
  });
});
