import fc from 'fast-check';
import { Utf8Lines } from '../../../functions/bulk/utf8-lines';

/**
 * A batch's part files are written as Utf8Lines encode them (functions/bulk/utf8-lines.ts): the
 * bytes must be exactly the lines' UTF-8 text, each line ended by a newline, whatever the text holds
 * and however often the buffer has to grow.
 */

const linesOf = (texts: readonly string[]): Utf8Lines => {
  const lines = new Utf8Lines();
  for (const text of texts) lines.add(text);
  return lines;
};

describe('Utf8Lines', () => {
  it('holds each line as its UTF-8 bytes followed by a newline, for any text', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 300 }), { maxLength: 40 }), (texts) => {
        const lines = linesOf(texts);
        expect(lines.count).toBe(texts.length);
        expect(lines.toBuffer().equals(Buffer.from(texts.map((text) => `${text}\n`).join(''), 'utf8'))).toBe(true);
      }),
    );
  });

  it('grows past its first buffer without losing or cutting a character (lines of 2-, 3- and 4-byte characters, 1 MB in all)', () => {
    const texts = Array.from({ length: 200 }, (_, i) => `${i} ${'é–😀'.repeat(700)}`);
    const bytes = linesOf(texts).toBuffer();
    expect(bytes.length).toBe(Buffer.byteLength(texts.map((text) => `${text}\n`).join('')));
    expect(bytes.toString('utf8').split('\n').slice(0, -1)).toEqual(texts);
  });

  it('is empty with no line', () => {
    expect(linesOf([]).toBuffer().length).toBe(0);
  });
});
