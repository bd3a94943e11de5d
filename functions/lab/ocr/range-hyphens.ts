import { type Blob, inkOf, RESTORED_CONFIDENCE } from './decimal-points';
import type { PageImage, RecognizedWord } from './recognizer';

/**
 * The hyphen of a range the engine dropped: `1.5-4.5` read `1.54.5`. No number has two decimal points,
 * so such a word is a range whose hyphen went missing, but where it stood only the image says (`1.5-4.5`
 * and `1.54-.5` read alike). It goes back where the page shows a hyphen: one blob between two glyphs,
 * at least half again as wide as it is high, at most a quarter of the digits' height, its middle
 * between a fifth and four fifths of the way up them, with two digits and one point on each side.
 * Anything else leaves the word as read, and the reader takes it for no value.
 *
 * A hyphen read as a point (`4.1-5.2` read `4.1.5.2`: three points, which no number or range has) is
 * put back the same way: the point the engine read where the image shows that hyphen becomes it.
 */

const TWO_POINTS = /^\d+\.\d+\.\d+$/;
const THREE_POINTS = /^\d+\.\d+\.\d+\.\d+$/;

function isHyphen(blob: Blob, glyphs: readonly Blob[], tallest: number, baseline: number): boolean {
  const width = blob.x1 - blob.x0 + 1;
  const height = blob.y1 - blob.y0 + 1;
  const rise = (baseline - (blob.y0 + blob.y1) / 2) / tallest;
  return (
    width >= 1.5 * height &&
    height <= 0.25 * tallest &&
    rise >= 0.2 &&
    rise <= 0.8 &&
    glyphs.some((g) => g.x1 < blob.x0) &&
    glyphs.some((g) => g.x0 > blob.x1)
  );
}

/** The word with its range's hyphen put back from the image, or as read. */
export function withDroppedHyphen(word: RecognizedWord, image: PageImage): RecognizedWord {
  const readAsPoint = THREE_POINTS.test(word.text);
  if (!TWO_POINTS.test(word.text) && !readAsPoint) return word;
  const ink = inkOf(word, image);
  if (!ink || ink.glyphs.length !== word.text.replaceAll('.', '').length) return word;
  const { blobs, tallest, glyphs, baseline } = ink;
  const hyphens = blobs.filter((b) => isHyphen(b, glyphs, tallest, baseline));
  if (hyphens.length !== 1) return word;
  const before = glyphs.filter((g) => g.x1 < hyphens[0]!.x0).length;
  // The hyphen after the `before`-th digit of the word.
  let seen = 0;
  const cut = [...word.text].findIndex((c) => /\d/.test(c) && ++seen === before) + 1;
  if (readAsPoint && word.text[cut] !== '.') return word;
  const range = `${word.text.slice(0, cut)}-${word.text.slice(readAsPoint ? cut + 1 : cut)}`;
  return /^\d+\.\d+-\d+\.\d+$/.test(range) ? { ...word, text: range, confidence: Math.min(word.confidence, RESTORED_CONFIDENCE) } : word;
}
