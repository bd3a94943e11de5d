import { type Blob, inkOf, isPrintedPoint, POINT_PITCH_HEIGHTS, RESTORED_CONFIDENCE, type WordInk } from './decimal-points';
import { median } from './median';
import type { PageImage, RecognizedWord } from './recognizer';
import { rightNeighbours } from './unspaced-words';

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

/** A printed hyphen's least width, as a share of the digits' height (a speck is smaller). */
const HYPHEN_WIDTH = 0.2;
const RISING_RANGE = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/;

/** A blob of a word's ink that is a printed hyphen: hyphen-shaped and placed, and at least a fifth of the glyphs' height wide. */
export function isPrintedHyphen(b: Blob, { glyphs, tallest, baseline }: WordInk): boolean {
  return isHyphen(b, glyphs, tallest, baseline) && b.x1 - b.x0 + 1 >= HYPHEN_WIDTH * tallest;
}

/**
 * Widest gap (share of the digits' height) between two pieces of one hyphen that noise broke: a noisy
 * 150-dpi `6 - 24` in DejaVu Sans Mono showed its hyphen as two pieces 3 pixels wide, 3 pixels apart,
 * beside digits 27 pixels tall.
 */
const HYPHEN_BREAK = 0.15;

/** The marks between a word's glyphs, with pieces side by side at one height joined into one: a hyphen that noise broke. */
function withBrokenMarksJoined({ blobs, glyphs, tallest }: WordInk): Blob[] {
  const joined: Blob[] = [];
  for (const mark of blobs.filter((b) => !glyphs.includes(b)).sort((a, b) => a.x0 - b.x0)) {
    const last = joined[joined.length - 1];
    if (last && mark.x0 - last.x1 - 1 <= HYPHEN_BREAK * tallest && mark.y0 <= last.y1 && mark.y1 >= last.y0) {
      joined[joined.length - 1] = { x0: last.x0, y0: Math.min(last.y0, mark.y0), x1: Math.max(last.x1, mark.x1), y1: Math.max(last.y1, mark.y1), area: last.area + mark.area };
    } else joined.push(mark);
  }
  return joined;
}

/**
 * The range a box of digits read as `digits` shows, its marks put back from the image, or null. Each
 * glyph is one blob, one read digit each; a gap wide enough for a mark (the digits' pitch 0.8 of their
 * height or more, decimal-points.ts) holds exactly one, a printed point or the one hyphen at least a
 * fifth of the digits' height wide (its pieces joined where noise broke it), and a narrower gap holds
 * none; and the marks make a rising range.
 */
function rangeInInk(digits: string, box: RecognizedWord, image: PageImage): string | null {
  const ink = inkOf(box, image);
  if (!ink || ink.glyphs.length !== digits.length) return null;
  const { blobs, tallest, glyphs } = ink;
  const hyphens = withBrokenMarksJoined(ink).filter((b) => isPrintedHyphen(b, ink));
  if (hyphens.length !== 1) return null;
  const marks = [...hyphens, ...blobs.filter((b) => isPrintedPoint(b, ink))];
  const centre = (b: Blob) => (b.x0 + b.x1) / 2;
  let text = digits[0]!;
  for (let i = 1; i < glyphs.length; i++) {
    const [before, next] = [glyphs[i - 1]!, glyphs[i]!];
    const inGap = marks.filter((m) => m.x0 > before.x1 && m.x1 < next.x0);
    const wide = centre(next) - centre(before) >= POINT_PITCH_HEIGHTS * tallest;
    if (inGap.length !== (wide ? 1 : 0)) return null;
    if (wide) text += inGap[0] === hyphens[0] ? '-' : '.';
    text += digits[i];
  }
  const range = RISING_RANGE.exec(text);
  return range && Number(range[1]) < Number(range[2]) ? text : null;
}

/** Digits and the marks of a range, three digits or more. */
const MARKS_LOST = /^(?=(?:\D*\d){3})[\d.-]+$/;
/**
 * Points and no hyphen, but not the two of a range that lost its hyphen: a number (`5.77`), or three
 * points (`4.1.5.2`, withDroppedHyphen's). Not a range whose marks were lost.
 */
function pointsOnly(text: string): boolean {
  return text.includes('.') && !text.includes('-') && !TWO_POINTS.test(text);
}

/** Whether `read` is `full` with some of its marks left out. */
function marksLeftOut(read: string, full: string): boolean {
  let i = 0;
  for (const c of full) if (c === read[i]) i++;
  return i === read.length;
}

/**
 * A range the engine read with marks lost: its hyphen dropped and its points with it (`44-121` read
 * `44121`, `1.5-4.5` read `1545`), or one point of it (`11.6-15.4` read `11.6-154`). Such a word may
 * also be a number, so the marks go back only where the image accounts for every gap (rangeInInk) and
 * holds every mark read; anything else leaves the word as read. Run before the search for lost decimal
 * points, which takes a range's two points for two in one number.
 */
export function withRangeMarksRestored(word: RecognizedWord, image: PageImage): RecognizedWord {
  if (!MARKS_LOST.test(word.text) || pointsOnly(word.text)) return word;
  const range = rangeInInk(word.text.replace(/\D/g, ''), word, image);
  return range === null || range === word.text || !marksLeftOut(word.text, range) ? word : { ...word, text: range, confidence: Math.min(word.confidence, RESTORED_CONFIDENCE) };
}

/** Farthest apart (in the digits' height) the two numbers of a range read as two words stand: `6 - 24` in Courier. */
const RANGE_SPREAD = 2.5;

/** Each word with its right neighbour where `join` makes one word of the two (reading order kept; a word joins one other at most). */
function withNeighboursJoined(words: readonly RecognizedWord[], join: (left: RecognizedWord, right: RecognizedWord) => RecognizedWord | null): RecognizedWord[] {
  const next = rightNeighbours(words);
  const joined = new Map<number, RecognizedWord>();
  const taken = new Set<number>();
  next.forEach((j, i) => {
    const [left, right] = [words[i]!, j === undefined ? undefined : words[j]];
    if (!right || taken.has(i) || taken.has(j!) || joined.has(j!)) return;
    const word = join(left, right);
    if (word === null) return;
    joined.set(i, word);
    taken.add(j!);
  });
  return words.flatMap((word, i) => (taken.has(i) ? [] : [joined.get(i) ?? word]));
}

/** The box of two neighbouring words. */
function boxOf(left: RecognizedWord, right: RecognizedWord): RecognizedWord {
  return { ...left, x1: right.x1, y0: Math.min(left.y0, right.y0), y1: Math.max(left.y1, right.y1) };
}

/**
 * The two numbers of a range the engine read as two words, its hyphen dropped (`100` `199` for
 * `100-199`, `6` `24` for `6 - 24`), joined into the range where the ink of both and of the gap
 * between them shows it by the same rules (rangeInInk): one hyphen in the one wide gap.
 */
export function withSplitRangesJoined(words: readonly RecognizedWord[], image: PageImage): RecognizedWord[] {
  return withNeighboursJoined(words, (left, right) => {
    if (!/^\d+$/.test(left.text) || !/^\d+$/.test(right.text) || right.x0 - left.x1 > RANGE_SPREAD * (left.y1 - left.y0)) return null;
    const box = boxOf(left, right);
    const range = rangeInInk(left.text + right.text, box, image);
    return range === null ? null : { ...box, text: range, confidence: Math.min(left.confidence, right.confidence, RESTORED_CONFIDENCE) };
  });
}

/**
 * Widest gap (in the digits' height) between two words of one number parted at its point: in a
 * monospaced font the point takes a whole cell, and a space leaves as much (the point in the gap tells
 * them apart). Between the inks that is 0.9 of the digits' height in DejaVu Sans Mono and 1.22–1.26 in
 * URW's Nimbus Mono (a Courier: narrower, shorter digits in the same cell), measured at 300 dpi; a
 * Courier's narrowest digits leave at most ~0.85 em against digits 0.57 em tall, under 1.5.
 */
const POINT_GAP = 1.6;
/** What may stand before a number's point: its whole digits, or a range and its upper bound's (`1.0-2` `5` for `1.0-2.5`). */
const BEFORE_POINT = /^(?:\d+(?:\.\d+)?-)?\d+$/;
/** What may follow a number's point: its decimals, or those and the rest of a range (`39` `4-51.1` for `39.4-51.1`). */
const AFTER_POINT = /^\d+(?:-\d+(?:\.\d+)?)?$/;
/** A number, or a range of two. */
const NUMBER_OR_RANGE = /^\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?$/;

/**
 * A number the engine parted at its point, the point left out (`11` `9` for `11.9`, `39` `4-51.1` for
 * `39.4-51.1`, `1.0-2` `5` for `1.0-2.5`): two neighbours of digits closer than a point's gap, with
 * exactly one mark in the gap, a printed point (decimal-points.ts `isPrintedPoint`: point-shaped on the
 * digits' baseline between glyphs), are one word with that point, flagged, where together they are a
 * number or a range. Any other mark, or none, leaves them apart. A range parted at both its points
 * (`3` `6-5` `1` for `3.6-5.1`) is joined again until nothing joins.
 */
export function withSplitPointsJoined(words: readonly RecognizedWord[], image: PageImage): RecognizedWord[] {
  const joined = withNeighboursJoined(words, (left, right) => {
    const text = `${left.text}.${right.text}`;
    if (!BEFORE_POINT.test(left.text) || !AFTER_POINT.test(right.text) || !NUMBER_OR_RANGE.test(text)) return null;
    if (right.x0 - left.x1 > POINT_GAP * (left.y1 - left.y0)) return null;
    const box = boxOf(left, right);
    const ink = inkOf(box, image);
    if (!ink) return null;
    const between = ink.blobs.filter((b) => b.x0 + ink.left > left.x1 && b.x1 + ink.left < right.x0);
    if (between.length !== 1 || !isPrintedPoint(between[0]!, ink)) return null;
    return { ...box, text, confidence: Math.min(left.confidence, right.confidence, RESTORED_CONFIDENCE) };
  });
  return joined.length === words.length ? joined : withSplitPointsJoined(joined, image);
}

/**
 * How far apart, in the digits' pitch (centre to centre of two plain neighbouring digits), the digits
 * on either side of a range's hyphen stand when spaces are printed around it. The hyphen alone puts
 * them 1.6 pitches apart in Helvetica and 2 in Courier; with a space either side, 2.6 and 4.
 */
const SPACED_HYPHEN_PITCHES = 2.3;

/**
 * The range word with the spaces printed around its hyphen, where the image shows them: the engine
 * drops the spaces of `6 - 24`, and reads it `6-24`. It needs a plain pair of neighbouring digits to
 * measure the pitch by (`3.5-5.2` has none, and stays as read), and one glyph to each digit. A 1 is no
 * measure of the pitch: its ink stands off the middle of its cell (DejaVu Sans Mono's `1` two pixels
 * right of it at 300 dpi, so that by its pair `12` the digits of `7.5-12.5` stood 2.35 pitches apart
 * across the hyphen), and pairs with a 1 give none. Beside the hyphen its offset moves the measure by
 * a tenth of a pitch, far from the threshold.
 */
export function withRangeSpacing(word: RecognizedWord, image: PageImage): RecognizedWord {
  const bounds = RISING_RANGE.exec(word.text);
  if (!bounds) return word;
  const ink = inkOf(word, image);
  const digits = word.text.replace(/\D/g, '');
  if (!ink || ink.glyphs.length !== digits.length) return word;
  const centre = (b: Blob) => (b.x0 + b.x1) / 2;
  // Glyph indices of the plain neighbouring pairs: within a run of digits, no point or hyphen between.
  const pitches: number[] = [];
  let glyph = 0;
  for (const run of word.text.split(/[.-]/)) {
    for (let i = 1; i < run.length; i++) if (!run.slice(i - 1, i + 1).includes('1')) pitches.push(centre(ink.glyphs[glyph + i]!) - centre(ink.glyphs[glyph + i - 1]!));
    glyph += run.length;
  }
  const pitch = median(pitches);
  if (pitch === undefined) return word;
  const before = bounds[1]!.replace('.', '').length;
  const across = centre(ink.glyphs[before]!) - centre(ink.glyphs[before - 1]!);
  return across >= SPACED_HYPHEN_PITCHES * pitch ? { ...word, text: `${bounds[1]} - ${bounds[2]}` } : word;
}
