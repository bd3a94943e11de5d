import vocabulary from '../../../data/lab/report-vocabulary.json';
import unitTable from '../../../data/lab/unit-to-ucum.json';
import { isLabCode } from '../parsers/vocabulary';
import type { ResultFlag } from '../results-schema';
import { caseAgreement, confusionFold } from './test-name-repair';

/**
 * OCR confusions repaired only where the reading cannot be anything else, before the reader sees the
 * word. Everything else is left as recognised, and doubt is carried by the word's confidence: a value
 * missed is better than a value guessed.
 *
 * - A word of bars only (`|`) is a stretch of a table rule or a speck, and no word at all: a cell
 *   holding one (`mg/dL |`) would read otherwise.
 * - Quote marks and backticks that open a word are specks or the shadow of a rule: no value, unit,
 *   range, date or test name of a lab table starts with one.
 * - A period, comma or quote that closes a word holding a digit or a slash (a value, range, date or
 *   unit) is a speck at the baseline: none of these ends in one. Words of prose keep theirs.
 * - Quote marks closing a word of the vocabulary's text results, in any case (`Reactive’`), are a
 *   speck: a report prints no text result in quotes.
 * - Inside a number, `O`/`o` (and `@`, a `0` a speck filled in) read for `0` and `l`/`I` for `1`: a
 *   word of digits, number punctuation and these marks only, with at least one true digit, is a number
 *   (`<@.005` is `<0.005`; no word of a lab table has an `@` among digits).
 * - A word with a slash that is no printed unit of the unit table (data/lab/unit-to-ucum.json) but
 *   becomes exactly one of them through the usual confusions (`l`/`I`/`1`, `[`/`|` for `/`, `O`/`0`,
 *   a small `a`/`g` or `c`/`e`, letter case) is that unit: `ulU/mL` is `uIU/mL`, `cells/ul` is `cells/uL`, `[HPF` is `/HPF`, `ma/dl` is `mg/dL`, `meg/dL` is `mcg/dL`. A word
 *   whose letters are those of printed units, only their case read otherwise, is the one agreeing with
 *   it in the case of most letters (`x10E3/ul` is `x10E3/uL`, not `X10E3/UL`); a tie leaves the word.
 * - A word with a slash that is no printed unit, nor one through the confusions, but is exactly one
 *   with one of two neighbouring strokes dropped (`x10E3/ulL`: one `L` read as two strokes), or with
 *   one mark a speck makes taken out (`x10E:3/uL`), is that unit.
 * - A word of letters without a slash that is no printed unit but becomes exactly one with one upright
 *   stroke read as its slash, and then as above, is that unit: `gldL` is `g/dL`, `mgIdL` is `mg/dL`.
 *   No word of a report's names or prose becomes a unit so.
 * - A printed unit with a slash and a colon or semicolon after it (`IU/L:`) is that unit: a speck
 *   beside the baseline, as no unit ends in one. Units without a slash (`%`, `Units`) keep it: a label's
 *   colon follows words like those.
 * - A short upper-case word with `!` or `|` in it (no word has one) that reads as exactly one
 *   performing-lab code of the vocabulary through `l`/`L`/`I`/`1`/`|`/`!` is that code: `J!` is `JI`,
 *   `N|1` is `NL1`. It needs a letter no stroke reads as: `|!` alone is a smear, not lab `11`.
 * - A comma between two digits of a number that is no thousands separator is its point, the tail of
 *   the point's dot read as a comma: not followed by exactly three digits (`4,14-5.80` is `4.14-5.80`),
 *   or in a range whose other bound is written with a point (`0.450-4,500` is `0.450-4.500`). A lab
 *   prints no decimal comma, and a range does not mix a decimal point with a thousands separator;
 *   `1,234` and `150,000-450,000` stay.
 * - A guillemet opening a number is its comparison sign: `«0.2` is `<0.2`, `»39` is `>39`. The engine
 *   reads a `<` or `>` drawn with stair-stepped edges (a fax) so, and no lab prints a guillemet.
 * - `0R` is the `OR` of an inclusive bound (`> OR = 40`, read `>0R`), with or without its sign and
 *   equals sign: no value, unit or name of a lab table is spelt so.
 * - An upper-case word that is no word of the vocabulary's text results (data/lab/report-vocabulary.json)
 *   but reads as exactly one of them through the same confusions and `Q`/`O`, `S`/`5`, `B`/`8` is that
 *   word: `ONS` is `QNS`, `NEGATlVE` is `NEGATIVE`. No English word of a report reads as one.
 */

/** A word of upright bars only: a table rule's stretch or a speck, never text a lab table prints. */
const LONE_STROKES = /^[|¦]+$/;
const OPENING_MARKS = /^[\s‘’“”"'`~]+(?=.)/u;
const CLOSING_MARKS = /(?<=.)[\s.,‘’“”"'`]+$/u;
/** Quote marks closing a word: on a word of a text result (`Reactive’`), a speck; no text result is quoted. */
const CLOSING_QUOTES = /(?<=.)[‘’“”"'`]+$/u;
const BOUND_OR_READ_0R = /^([<>≤≥]?)0R(=?)$/;
/** A guillemet before a number's first digit or point (a comparison sign read so), and the sign it is. */
const GUILLEMET_SIGN = /^[«‹»›](?=\.?[\dOolI@])/u;
const SIGN_FOR = { '«': '<', '‹': '<', '»': '>', '›': '>' } as const;
const NUMBER_LIKE = /^[<>=]?[\dOolI@]+(?:[.,:/-][\dOolI@]+)*%?$/;
const DIGIT_FOR = { O: '0', o: '0', '@': '0', l: '1', I: '1' } as const;

/** The unit table's printed spellings. */
export const PRINTED_UNITS = new Set((unitTable as Array<{ printed: string }>).map((r) => r.printed).filter((p) => p !== ''));
/** Folded spelling → the printed spellings of the table that fold to it. */
const UNITS_FOLDED = new Map<string, Set<string>>();
for (const unit of PRINTED_UNITS) UNITS_FOLDED.set(unit.toLowerCase(), (UNITS_FOLDED.get(unit.toLowerCase()) ?? new Set()).add(unit));
/** What OCR reads one character of a unit as (letter case aside). */
const CONFUSABLE: Record<string, string[]> = { l: ['i', '1'], i: ['l', '1'], '1': ['l', 'i'], '[': ['/'], '|': ['/', 'l', 'i'], o: ['0'], '0': ['o'], a: ['g'], g: ['a'], c: ['e'], e: ['c'] };
/** More confusable characters than this in one word: too many readings to call any of them certain. */
const MAX_CONFUSIONS = 3;

function readings(folded: string): string[] {
  let found = [''];
  let confusions = 0;
  for (const c of folded) {
    const alternatives = CONFUSABLE[c];
    if (alternatives && ++confusions <= MAX_CONFUSIONS) found = found.flatMap((prefix) => [c, ...alternatives].map((a) => prefix + a));
    else found = found.map((prefix) => prefix + c);
  }
  return found;
}

function unitSpellingOnce(word: string): string {
  const beforeColon = word.replace(/[:;]$/, '');
  if (beforeColon !== word && beforeColon.includes('/') && PRINTED_UNITS.has(beforeColon)) return beforeColon;
  if (PRINTED_UNITS.has(word) || !/[/[|]/.test(word) || !/\p{L}/u.test(word)) return word;
  // Letters read right and only their case wrong: the printed unit nearest in case, if one is nearest.
  const sameLetters = [...(UNITS_FOLDED.get(word.toLowerCase()) ?? [])];
  if (sameLetters.length > 0) {
    const agreement = sameLetters.map((unit) => caseAgreement(word, unit));
    const best = Math.max(...agreement);
    return agreement.filter((a) => a === best).length === 1 ? sameLetters[agreement.indexOf(best)]! : word;
  }
  const units = new Set(readings(word.toLowerCase()).flatMap((r) => [...(UNITS_FOLDED.get(r) ?? [])]));
  return units.size === 1 ? [...units][0]! : word;
}

/**
 * The one printed unit a word of letters without a slash is with one of its upright strokes read as the
 * slash, or with the slash it opens with lost (`HPF` for `/HPF`: on a 1-bit scan the thin slash breaks
 * away, and the word, no unit, ran into the range beside it: `NONE SEEN HPF`); else the word.
 */
function unitWithSlashRead(word: string): string {
  if (word.includes('/') || !/\p{L}/u.test(word) || PRINTED_UNITS.has(word)) return word;
  if (/^\p{L}{3,}$/u.test(word) && PRINTED_UNITS.has(`/${word}`)) return `/${word}`;
  const units = new Set<string>();
  for (let i = 1; i < word.length - 1; i++) {
    if (!STROKES.includes(word[i]!)) continue;
    const unit = unitSpellingOnce(`${word.slice(0, i)}/${word.slice(i + 1)}`);
    if (PRINTED_UNITS.has(unit)) units.add(unit);
  }
  return units.size === 1 ? [...units][0]! : word;
}

/** The printed unit a word is (unitSpellingOnce), or, that failing, the one it is with a doubled stroke dropped, or with a stroke read as its slash. */
function unitSpelling(word: string): string {
  if (!/[/[|]/.test(word)) return unitWithSlashRead(word);
  const once = unitSpellingOnce(word);
  if (once !== word || PRINTED_UNITS.has(word) || !/[/[|]/.test(word)) return once;
  const units = new Set([...withoutDoubledStroke(word), ...withoutSpeckMark(word)].map(unitSpellingOnce).filter((unit) => PRINTED_UNITS.has(unit)));
  return units.size === 1 ? [...units][0]! : word;
}

/** Marks a speck makes inside a word. */
const INNER_SPECK_MARKS = /[:;,'.]/g;

/** The word with one of the marks a speck makes taken out, each way (`x10E:3/uL`: a speck read as a colon). */
function withoutSpeckMark(word: string): string[] {
  return [...word.matchAll(INNER_SPECK_MARKS)].map((mark) => word.slice(0, mark.index) + word.slice(mark.index + 1));
}

/** What OCR reads an upright stroke of a letter or digit as. */
const STROKES = ['I', 'l', 'L', '1', '|'];

/** The word with one of two neighbouring strokes dropped, each way (`ulL`: the engine read one `L` as two strokes). */
function withoutDoubledStroke(word: string): string[] {
  const found: string[] = [];
  for (let i = 1; i < word.length; i++) {
    if (STROKES.includes(word[i]!) && STROKES.includes(word[i - 1]!)) found.push(word.slice(0, i) + word.slice(i + 1), word.slice(0, i - 1) + word.slice(i));
  }
  return found;
}

/** Words of the text results (three letters or more), by their confusion fold; a fold two words share repairs nothing. */
export const TEXT_RESULT_WORDS = new Set(vocabulary.textResults.phrases.flatMap((p) => p.split(' ')).filter((w) => /^[A-Z]{3,}$/.test(w)));
/** Entries by the confusion fold of their spelling; null where spellings of one fold mean different things. */
function byConfusionFold<T>(entries: Iterable<readonly [string, T]>): Map<string, T | null> {
  const found = new Map<string, T | null>();
  for (const [spelling, meaning] of entries) {
    const fold = confusionFold(spelling);
    found.set(fold, found.has(fold) && found.get(fold) !== meaning ? null : meaning);
  }
  return found;
}

const TEXT_RESULT_BY_FOLD = byConfusionFold([...TEXT_RESULT_WORDS].map((word) => [word, word] as const));

function textResultSpelling(word: string): string {
  if (TEXT_RESULT_WORDS.has(word) || !/^[A-Z0-9|!lo]{3,}$/.test(word) || !/[A-Z]/.test(word)) return word;
  return TEXT_RESULT_BY_FOLD.get(confusionFold(word)) ?? word;
}

const FLAG_BY_FOLD = byConfusionFold(Object.entries(vocabulary.flagWords.words as Record<string, ResultFlag>));

/**
 * A scanned flag cell read through the confusions: `1` or `l` for the `L` of a low value, `L0W` for
 * `LOW` (a flag column holds no digit); null when it reads as no one flag.
 */
export function scannedFlag(text: string): ResultFlag | null {
  return FLAG_BY_FOLD.get(confusionFold(text)) ?? null;
}

/** A stroke in a code, `!` too: `!` and `|` are in no word of a report. */
const CODE_STROKES = [...STROKES, '!'];

function labCodeSpelling(word: string): string {
  // A letter no stroke reads as, too: `|!` alone is a smear, not lab `11`.
  if (!/^[A-Z0-9|!]{2,4}$/.test(word) || !/[|!]/.test(word) || !/[A-HJKM-Z]/.test(word)) return word;
  let found = [''];
  for (const c of word) found = found.flatMap((prefix) => (CODE_STROKES.includes(c) ? CODE_STROKES : [c]).map((a) => prefix + a));
  const codes = found.filter(isLabCode);
  return codes.length === 1 ? codes[0]! : word;
}

/** A comma between digits that is followed by anything but exactly three digits: no thousands separator. */
const COMMA_NOT_THOUSANDS = /(?<=\d),(?=\d(?!\d\d(?!\d)))/g;
const RANGE_OF_TWO = /^([<>]?)(\d[\d.,]*)-(\d[\d.,]*)$/;

/** The word with the commas of its numbers that are points as points (see above). */
function pointsForCommas(word: string): string {
  if (!/\d,\d/.test(word) || !NUMBER_LIKE.test(word)) return word;
  const pointed = word.replace(COMMA_NOT_THOUSANDS, '.');
  const range = RANGE_OF_TWO.exec(pointed);
  if (!range) return pointed;
  const [sign, low, high] = [range[1]!, range[2]!, range[3]!];
  const asPoint = (bound: string, other: string) => (/\d\.\d/.test(other) && /^\d+,\d+$/.test(bound) ? bound.replace(',', '.') : bound);
  return `${sign}${asPoint(low, high)}-${asPoint(high, low)}`;
}

export function normaliseWord(text: string): string {
  let word = text.trim().replace(OPENING_MARKS, '');
  if (LONE_STROKES.test(word)) return '';
  if (/[\d/]/.test(word)) word = word.replace(CLOSING_MARKS, '').trimEnd();
  else if (TEXT_RESULT_WORDS.has(word.replace(CLOSING_QUOTES, '').toUpperCase())) word = word.replace(CLOSING_QUOTES, '');
  word = word.replace(GUILLEMET_SIGN, (c) => SIGN_FOR[c as keyof typeof SIGN_FOR]);
  if (/\d/.test(word) && NUMBER_LIKE.test(word)) word = pointsForCommas(word.replace(/[OolI@]/g, (c) => DIGIT_FOR[c as keyof typeof DIGIT_FOR]));
  word = word.replace(BOUND_OR_READ_0R, '$1OR$2');
  return labCodeSpelling(textResultSpelling(unitSpelling(word)));
}
