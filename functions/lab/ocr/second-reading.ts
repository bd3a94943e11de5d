import vocabulary from '../../../data/lab/report-vocabulary.json';
import { LOINC_ROWS } from '../loinc/map-to-loinc';
import { hasMisreadPoint } from './decimal-points';
import { emboldened, halved } from './grey-geometry';
import { PRINTED_UNITS } from './normalise-word';
import { cutOut, type ImageRegion, type PageImage, type RecognizedWord, type TextRecognizer } from './recognizer';

/**
 * A second reading of the numbers the engine doubted. Tesseract's line model misreads some monospaced
 * digits at the page's 300 dpi where it reads them surely at another scale or in black and white
 * (`33.3` read `3843` at confidence 0.21, then `33.3` at 0.96 half-size and 0.95 thresholded;
 * `31.5-35.7` read `31:5=35.7`). A word with a digit that the engine was unsure of is read again, on its
 * own line, from other renderings of its box: half the resolution (2×2 mean), thresholded to black and
 * white, where those two disagree half the resolution thresholded, and last one pixel bolder (a thin
 * font's strokes grown to what the engine reads: a Times 8-point report drawn in URW's Nimbus Roman got
 * its Albumin and Globulin rows back, read before as one invented row). Renderings fail in different
 * ways, so the word takes a text only when two of them give it as one word; a rendering that reads what
 * the page reading did, or any other disagreement, leaves the first reading, doubted as it was.
 * Agreement is no certainty: the word's confidence is capped below the level at which a result is
 * trusted, so the value is flagged to check (`low_ocr_confidence`), not taken as read.
 *
 * A number read with a mark no value prints between its digits (`3:0`, decimal-points.ts) is doubted
 * however sure the engine was: where it misread the point, it misread the digits beside it too
 * (DejaVu Sans Mono at 200 dpi: `3.8` read `3:0` at 0.74, `26.5` read `20:5`; read alone, both are
 * plain). A reading with such a mark settles nothing and is not taken (noisy `4.1-5.2`, read `41-52`,
 * is `41:52` in both half-size renderings).
 *
 * The engine also reads some values as letters, unsurely (`8.1` as `Bil` at 0.55, `71` as `Td` at 0.62,
 * `5.5` as `D:D` at 0.12), and short words as others (`EGFR` as `FRE` at 0.38, `DETECTED` as `RELI`): a
 * short word of letters (and the marks a point is read as) under 0.7 is read again the same way, and takes the renderings' text only where both read the
 * same number or the same word a report prints alone in a cell (a one-word test name of the LOINC
 * table, a word of a text result, a flag word, a unit); a word read again as itself, or as anything
 * else, stays as read. A word with a slash the engine doubted (under 0.6) is read again the same way
 * and takes only a unit the unit table prints that both renderings read: a noisy `mg/L` read `g/L` at
 * 0.22 is a unit too, a thousand times off, and only a second look tells them apart.
 *
 * The page reading may drop a value's comparator, its box around it (`<5.0` read `5.0L` at 0.15, the
 * `<` inside the box): a wrong value, for `5.0` is no `<5.0`. Renderings that misread the rest alike
 * (`<SoL`, `<S0L`) settle no text, but where two of them begin with the same `<` or `>` and the page
 * reading is a number without one, the number takes that comparator, its confidence capped as a settled
 * reading's.
 */

/** Readings under this confidence are read again (the confidence under which a word does not count as read). */
const DOUBTED = 0.6;
/** Shorter words are left alone: a lone doubted digit or two is mostly a speck, dropped after. */
const MIN_LENGTH = 3;
/** Words of letters, at most this long and under this confidence, may be values read as letters. */
const MAX_LETTERS = 4;
/** Letters, and the marks a value's point is read as among them (`D:D` for `5.5`): at least one letter. */
const LETTERS_AND_POINTS = /^(?=.*\p{L})[\p{L}.:;,]+$/u;
const UNSURE_LETTERS = 0.7;
/** What such a word must read as to be taken: a number. */
const NUMBER = /^\d+(?:\.\d+)?$/;
/** A range of two bounds, as a word: `3.6-5.1`. */
const RANGE = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/;
/** A word shaped as a range: two bounds of digits with points, colons or semicolons among them. */
const RANGE_SHAPED = /^\d(?:[\d.:;]*\d)?-\d(?:[\d.:;]*\d)?$/;
/** The box is widened by this share of its height on every side, room for strokes the engine's box clipped. */
const MARGIN = 0.4;
/** Grey level under which a pixel is black in the thresholded rendering (paper is ~250, strokes under 100). */
const THRESHOLD = 170;
/** The confidence of a word whose text the second reading gave: under the 0.8 of a trusted result. */
export const SECOND_READING_CONFIDENCE = 0.7;

export function thresholded(image: PageImage): PageImage {
  return { ...image, grey: image.grey.map((g) => (g < THRESHOLD ? 0 : 255)) };
}

type LineReader = NonNullable<TextRecognizer['recognizeLine']>;

/** The one word a rendering of the box reads as, or nothing when it reads none or several. */
async function onlyWord(readLine: LineReader, image: PageImage): Promise<RecognizedWord | undefined> {
  const words = (await readLine(image, { x0: 0, y0: 0, x1: image.width - 1, y1: image.height - 1 })).filter((w) => w.text.trim() !== '');
  return words.length === 1 ? words[0] : undefined;
}

/** The renderings of a box a doubted word is read from, in order, and how many page pixels one of their pixels spans. */
const RENDERINGS: ReadonlyArray<{ of: (crop: PageImage) => PageImage; scale: number }> = [
  { of: halved, scale: 2 },
  { of: thresholded, scale: 1 },
  { of: (crop) => thresholded(halved(crop)), scale: 2 },
  { of: emboldened, scale: 1 },
];

/** A comparator a value may begin with, which a page reading can drop. */
const COMPARATOR = /^[<>]/;
/** A number as a value cell prints it, with a flag letter or two after it (`5.0L`, `111H`). */
const FLAGGED_NUMBER = /^\d+(?:\.\d+)?[A-Z]{0,2}$/;
/** Digits with points and hyphens only: a number, a range or a piece of one (`6-5.1`, `2-1.`). */
const NUMBER_SHAPED = /^[\d.-]*\d[\d.-]*$/;
/** A number or range, with a comparator or a flag (`<5.0`, `3.6-5.1`, `5.0L`). */
const FLAGGED_NUMBER_OR_RANGE = /^[<>]?\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?[A-Z]{0,2}$/;

/** A word read again: with the text two renderings settled on, or as it was, and whether a rendering read it as the page reading did. */
interface ReadAgain {
  word: RecognizedWord;
  confirmed: boolean;
}

async function readAgain(word: RecognizedWord, image: PageImage, readLine: LineReader, accepts: (text: string) => boolean): Promise<ReadAgain> {
  const margin = Math.ceil(MARGIN * (word.y1 - word.y0));
  const region = {
    x0: Math.max(0, Math.floor(word.x0) - margin),
    y0: Math.max(0, Math.floor(word.y0) - margin),
    x1: Math.min(image.width - 1, Math.ceil(word.x1) + margin),
    y1: Math.min(image.height - 1, Math.ceil(word.y1) + margin),
  };
  const { crop } = cutOut(image, region);
  const unsettled = { word, confirmed: false };
  // A rendering that reads what the page reading did leaves nothing to settle, and no further reading.
  const confirmed = { word, confirmed: true };
  /** Each rendering's one-word reading, and how many page pixels one of its pixels spans. */
  const readings: Array<{ read: RecognizedWord; scale: number }> = [];
  /** The comparators the renderings' words begin with, and their confidences. */
  const comparators: Array<{ mark: string; confidence: number }> = [];
  for (const { of, scale } of RENDERINGS) {
    const read = await onlyWord(readLine, of(crop));
    if (read?.text === word.text) return confirmed;
    const mark = read && COMPARATOR.exec(read.text)?.[0];
    if (mark) comparators.push({ mark, confidence: read.confidence });
    if (!read || !accepts(read.text)) continue;
    const agreeing = readings.find((r) => r.read.text === read.text);
    if (!agreeing) {
      readings.push({ read, scale });
      continue;
    }
    // The box of the reading at the finer scale, moved back onto the page.
    const [boxed, other] = agreeing.scale <= scale ? [agreeing, { read, scale }] : [{ read, scale }, agreeing];
    const settled = {
      ...word,
      text: read.text,
      x0: boxed.read.x0 * boxed.scale + region.x0,
      x1: boxed.read.x1 * boxed.scale + region.x0,
      y0: boxed.read.y0 * boxed.scale + region.y0,
      y1: boxed.read.y1 * boxed.scale + region.y0,
      confidence: Math.min(SECOND_READING_CONFIDENCE, boxed.read.confidence, other.read.confidence),
    };
    return { word: settled, confirmed: false };
  }
  const agreed = comparators.filter((c) => c.mark === comparators[0]?.mark);
  if (agreed.length >= 2 && agreed.length === comparators.length && FLAGGED_NUMBER.test(word.text)) {
    const confidence = Math.min(SECOND_READING_CONFIDENCE, word.confidence, ...agreed.map((c) => c.confidence));
    return { word: { ...word, text: `${agreed[0]!.mark}${word.text}`, confidence }, confirmed: false };
  }
  return unsettled;
}

const hasDigit = (text: string) => /\d/.test(text);
/** A reading with a digit and no mark between digits that no value prints (a re-reading must settle such a mark, not repeat it). */
const isPlainDigits = (text: string) => hasDigit(text) && !hasMisreadPoint(text);
const isNumber = (text: string) => NUMBER.test(text);

/** Words a report prints alone in a cell, in capitals: one-word test names (data/lab/loinc-common-labs.json), words of text results and flag words (data/lab/report-vocabulary.json). */
const CELL_WORDS = new Set(
  [
    ...LOINC_ROWS.flatMap((row) => row.synonyms).filter((name) => !name.includes(' ')),
    ...vocabulary.textResults.phrases.flatMap((phrase) => phrase.split(' ')),
    ...Object.keys(vocabulary.flagWords.words),
  ].map((word) => word.toUpperCase()),
);
/** A unit as the unit table spells it (not ucum/to-ucum.ts's `isPrintedUnit`, which takes any case and pattern). */
const isTableUnit = (text: string) => PRINTED_UNITS.has(text);

/** A number, or a word a report prints alone in a cell (units as the unit table spells them, other words in any case). */
const isNumberOrCellWord = (text: string) => isNumber(text) || isTableUnit(text) || CELL_WORDS.has(text.toUpperCase());

/** A range whose bounds read as numbers, low to high. */
function isRange(text: string): boolean {
  const bounds = RANGE.exec(text);
  return bounds !== null && Number(bounds[1]) <= Number(bounds[2]);
}

/** A range-shaped word no printer prints: a colon or semicolon among its digits, two points in a bound, or its bounds high to low. */
function isMisshapenRange(text: string): boolean {
  return RANGE_SHAPED.test(text) && !isRange(text);
}

/** The words, those with a digit the engine doubted and short unsure words of letters read again (see above); in the same order. */
export async function withDoubtedNumbersReadAgain(words: readonly RecognizedWord[], image: PageImage, recognizer: TextRecognizer): Promise<RecognizedWord[]> {
  const readLine = recognizer.recognizeLine?.bind(recognizer);
  if (!readLine) return [...words];
  return Promise.all(
    words.map((w) => {
      if ((w.confidence < DOUBTED || hasMisreadPoint(w.text)) && w.text.length >= MIN_LENGTH && hasDigit(w.text)) return readAgain(w, image, readLine, isPlainDigits).then((r) => r.word);
      if (w.confidence < DOUBTED && w.text.includes('/')) return readAgain(w, image, readLine, isTableUnit).then((r) => r.word);
      if (w.confidence < UNSURE_LETTERS && w.text.length >= 2 && w.text.length <= MAX_LETTERS && LETTERS_AND_POINTS.test(w.text)) return readAgain(w, image, readLine, isNumberOrCellWord).then((r) => r.word);
      return w;
    }),
  );
}

/**
 * The words, each range in a shape no printer prints read again whole, whatever its confidence: a
 * colon or semicolon among its digits, two points in a bound, or its bounds high to low. Sparse reading cuts a monospaced
 * range into pieces that the reader joins back (unspaced-words.ts); a piece read wrong makes the range
 * so (Liberation Mono: `3.6-5.1` from `8:`, `6-5.` and `1`; `1.0-2.5` from `15`, `0-2.` and `5`). Its box
 * is read as the doubted words are, and takes only a well-formed range, low to high, that both
 * renderings read. One that no rendering settles or reads as the page reading did is no reading, and
 * is left out: a range missed is better than `3:6-5.1` or `41-5.2` given as printed.
 */
export async function withMisshapenRangesReadAgain(words: readonly RecognizedWord[], image: PageImage, recognizer: TextRecognizer): Promise<RecognizedWord[]> {
  const readLine = recognizer.recognizeLine?.bind(recognizer);
  if (!readLine) return [...words];
  const read = await Promise.all(
    words.map(async (w) => {
      if (!isMisshapenRange(w.text)) return [w];
      const again = await readAgain(w, image, readLine, isRange);
      return again.word === w && !again.confirmed ? [] : [again.word];
    }),
  );
  return read.flat();
}

/**
 * The word with the ink beside it that the page reading left out (uncovered-ink.ts `wordBeside`), read
 * together as one line at the page's scale; undefined unless that reading is one word: the word as read
 * with more glyphs on the ink's side (`6-5.1` and the `3.` before it: `3.6-5.1`), flagged to check for
 * the glyphs it adds were read once; or the word as read, whose box clipped its own ink (`HDL` boxed
 * without the stroke of its `L`, which read alone is another `L`), its box grown over the ink. Where the
 * page's scale reads the two as anything else, their box is read again from the renderings a doubted
 * word is read from, and takes the word grown so where two of them agree (a thin Courier's `7.5`, its
 * `7` read and its `.5` left beside it, reads `Es` at the page's scale: URW's Nimbus Mono). A number or
 * range grows only into one (`75.` or `7s5` is no reading of `7.5`).
 */
export async function withInkBesideRead(word: RecognizedWord, ink: ImageRegion, image: PageImage, recognizer: TextRecognizer): Promise<RecognizedWord | undefined> {
  const readLine = recognizer.recognizeLine?.bind(recognizer);
  if (!readLine) return undefined;
  const region = { x0: Math.min(word.x0, ink.x0), y0: Math.min(word.y0, ink.y0), x1: Math.max(word.x1, ink.x1), y1: Math.max(word.y1, ink.y1) };
  /** Whether a reading is the word with letters or digits added on the ink's side (a number or range's, only into a number or range, flagged or not). */
  const grows = (text: string) => {
    const added = ink.x1 < word.x0 ? text.endsWith(word.text) && text.slice(0, -word.text.length) : text.startsWith(word.text) && text.slice(word.text.length);
    return added !== false && /[\p{L}\p{N}]/u.test(added) && (!NUMBER_SHAPED.test(word.text) || FLAGGED_NUMBER_OR_RANGE.test(text));
  };
  const words = (await readLine(image, region)).filter((w) => w.text.trim() !== '');
  const read = words.length === 1 ? words[0]! : undefined;
  if (read?.text === word.text) return { ...word, x0: region.x0, x1: region.x1 };
  if (read && grows(read.text)) return { ...word, text: read.text, x0: read.x0, x1: read.x1, y0: read.y0, y1: read.y1, confidence: Math.min(SECOND_READING_CONFIDENCE, word.confidence, read.confidence) };
  const again = await readAgain({ ...word, ...region }, image, readLine, grows);
  return again.word.text === word.text ? undefined : { ...again.word, confidence: Math.min(again.word.confidence, word.confidence) };
}
