import { normaliseWord, PRINTED_UNITS, TEXT_RESULT_WORDS } from './normalise-word';
import type { RecognizedWord } from './recognizer';

/**
 * Words the engine split where the print has no space. Tesseract breaks a word at a wide side bearing:
 * `Monocytes(Absolute)` comes back as `Monocytes` and `(Absolute)`, `x10E3/uL` as `x10E` and `3/uL`,
 * and the reader, seeing two words, writes a name or unit that was never printed. A space is wider
 * than any gap inside a word, in every font, by a margin: in Courier a space leaves 0.8–0.9 of the line
 * height between the inks against 0.35–0.4 inside a word (its glyphs are narrow in wide cells); in
 * proportional fonts ~0.3 against under 0.1. So the page's own spaces are measured (the median gap
 * between neighbouring words of a line, gaps over 1.2 line heights being columns), and two neighbours
 * standing apart by well under that are one word.
 *
 * A unit split nearer a space (`x10E 3/uL`: Courier's `E` and `3` leave a wide gap) is one word when
 * the two stand closer than the page's space and together, but neither alone, spell a printed unit of
 * the unit table: a unit is never printed as two words, each of which would be a unit or none. So is a
 * word of a text result cut after its capital (`Y ellow`): together, and neither alone, they spell a
 * word of the vocabulary's text results.
 */

/** Gaps (line heights) under this, between neighbours on a baseline, are a line's spaces; wider are columns. */
const MAX_SPACE = 1.2;
/** Neighbours closer than this share of the page's median space are one word. */
const UNSPACED = 0.55;
/** Fewer spaces than this on a page tell nothing of its spacing: nothing is joined. */
const MIN_SPACES = 5;
/** Baselines this close (line heights) are one line's. */
const SAME_BASELINE = 0.3;

function heightOf(word: RecognizedWord): number {
  return word.lineHeight ?? word.y1 - word.y0;
}

function baselineOf(word: RecognizedWord): number {
  return word.baseline ?? word.y1;
}

/**
 * Whether a word, its confusions repaired (normalise-word.ts), is one of the unit table's printed
 * spellings exactly, the standard of every OCR repair: not the reader's broader isPrintedUnit
 * (ucum/to-ucum.ts), which also takes unit-like shapes no table prints. Two words are joined only into
 * a spelling the table prints.
 */
function inUnitTable(text: string): boolean {
  return PRINTED_UNITS.has(normaliseWord(text));
}

/** Two neighbours that spell a printed unit together and none alone. */
function splitUnit(left: string, right: string): boolean {
  return !inUnitTable(left) && !inUnitTable(right) && inUnitTable(left + right);
}

const isTextResultWord = (text: string) => TEXT_RESULT_WORDS.has(text.toUpperCase());

/** Two neighbours that spell a word of a text result together (`Y` `ellow`) and none alone. */
function splitTextResultWord(left: string, right: string): boolean {
  return /^\p{L}+$/u.test(left + right) && !isTextResultWord(left) && !isTextResultWord(right) && isTextResultWord(left + right);
}

/** The nearest word after each word on its line (by index), if any. */
export function rightNeighbours(words: readonly RecognizedWord[]): Array<number | undefined> {
  return words.map((word) => {
    let best: number | undefined;
    words.forEach((other, j) => {
      if (other === word || other.x0 <= word.x0 || Math.abs(baselineOf(other) - baselineOf(word)) > SAME_BASELINE * heightOf(word)) return;
      if (best === undefined || other.x0 < words[best]!.x0) best = j;
    });
    return best;
  });
}

/** The words, neighbours that stand apart by well under the page's space joined into one (reading order kept). */
export function withUnspacedWordsJoined(words: readonly RecognizedWord[]): RecognizedWord[] {
  const next = rightNeighbours(words);
  const gap = (i: number) => (words[next[i]!]!.x0 - words[i]!.x1) / heightOf(words[i]!);
  const spaces = next
    .map((j, i) => (j === undefined ? undefined : gap(i)))
    .filter((g): g is number => g !== undefined && g > 0 && g <= MAX_SPACE)
    .sort((a, b) => a - b);
  if (spaces.length < MIN_SPACES) return [...words];
  const space = spaces[spaces.length >> 1]!;
  /** The word each word continues (its left neighbour), where the two stand too close for a space. */
  const continues = new Map<number, number>();
  for (const [i, j] of next.entries()) {
    if (j === undefined || continues.has(j)) continue;
    const [left, right] = [words[i]!.text, words[j]!.text];
    if (gap(i) < UNSPACED * space || (gap(i) < space && (splitUnit(left, right) || splitTextResultWord(left, right)))) continues.set(j, i);
  }
  const firstOf = (i: number): number => (continues.has(i) ? firstOf(continues.get(i)!) : i);
  const joined = new Map<number, RecognizedWord>();
  // Left to right, so each word is appended after the one it continues.
  for (const i of [...words.keys()].sort((a, b) => words[a]!.x0 - words[b]!.x0)) {
    const first = firstOf(i);
    const word = words[i]!;
    const before = joined.get(first);
    joined.set(
      first,
      before === undefined
        ? word
        : { ...before, text: before.text + word.text, x1: Math.max(before.x1, word.x1), y0: Math.min(before.y0, word.y0), y1: Math.max(before.y1, word.y1), confidence: Math.min(before.confidence, word.confidence) },
    );
  }
  return words.flatMap((_, i) => (continues.has(i) ? [] : [joined.get(i)!]));
}
