import { wordsToItems } from '../../../../functions/lab/ocr/recognizer';

describe('wordsToItems', () => {
  it('turns pixel boxes (origin top-left) into PDF items: baseline from the bottom, size from the line, confidence kept', () => {
    const items = wordsToItems(
      [
        { text: 'GLUCOSE', x0: 150, y0: 600, x1: 300, y1: 633, baseline: 633, lineHeight: 33.3, confidence: 0.93 },
        { text: '127', x0: 1200, y0: 600, x1: 1260, y1: 633, confidence: 0.7 },
        { text: '   ', x0: 1, y0: 1, x1: 2, y1: 2, confidence: 0.1 },
      ],
      { dpi: 300 },
      792,
    );
    expect(items).toEqual([
      { str: 'GLUCOSE', x: 36, y: 640.08, width: 36, height: 7.99, confidence: 0.93 },
      // No baseline from the engine: the box bottom less a descender's share.
      { str: '127', x: 288, y: expect.closeTo(792 - (633 - 0.2 * 33) * 0.24, 1), width: 14.4, height: 7.92, confidence: 0.7 },
    ]);
  });
});
