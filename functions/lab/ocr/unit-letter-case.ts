import { inkOf } from './decimal-points';
import { median } from './median';
import { PRINTED_UNITS } from './normalise-word';
import type { PageImage, RecognizedWord } from './recognizer';

/**
 * The case of a unit's first letter, from its size on the page. Small and capital `x`, `p`, `c`, `s`,
 * `u`… differ at scan resolution mostly in height, and the engine guesses: `Pg` for `pg`, `X10E3/uL` for
 * `x10E3/uL`. Where the word is no printed unit of the unit table (data/lab/unit-to-ucum.json) but is
 * one with its first letter's case turned, the image decides: the first glyph's top against the tops of
 * the word's other glyphs, those of capitals, digits and ascenders (the cap line) and those of the
 * other small letters (the x line). It is a capital where its top is on the cap line, small where on
 * the x line (within a third of the lines' distance, which must be a tenth of the glyphs' height or
 * more: monospaced lab fonts such as Liberation Mono set small letters four fifths as tall as
 * capitals); a word without both lines measures against the line it has (a capital stands over the x
 * line by a fifth of the glyphs' height or more, a small letter under the cap line by as much). Glyphs
 * that are not one blob each, or a top between the two, leave the word as read.
 */

const X_HEIGHT_LETTERS = /^[acegmnopqrsuvwxyz]$/;
const CAP_HEIGHT_GLYPHS = /^[A-Z0-9bdfhklt]$/;
/** A fifth of the glyphs' height: cap height stands about 0.3 of it over the x line in lab fonts. */
const CLEAR_MARGIN = 0.2;
/** The least distance of the cap line over the x line (share of the glyphs' height) that tells a case by both. */
const LINES_APART = 0.1;
/** Blobs under this share of the tallest are points, the dots of i and j, or specks: no letter of their own. */
const MIN_LETTER = 0.35;

function turned(text: string): string {
  const first = text[0]!;
  const other = first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase();
  return other + text.slice(1);
}

/** Whether the first glyph stands as a capital (true), a small letter (false), or cannot be told (undefined). */
function firstIsCapital(text: string, tops: readonly number[], height: number): boolean | undefined {
  const capLine = median(tops.filter((_, i) => i > 0 && CAP_HEIGHT_GLYPHS.test(text[i]!)));
  const xLine = median(tops.filter((_, i) => i > 0 && X_HEIGHT_LETTERS.test(text[i]!)));
  const top = tops[0]!;
  const margin = CLEAR_MARGIN * height;
  if (capLine !== undefined && xLine !== undefined) {
    const apart = xLine - capLine;
    if (apart < LINES_APART * height) return undefined;
    if (Math.abs(top - capLine) <= apart / 3) return true;
    return Math.abs(top - xLine) <= apart / 3 ? false : undefined;
  }
  if (xLine !== undefined) return top <= xLine - margin ? true : Math.abs(top - xLine) < margin / 2 ? false : undefined;
  if (capLine !== undefined) return top >= capLine + margin ? false : Math.abs(top - capLine) < margin / 2 ? true : undefined;
  return undefined;
}

/** The word with its first letter in the case the image shows, where only that makes it a printed unit. */
export function withUnitLetterCase(word: RecognizedWord, image: PageImage): RecognizedWord {
  if (!/^\p{L}/u.test(word.text) || PRINTED_UNITS.has(word.text) || !PRINTED_UNITS.has(turned(word.text))) return word;
  const ink = inkOf(word, image);
  const letters = ink?.blobs.filter((b) => b.y1 - b.y0 + 1 >= MIN_LETTER * ink.tallest).sort((a, b) => a.x0 - b.x0);
  if (!ink || letters?.length !== word.text.length) return word;
  const capital = firstIsCapital(
    word.text,
    letters.map((g) => g.y0),
    ink.tallest,
  );
  if (capital === undefined) return word;
  const first = word.text[0]!;
  const text = (capital ? first.toUpperCase() : first.toLowerCase()) + word.text.slice(1);
  return text === word.text ? word : { ...word, text };
}
