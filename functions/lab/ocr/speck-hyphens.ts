import { inkOf } from './decimal-points';
import { isPrintedHyphen } from './range-hyphens';
import type { PageImage, RecognizedWord } from './recognizer';

/**
 * A hyphen the engine read between two words where the page shows only a speck in the space between
 * them (`Iron-and TIBC` for `Iron and TIBC`: a dot of noise half way up the gap). The word is the two
 * words it joins, where its ink holds no printed hyphen (range-hyphens.ts: hyphen-shaped, a fifth of
 * the letters' height wide or more), exactly one mark stands in a gap between two glyphs, clear of
 * both, and that gap is a space's (a fifth of the letters' height or more). A hyphen printed faint
 * splits `NON-REACTIVE` into `NON REACTIVE`, which reads as the same result.
 */

const HYPHENATED = /^(\p{L}{2,})-(\p{L}{2,})$/u;
/** A space between words, as a share of the letters' height (capitals and ascenders). */
const SPACE = 0.2;

export function withSpeckHyphenSplit(word: RecognizedWord, image: PageImage): RecognizedWord[] {
  const parts = HYPHENATED.exec(word.text);
  if (!parts) return [word];
  const ink = inkOf(word, image);
  if (!ink || ink.blobs.some((b) => isPrintedHyphen(b, ink))) return [word];
  const { blobs, glyphs, tallest, left } = ink;
  const marks = blobs.filter((b) => !glyphs.some((g) => g.x0 <= b.x1 && g.x1 >= b.x0) && glyphs.some((g) => g.x1 < b.x0) && glyphs.some((g) => g.x0 > b.x1));
  if (marks.length !== 1) return [word];
  const mark = marks[0]!;
  const before = Math.max(...glyphs.filter((g) => g.x1 < mark.x0).map((g) => g.x1));
  const after = Math.min(...glyphs.filter((g) => g.x0 > mark.x1).map((g) => g.x0));
  if (after - before - 1 < SPACE * tallest) return [word];
  return [
    { ...word, text: parts[1]!, x1: left + before },
    { ...word, text: parts[2]!, x0: left + after },
  ];
}
