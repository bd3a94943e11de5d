import { inkOf } from './decimal-points';
import { median } from './median';
import { PRINTED_UNITS } from './normalise-word';
import type { PageImage, RecognizedWord } from './recognizer';

/**
 * A capital I the engine left out of a unit. In Arial-like fonts (Liberation Sans) `IU/L` begins with
 * a bare stroke, and Tesseract reads the word as `U/L` with the stroke inside the box it gives: both are
 * units, so only the page can tell. Where the word's box holds one glyph more than the word has
 * characters, and that glyph is the first, a full-height upright stroke (at most a quarter as wide as
 * tall) standing apart from the next, the word is the unit with an `I` before it, if the unit table
 * prints that.
 */

/** The widest an I's stroke is, as a share of its height (sans-serif I: about a tenth; a serif I's foot: a third). */
const STROKE_WIDTH = 0.25;
/** An I stands as tall as the word's other glyphs, mostly capitals (their median: a slash reaches further). */
const FULL_HEIGHT = 0.9;

export function withUnitLostStroke(word: RecognizedWord, image: PageImage): RecognizedWord {
  const text = `I${word.text}`;
  if (!PRINTED_UNITS.has(text) || word.text.includes('I')) return word;
  const glyphs = inkOf(word, image)?.glyphs ?? [];
  const [stroke, next] = glyphs;
  if (glyphs.length !== text.length || !stroke || !next) return word;
  const height = stroke.y1 - stroke.y0 + 1;
  const others = median(glyphs.slice(1).map((g) => g.y1 - g.y0 + 1))!;
  const isStroke = stroke.x1 - stroke.x0 + 1 <= STROKE_WIDTH * height && height >= FULL_HEIGHT * others && stroke.x1 < next.x0;
  return isStroke ? { ...word, text } : word;
}
