import { inkOf } from './decimal-points';
import type { PageImage, RecognizedWord } from './recognizer';

/**
 * A mark the engine read after a number where the page prints none. Tesseract reads a lone `7` in a
 * value column as `7:` (0.63), a `3` as `3:`, and the reader takes neither for a value: the row is lost
 * though its number is plainly printed. A number followed by one mark (`:` `;` `,` `.` `'`) is the
 * number alone where its box and the space just after it hold no ink but its digits, one glyph each: no
 * colon's dots, no comma's tail, no speck. A mark with ink of its own is left to the repairs that read
 * it (a point misread `:` between digits, decimal-points.ts; a period after a word, trailing-period.ts).
 */

const NUMBER_AND_MARK = /^(\d+)[:;,.'’]$/;
/** How far past the box (share of its height) the page must be blank for the mark to be none. */
const REACH = 0.3;

export function withoutPhantomMark(word: RecognizedWord, image: PageImage): RecognizedWord {
  const parts = NUMBER_AND_MARK.exec(word.text);
  if (!parts) return word;
  const digits = parts[1]!;
  const ink = inkOf({ ...word, x1: word.x1 + Math.ceil(REACH * (word.y1 - word.y0)) }, image);
  if (!ink || ink.glyphs.length !== digits.length || ink.blobs.length !== ink.glyphs.length) return word;
  return { ...word, text: digits };
}
