import { inkOf, isPointShaped } from './decimal-points';
import { median } from './median';
import type { PageImage, RecognizedWord } from './recognizer';

/**
 * A period the engine left off the end of a word. Tesseract reads `Not Estab.` as `Not` `Estab` with
 * full confidence, the point outside the box it gives the word, so the range text loses its period
 * (and an abbreviated name, `Bind.Cap.`, its last one). A word that ends in a letter and was read
 * surely takes a period where the page shows one just after its last glyph: one round dot on the
 * glyphs' baseline, a tenth to a third of their height, at most two fifths of their height from the
 * last glyph, with no other ink after it within half their height (dot leaders, a comma's tail, the
 * next word, a speck above the line all leave the word as read).
 */

const ENDS_IN_LETTER = /\p{L}$/u;
/** Only words the engine read surely: a misread word has other repairs, and its box is less sure. */
const SURE = 0.8;
/** How far past the word's box (share of its height) the page is looked at. */
const REACH = 0.5;
/** The widest gap between the last glyph and its period (share of the glyphs' height): a monospaced cell's. */
const MAX_GAP = 0.4;

/** The word with the period the page prints after it, or as read. */
export function withTrailingPeriod(word: RecognizedWord, image: PageImage): RecognizedWord {
  if (word.text.length < 2 || !ENDS_IN_LETTER.test(word.text) || word.confidence < SURE) return word;
  const height = word.y1 - word.y0;
  // A third of the height below the box too: a comma's tail is no period's.
  const lookedAt = { ...word, x1: word.x1 + Math.ceil(REACH * height) };
  const ink = inkOf(lookedAt, image, Math.ceil(height / 3));
  if (!ink) return word;
  const { blobs, glyphs, tallest, left } = ink;
  // inkOf's box reaches a pixel past the one asked for; ink on its last column goes on beyond it.
  const lastColumn = Math.min(image.width - 1, Math.ceil(lookedAt.x1) + 1) - left;
  const end = Math.ceil(word.x1) - left;
  // The word ends where the glyphs that start inside its box reach furthest.
  const inside = glyphs.filter((g) => g.x0 <= end);
  if (inside.length === 0) return word;
  const last = inside.reduce((found, g) => (g.x1 > found.x1 ? g : found));
  const beyond = blobs.filter((b) => b.x0 > last.x1);
  if (beyond.length !== 1) return word;
  const dot = beyond[0]!;
  // Descenders aside, the glyphs stand on one line.
  const baseline = median(glyphs.map((g) => g.y1))!;
  // A mark cut off by the edge of what is looked at is the foot of the next word's first glyph (a bold
  // Times `A` after `HIV`, the next word a space away), not a period: a period stands whole.
  const isPeriod = isPointShaped(dot, tallest, baseline) && dot.x0 - last.x1 - 1 <= MAX_GAP * tallest && dot.x1 < lastColumn;
  return isPeriod ? { ...word, text: `${word.text}.`, x1: left + dot.x1 } : word;
}
