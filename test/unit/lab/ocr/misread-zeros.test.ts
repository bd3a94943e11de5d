import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import fc from 'fast-check';
import { RESTORED_CONFIDENCE } from '../../../../functions/lab/ocr/decimal-points';
import { withMisreadZeros } from '../../../../functions/lab/ocr/misread-zeros';
import type { PageImage, RecognizedWord } from '../../../../functions/lab/ocr/recognizer';

/** DejaVu Sans Mono prints its zero with a dot inside (poppler draws Courier with it on Debian); DejaVu Sans prints a plain one. */
const DOTTED = 'DejaVu Sans Mono';
const PLAIN = 'DejaVu Sans';

/** The text drawn black on white at `size` pixels, optionally blurred (a 3 × 3 box, as a scan softens), and the box of its ink as the engine gives it. */
function drawn(text: string, family: string, size: number, blur: boolean): { image: PageImage; box: Omit<RecognizedWord, 'text' | 'confidence'> } {
  const width = Math.ceil(size * (text.length + 2));
  const height = Math.ceil(size * 2);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = 'white';
  context.fillRect(0, 0, width, height);
  context.fillStyle = 'black';
  context.font = `${size}px "${family}"`;
  context.fillText(text, size, size * 1.4);
  const rgba = context.getImageData(0, 0, width, height).data;
  let grey = Uint8Array.from({ length: width * height }, (_, i) => rgba[i * 4]!);
  if (blur) {
    const source = grey;
    grey = source.map((_, i) => {
      const x = i % width;
      const y = Math.floor(i / width);
      let sum = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) sum += source[Math.min(height - 1, Math.max(0, y + dy)) * width + Math.min(width - 1, Math.max(0, x + dx))]!;
      return Math.round(sum / 9);
    });
  }
  const box = { x0: width, y0: height, x1: 0, y1: 0 };
  grey.forEach((g, i) => {
    if (g >= 160) return;
    const x = i % width;
    const y = Math.floor(i / width);
    box.x0 = Math.min(box.x0, x);
    box.x1 = Math.max(box.x1, x);
    box.y0 = Math.min(box.y0, y);
    box.y1 = Math.max(box.y1, y);
  });
  return { image: { width, height, dpi: 300, grey }, box };
}

/** A value, a censored value or a range as reports print them, digits drawn at random. */
const printedNumber = fc
  .tuple(fc.constantFrom('', '<', '>'), fc.stringMatching(/^[1-9]\d{0,2}(\.\d{1,2})?$/), fc.option(fc.stringMatching(/^\d{1,3}(\.\d)?$/), { nil: undefined }))
  .map(([sign, low, high]) => (high === undefined ? `${sign}${low}` : `${low}-${high}`));

/** Type of 5–12 pt drawn at 300 dpi (font sizes of 20–50 pixels: digits 15–36 pixels tall), sharp or blurred. */
const rendering = fc.record({ size: fc.integer({ min: 20, max: 50 }), blur: fc.boolean() });

describe('withMisreadZeros', () => {
  beforeAll(() => {
    // The scans of the fixtures are drawn with these fonts too; without them this test would prove nothing.
    expect(GlobalFonts.families.map((f) => f.family)).toEqual(expect.arrayContaining([DOTTED, PLAIN]));
  });

  it('reads as 0 every 6, 8 or 9 the engine read for a dotted zero, and flags the word', () => {
    fc.assert(
      fc.property(
        printedNumber.filter((text) => text.includes('0')),
        fc.infiniteStream(fc.constantFrom('0', '6', '8', '9')),
        rendering,
        (printed, misreadings, { size, blur }) => {
          const { image, box } = drawn(printed, DOTTED, size, blur);
          const read = printed.replace(/0/g, () => misreadings.next().value);
          const word: RecognizedWord = { ...box, text: read, confidence: 0.92 };
          const result = withMisreadZeros(word, image);
          expect(result.text).toBe(printed);
          expect(result.confidence).toBe(read === printed ? 0.92 : RESTORED_CONFIDENCE);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('leaves every 6, 8 and 9 printed as such, in a font with a dotted zero or a plain one', () => {
    fc.assert(
      fc.property(printedNumber, fc.constantFrom(DOTTED, PLAIN), rendering, (printed, family, { size, blur }) => {
        const { image, box } = drawn(printed, family, size, blur);
        const word: RecognizedWord = { ...box, text: printed, confidence: 0.92 };
        expect(withMisreadZeros(word, image)).toBe(word);
      }),
      { numRuns: 150 },
    );
  });

  it('leaves a plain zero read as 8 as read (no dot to tell it by), and any word that is no number', () => {
    const { image, box } = drawn('10.5', PLAIN, 40, false);
    const plain: RecognizedWord = { ...box, text: '18.5', confidence: 0.9 };
    expect(withMisreadZeros(plain, image)).toBe(plain);
    const dotted = drawn('10.5', DOTTED, 40, false);
    for (const text of ['18.5 mg', 'A8', '18/5']) {
      const word: RecognizedWord = { ...dotted.box, text, confidence: 0.9 };
      expect(withMisreadZeros(word, dotted.image)).toBe(word);
    }
  });
});
