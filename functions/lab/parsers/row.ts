import { isKnownTestName } from '../loinc/map-to-loinc';
import { memoize } from '../memo';
import { agreement } from '../ocr/misread-point';
import { scannedFlag } from '../ocr/normalise-word';
import { isGarbledRange } from '../ocr/range-repair';
import { withLostEqualsSign } from '../ocr/range-text-spelling';
import { repairedTestName } from '../ocr/test-name-repair';
import { isUnitRespaced } from '../ocr/unit-spacing';
import type { ResultFlag } from '../results-schema';
import { isPrintedUnit } from '../ucum/to-ucum';
import { type Cell, cellsByColumn, cellText, splitCells, textsByRole, toCell } from './cells';
import { findDates } from './dates';
import type { Column } from './header';
import { isRecognised, type Line, UNREADABLE_OCR_CONFIDENCE, type Word } from './layout';
import {
  type ParsedRange,
  type ParsedValue,
  parseFlag,
  parseNumericRange,
  parsePrevious,
  parseRange,
  parseValueAndFlag,
  splitRangeAndUnit,
  type ValueAndFlag,
} from './values';
import { COMMENT, isLabCode, isTextResult, mayHoldValue, readsAsProse } from './vocabulary';

/**
 * One result row read from a line: by the columns of a header when there is one, else (or when the
 * columns do not explain the line) by the shapes of its cells — the name, then the value (with its
 * flag), then in any order the unit, the range, a previous result with its date and a lab code
 * (docs/research/generic-table-reading.md §2). A line is a row only if every cell is accounted for;
 * otherwise the reason it is not one is returned.
 */

export interface Row {
  name: string;
  value: ParsedValue;
  flag: ResultFlag | null;
  unit: string | null;
  range: ParsedRange | null;
  /** How the row was read: 1 from exact positions under a header, less for each estimate (see `confidence`). */
  confidence: number;
  /** Left edge of the value's cell (PDF units), and whether that position was measured, not estimated. */
  valueX: number;
  valueExact: boolean;
}

/**
 * Why a line inside a table is not a row. `range_without_value` only for a name the LOINC table knows:
 * a reference stratum under a row (`Follicular Phase  30-144 pg/mL`) prints a range without a value too.
 */
export type NotRowReason = 'no_value' | 'range_without_value' | 'unreadable_cell' | 'not_a_test_name';

export type RowReading = { row: Row } | { reason: NotRowReason };

/** More words than any printed test name (`HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES` has 9). */
const MAX_NAME_WORDS = 12;

/** Confidence lost when positions inside a text run were estimated, or the columns were read by shape. */
const ESTIMATE_PENALTY = 0.05;

export function isComment(text: string): boolean {
  return COMMENT.some((re) => re.test(text));
}

/**
 * Test names hold a letter, no colon and no comparison sign, and run to a few words: a sentence of
 * interpretive text whose last number lands under the value column is not a row.
 */
/** Marks no test name holds: a label's colon, a comparison. */
const NOT_IN_NAME = /[:<>=≤≥]/;

export const plausibleName = memoize(function plausibleName(name: string): boolean {
  return (
    /[A-Za-z]/.test(name) &&
    /^[A-Za-z0-9%(]/.test(name) &&
    // A name may open with a number joined to a word (`25-OH`, `17-Hydroxy`), never with a number alone (`100 Clinic Way`).
    !/^\d+(?:\s|$)/.test(name) &&
    !NOT_IN_NAME.test(name) &&
    !name.includes('[REDACTED]') &&
    name.split(' ').length <= MAX_NAME_WORDS &&
    !readsAsProse(name)
  );
});

/**
 * The printed name without a performing-lab number after it (Labcorp prints `Glucose 01`, the number
 * as a superscript): dropped when set smaller than the name, zero-padded, or when the name without it
 * is a test name the LOINC table knows and with it is not.
 */
function nameWords(words: readonly Word[]): Word[] {
  const last = words[words.length - 1];
  if (!last) return [];
  const scanned = last.confidence !== undefined;
  // A scanned name may be misread itself (`Hemoglobin Alc`): known as the table spells what it misreads.
  const isKnown = (name: string) => isKnownTestName(name) || (scanned && repairedTestName(name) !== null);
  const rest = words.slice(0, -1);
  const restName = rest.map((w) => w.text).join(' ');
  const withLast = (text: string) => (restName === '' ? text : `${restName} ${text}`);
  // A word cut to a letter or two is no evidence for the repairs' near spellings (`RDW D1` would be
  // `RDW-SD`): then only a name the table prints as read.
  const stemKnown = (text: string) => isKnownTestName(withLast(text)) || (text.length >= MIN_REPAIRED_STEM && isKnown(withLast(text)));
  const stem = scanned && !isKnown(withLast(last.text)) ? gluedLabNumberStem(last.text, stemKnown) : null;
  if (stem !== null) return [...rest, { ...last, text: stem }];
  if (words.length < 2) return [...words];
  const twoDigits = /^\d{2}$/.test(last.text);
  if (!twoDigits && !(scanned && SCANNED_LAB_NUMBER.test(last.text))) return [...words];
  const smaller = last.size < Math.max(...rest.map((w) => w.size)) - 1;
  const known = isKnown(restName) && !isKnown(`${restName} ${last.text}`);
  return smaller || (twoDigits && last.text.startsWith('0')) || known ? rest : [...words];
}

/**
 * What OCR reads a raised two-digit performing-lab number as (`01` set small above the name's
 * baseline): one or two of its digits, the marks its small glyphs come out as (`0`, `©`, `©!`, `@1`, `Oo!`),
 * or small letters (`om`, `oi`, `a1`, `m`). After a name it is taken for that number only where the
 * name without it is one the table knows and with it is not (`Cholesterol, Total 0`, `HDL Cholesterol
 * ©!`, `ALT (SGPT) om`), or it is set smaller. A test's own last word is a capital or a number
 * (`Hemoglobin A2`, `Troponin T`), which no rule here drops.
 */
const SCANNED_LAB_NUMBER = /^(?:[\d©@®Oo°!|'’`]{1,3}|[a-z][a-z\d]?)$/u;

/** What the same number reads as run into the name's last word, without a space (`Total?!`, `BUN!`, `TSHO!`, `Color01`, `Total”!`, `Alc®™`). */
const GLUED_LAB_NUMBER = /^[\dOo©@®°!|'’‘"”“`?™¢]{1,3}$/u;
/** Fewest characters left of a word whose lab number was cut off for the name to be known by a near spelling (`Alc` of `Hemoglobin Alc®™`). */
const MIN_REPAIRED_STEM = 3;

/** The name's last word without a lab number run into it, where that makes a name `known`; else null. */
function gluedLabNumberStem(word: string, known: (text: string) => boolean): string | null {
  for (let cut = 1; cut <= 3 && cut < word.length; cut++) {
    const stem = word.slice(0, -cut);
    if (GLUED_LAB_NUMBER.test(word.slice(-cut)) && known(stem)) return stem;
  }
  return null;
}

export function cleanName(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The printed name: the first line of a name wrapped above the value (`prefix`), then the name's words (no blanks in any). */
function fullNameOf(prefix: string, words: readonly Word[]): string {
  const name = cellText(nameWords(words));
  return prefix === '' ? name : cleanName(`${prefix} ${name}`);
}

/**
 * The name and the value of a row. A right-aligned text result of two words (`SEE NOTE`, `NOT
 * DETECTED`) can start left of its column, leaving its first word at the end of the name: such a word
 * moves to the value when the value then reads as a text result and either the name without it is a
 * test name the LOINC table knows (and the name with it is not), or the word only qualifies a text
 * result (`NOT` before `DETECTED`, `NON` before `REACTIVE`: no result alone, a result after it) and
 * the name with it is not one the table knows (`LDL PATTERN` / `A` stays).
 */
function nameAndValue(fullName: string, valueText: string): { name: string; parsed: ValueAndFlag } | null {
  const whole = plausibleName(fullName) ? parseValueAndFlag(valueText) : null;
  if (whole && isKnownTestName(fullName)) return { name: fullName, parsed: whole };
  const words = fullName.split(' ');
  for (let k = 1; k <= 2 && k < words.length; k++) {
    const name = words.slice(0, -k).join(' ');
    const movedWords = words.slice(-k).join(' ');
    const moved = parseValueAndFlag(`${movedWords} ${valueText}`);
    if (moved?.value.resultType !== 'string' || !plausibleName(name)) continue;
    const opensResult = isTextResult(`${movedWords} ${valueText}`) && isTextResult(valueText) && !isTextResult(movedWords) && parseValueAndFlag(movedWords) === null;
    if (isKnownTestName(name) || opensResult) return { name, parsed: moved };
  }
  return whole ? { name: fullName, parsed: whole } : null;
}

/**
 * A unit column holds a printed unit, or at most two short words a unit table may not know yet, none
 * a bare number (`cells/uL 1573` is a unit and the next column's value). A printed unit read with its
 * spaces misjudged is one too (`% oftotal Hgb`: ocr/unit-spacing.ts gives it back as printed).
 */
export function plausibleUnit(text: string): boolean {
  const words = text.split(' ');
  return isUnitRespaced(text) || (words.length <= 2 && text.length <= 16 && !/^[<>≤≥]|\d[-–]\d/.test(text) && !words.some((w) => /^\d+(?:\.\d+)?$/.test(w)));
}

/** Left edge of the first word in a value column. */
function valueStart(words: readonly Word[][], columns: readonly Column[]): number {
  const index = columns.findIndex((c, i) => c.role === 'value' && words[i]!.length > 0);
  return words[index]?.[0]?.x0 ?? 0;
}

/**
 * Whether a value read by shape sits under the header's value columns (estimated positions may miss by
 * a few points): a number under the range column is a reference stratum, not a result.
 */
function underValueColumns(row: Row, columns: readonly Column[]): boolean {
  const first = columns.findIndex((c) => c.role === 'value');
  let last = first;
  while (columns[last + 1]?.role === 'value') last++;
  const end = columns[last + 1]?.from ?? Number.POSITIVE_INFINITY;
  const slack = row.valueExact ? 0 : ESTIMATE_SLACK;
  return row.valueX >= columns[first]!.from - slack && row.valueX < end + slack;
}

/** Points an estimated position inside a text run may be off. */
const ESTIMATE_SLACK = 15;

/** Reads a line by a header's columns; `prefix` is the first line of a name wrapped above the value. */
function byColumns(line: Line, columns: readonly Column[], prefix: string): RowReading {
  const cells = cellsByColumn(splitCells(line, columns), columns);
  const nameIndex = columns.findIndex((c) => c.role === 'name');
  const fullName = fullNameOf(prefix, cells.words[nameIndex] ?? []);
  const byRole = textsByRole(cells.texts, columns);
  const valueText = byRole.value ?? '';
  const rangeText = isRecognised(line) ? withLostEqualsSign(byRole.range ?? '') : (byRole.range ?? '');
  if (valueText === '') return { reason: rangeText !== '' && isKnownTestName(fullName) ? 'range_without_value' : 'no_value' };
  const split = nameAndValue(fullName, valueText);
  if (!split) return { reason: plausibleName(fullName) ? 'unreadable_cell' : 'not_a_test_name' };
  let flag = split.parsed.flag;
  const flagText = byRole.flag ?? '';
  if (flagText !== '') {
    const printed = parseFlag(flagText) ?? (isRecognised(line) ? scannedFlag(flagText) : null);
    if (!printed) return { reason: 'unreadable_cell' };
    flag = printed;
  }
  // The performing lab's code and a previous result are not reported, and a scan garbles them (`01`
  // read `0` or `It`, `175 HH17/31/22`): on a recognised line such a cell costs the row nothing. On a
  // text page one that reads as neither says the columns are not where the header puts them.
  const lab = byRole.lab ?? '';
  if (lab !== '' && !isRecognised(line) && !lab.split(' ').every(isLabCode)) return { reason: 'unreadable_cell' };
  const previous = byRole.previous ?? '';
  if (previous !== '' && !isRecognised(line) && !parsePrevious(previous)) return { reason: 'unreadable_cell' };
  let unit: string | null = byRole.unit ?? null;
  // A unit cell of its own that the engine garbled (`6 of total Hgb`, its `%` read `6`) costs a scanned
  // row only its unit: given as read for the lab's printed units to mend (ocr/unit-repair.ts), and left
  // out where they do not (parsers/index.ts). On a text page it says the columns are not where the header puts them.
  if (unit !== null && !plausibleUnit(unit) && !isRecognised(line)) return { reason: 'unreadable_cell' };
  let range: ParsedRange | null = null;
  if (rangeText !== '') {
    const hasUnitColumn = columns.some((c) => c.role === 'unit');
    const split = hasUnitColumn ? { range: parseRange(rangeText), unit: null } : splitRangeAndUnit(rangeText);
    const readable =
      split !== null &&
      (split.unit === null || plausibleUnit(split.unit)) &&
      // A range read as text only that holds a bare number (`5.1`, `2.5-7.0 5.9`) took in the next column's value.
      !(split.range && split.range.min === null && split.range.max === null && /(?:^|\s)\d+(?:\.\d+)?(?:\s|$)/.test(split.range.text));
    if (readable) {
      range = split.range;
      unit ??= split.unit;
    } else if (!isRecognised(line) || (!hasUnitColumn && split === null)) {
      return { reason: 'unreadable_cell' };
    } else if (hasUnitColumn) {
      // A range cell of its own the engine garbled (`355.2` for `3.5-5.2`) costs a scanned row only its
      // range, given as read for the lab's printed ranges to mend (ocr/range-repair.ts) and left out
      // where they do not (parsers/index.ts).
      range = parseRange(rangeText);
    } else if (split !== null) {
      // So does a garbled range cell that carries the unit (Quest's `< OR = 39 pg/mL` read `< OR 3 9
      // pg/mL`): unit and bounds as read, to be mended or left out as above; a range read as text only
      // where it is digits and marks the printed ranges may mend, not words with a number among them.
      const read = split.range;
      range = read !== null && (read.min !== null || read.max !== null || isGarbledRange(read)) ? read : null;
      unit ??= split.unit;
    }
  }
  // Columns were told apart by an estimated position when a cell after the name starts inside a text run.
  const estimated = cells.words.some((words, i) => i !== nameIndex && words[0] !== undefined && !words[0].exact && !words[0].spaced);
  return {
    row: { name: split.name, value: split.parsed.value, flag, unit, range, confidence: estimated ? 1 - ESTIMATE_PENALTY : 1, valueX: valueStart(cells.words, columns), valueExact: true },
  };
}

interface Piece {
  value?: ValueAndFlag;
  flag?: ResultFlag;
  range?: ParsedRange;
  unit?: string;
  previous?: true;
  lab?: true;
}

/** What a span of a cell can be, after the value. */
const restPieces = memoize(function restPieces(text: string): Piece[] {
  const pieces: Piece[] = [];
  const flag = parseFlag(text);
  if (flag) pieces.push({ flag });
  const rangeUnit = rangeAndUnitPiece(text);
  if (rangeUnit) pieces.push(rangeUnit);
  if (isDatedPrevious(text)) pieces.push(PREVIOUS);
  if (!text.includes(' ') && isLabCode(text)) pieces.push({ lab: true });
  return pieces;
});

/**
 * What a span can be before the value: its range or unit only (a column order that prints them first).
 * Most spans read before a value are of lines that hold none: the other pieces are not asked of them.
 */
const leadingPieces = memoize(function leadingPieces(text: string): Piece[] {
  const rangeUnit = rangeAndUnitPiece(text);
  return rangeUnit ? [rangeUnit] : [];
});

/** A span read as a range, a unit, or both, or null. */
function rangeAndUnitPiece(text: string): Piece | null {
  const rangeUnit = splitRangeAndUnit(text, true);
  if (!rangeUnit || !(rangeUnit.range || rangeUnit.unit) || (rangeUnit.unit !== null && !plausibleUnit(rangeUnit.unit))) return null;
  const piece: Piece = {};
  if (rangeUnit.range) piece.range = rangeUnit.range;
  if (rangeUnit.unit) piece.unit = rangeUnit.unit;
  return piece;
}

const PREVIOUS: Piece = { previous: true };

/**
 * A previous result is a piece only with its date, and it ends with the date, its time or a zone or
 * AM/PM (a word of at most five letters): a text ending otherwise, or with no date in it, is spared the reading.
 */
function isDatedPrevious(text: string): boolean {
  const last = text.slice(text.lastIndexOf(' ') + 1);
  if (!/\d/.test(last) && !/^[A-Za-z.]{1,5}$/.test(last)) return false;
  return findDates(text).length > 0 && Boolean(parsePrevious(text)?.date);
}

/** What a span running over cells can be: only a previous result (its value in one cell, its date in the next). */
function crossingPieces(text: string): readonly Piece[] {
  return isDatedPrevious(text) ? [PREVIOUS] : [];
}

interface Parse {
  value: ValueAndFlag;
  /** Left edge of the cell the value starts in, and whether it is a measured (not estimated) position. */
  valueX: number;
  valueExact: boolean;
  flag: ResultFlag | null;
  range: ParsedRange | null;
  unit: string | null;
}

/** Whether any of `roles` (one letter each) is among the roles `used`. */
function takenAlready(roles: string, used: string): boolean {
  for (let k = 0; k < roles.length; k++) if (used.includes(roles[k]!)) return true;
  return false;
}

/** The tokens of cells, in order, each with the index of its cell. */
function tokensOf(cells: readonly Cell[]): Array<{ text: string; cell: number }> {
  return cells.flatMap((cell, c) => cell.text.split(' ').map((text) => ({ text, cell: c })));
}

/** Longest span (in words) of one role: `< OR = 13.5 umol/L` is five. */
const MAX_SPAN = 6;

/**
 * Parses the cells after the name: the value (with its flag; its unit and range may come before it),
 * then each span of a cell as one role, every role at most once, every word used. Only a previous
 * result (its value in one cell, its date in the next) may span cells. `failed`: the dead ends met so
 * far, shared by the readings of one line that differ only in where its name ends.
 */
function parseRest(cells: readonly Cell[], failed: Set<string>): Parse | null {
  const tokens = tokensOf(cells);
  interface Partial extends Omit<Parse, 'value'> {
    value: ValueAndFlag | null;
  }
  /** `used`: roles taken (v value, f flag, r range, u unit, p previous, l lab); `afterValue`: the last piece was the value. */
  const walk = (i: number, state: Partial, used: string, afterValue: boolean): Parse | null => {
    if (i === tokens.length) return state.value ? { ...state, value: state.value } : null;
    // Whether the rest from a position can parse depends only on the roles used, not on the values read.
    // Counted from the end, with the token there: the tails of the splits of one line are the same.
    const key = `${tokens.length - i}|${tokens[i]!.text}|${used}|${afterValue}`;
    if (failed.has(key)) return null;
    let text = '';
    for (let j = i + 1; j <= Math.min(tokens.length, i + MAX_SPAN); j++) {
      const crosses = tokens[j - 1]!.cell !== tokens[i]!.cell;
      // Only a previous result spans cells, and it follows the value.
      if (crosses && !state.value) break;
      text = j === i + 1 ? tokens[i]!.text : `${text} ${tokens[j - 1]!.text}`;
      if (!state.value) {
        const value = parseValueAndFlag(text);
        if (value) {
          const cell = cells[tokens[i]!.cell]!;
          const exact = cell.words[0]!.exact || cell.words[0]!.spaced;
          const found = walk(j, { ...state, value, valueX: cell.x0, valueExact: exact, flag: value.flag }, `${used}v${value.flag ? 'f' : ''}`, !value.flag);
          if (found) return found;
        }
      }
      // Before the value only its unit and range may stand (leadingPieces: a column order that prints them first).
      for (const piece of crosses ? crossingPieces(text) : state.value ? restPieces(text) : leadingPieces(text)) {
        const roles = `${piece.flag ? 'f' : ''}${piece.range ? 'r' : ''}${piece.unit ? 'u' : ''}${piece.previous ? 'p' : ''}${piece.lab ? 'l' : ''}`;
        if (takenAlready(roles, used)) continue;
        // A flag follows the value directly (`L` after a range is a unit, litres, never a flag).
        if (piece.flag && !afterValue) continue;
        const next: Partial = { ...state, flag: piece.flag ?? state.flag, range: piece.range ?? state.range, unit: piece.unit ?? state.unit };
        const found = walk(j, next, used + roles, false);
        if (found) return found;
      }
    }
    failed.add(key);
    return null;
  };
  return walk(0, { value: null, valueX: 0, valueExact: false, flag: null, range: null, unit: null }, '', false);
}

/** A row read by shapes from name words and the cells after them; `split`: the name cell was cut, which lowers confidence; `failed` as parseRest's. */
function shapedRow(prefix: string, name: Word[], others: readonly Cell[], split: boolean, failed: Set<string>): RowReading | null {
  const fullName = fullNameOf(prefix, name);
  if (!plausibleName(fullName) || isComment(fullName)) return null;
  const parse = others.length > 0 ? parseRest(others, failed) : null;
  if (!parse) return null;
  // With no header to say what the columns are, a bare value after an unknown name (`Springfield, IL 62701`) is not evidence enough.
  if (parse.unit === null && parse.range === null && parse.flag === null && !isKnownTestName(fullName)) return null;
  let confidence = 1 - ESTIMATE_PENALTY;
  if (split) confidence -= ESTIMATE_PENALTY;
  return { row: { name: fullName, value: parse.value.value, flag: parse.flag, unit: parse.unit, range: parse.range, confidence, valueX: parse.valueX, valueExact: parse.valueExact } };
}

/**
 * Whether a word after a line's first can be (part of) a value: a reading as a row needs one, the
 * name's first word being no value. Most prose and labels hold none.
 */
export function valueAfterFirstWord(line: Line): boolean {
  return (
    splitCells(line).some((cell, c) => cell.text.split(' ').some((token, t) => (c > 0 || t > 0) && mayHoldValue(token))) ||
    line.words.slice(1).some((w) => mayHoldValue(w.text))
  );
}

/**
 * Whether a span ending the last word of `cells` (the name cell and the cells after it) is a piece a
 * reading by shapes can end with: a value, flag, range, unit, previous result or lab code. parseRest
 * uses every word, so without one no cut of the name makes a row. The spans are those of every cut:
 * a cut after a word joined to the one before it (glyph runs) would make a token not seen here, so
 * such a name cell is not told.
 */
function endsWithPiece(cells: readonly Cell[]): boolean {
  if (cells[0]!.text.split(' ').length !== cells[0]!.words.length) return true;
  const tokens = tokensOf(cells);
  const last = tokens.length - 1;
  let text = '';
  for (let i = last; i >= 0 && i > last - MAX_SPAN; i--) {
    text = i === last ? tokens[i]!.text : `${tokens[i]!.text} ${text}`;
    const crosses = tokens[i]!.cell !== tokens[last]!.cell;
    if (crosses ? crossingPieces(text).length > 0 : parseValueAndFlag(text) !== null || restPieces(text).length > 0) return true;
  }
  return false;
}

/**
 * Reads a line by the shapes of its cells: the name is the first cell (or, when the columns are not
 * set apart, the shortest leading run of words after which the rest parses).
 */
function byShape(line: Line, prefix: string): RowReading {
  let cells = splitCells(line);
  // A performing-lab number right after the name (Labcorp: superscript `01`) belongs to no column.
  const first = cells[0];
  if (!first) return { reason: 'no_value' };
  let rest = cells.slice(1);
  if (rest[0] && /^\d{2}$/.test(rest[0].text) && (rest[0].words[0]!.size < line.size - 1 || rest[0].text.startsWith('0')) && rest.length > 1) {
    rest = rest.slice(1);
  }
  // Every reading uses every word up to the line's end (a sentence ends in words no piece is made of).
  const readable = valueAfterFirstWord(line) && endsWithPiece([first, ...rest]);
  const failed = new Set<string>();
  const whole = readable ? shapedRow(prefix, first.words, rest, false, failed) : null;
  if (whole) return whole;
  // The name cell may hold the value too (single-spaced text, a tight gap): split it where the rest parses,
  // before the last word that can hold a value (when no later cell can) and while the name can still be one.
  const words = first.words;
  const restHoldsValue = rest.some((cell) => cell.text.split(' ').some(mayHoldValue));
  const end = restHoldsValue ? words.length - 1 : words.findLastIndex((w) => mayHoldValue(w.text));
  for (let k = 1; readable && k <= end; k++) {
    const name = words.slice(0, k);
    if (name.length > MAX_NAME_WORDS || NOT_IN_NAME.test(name[k - 1]!.text)) break;
    const reading = shapedRow(prefix, name, [toCell(words.slice(k)), ...rest], true, failed);
    if (reading) return reading;
  }
  cells = [toCell(words), ...rest];
  const onlyRange = rest.length > 0 && rest.every((c) => parseNumericRange(c.text) !== null || isPrintedUnit(c.text) || splitRangeAndUnit(c.text, true) !== null);
  if (onlyRange && isKnownTestName(cleanName(`${prefix} ${first.text}`))) return { reason: 'range_without_value' };
  if (rest.some((c) => parseValueAndFlag(c.text) !== null || isTextResult(c.text))) return { reason: 'unreadable_cell' };
  return { reason: cells.length > 1 ? 'not_a_test_name' : 'no_value' };
}

/**
 * Reads a line as a result row: by the header's columns when there are any, else by the shapes of its
 * cells. Under a header the shapes decide only where the columns could not: a cell that is not what its
 * column holds, or positions estimated inside a text run. A header that says the value column is empty
 * is believed (`Postmenopausal  < OR = 31 pg/mL` under a row is a reference stratum, not a result).
 */
export function readRow(line: Line, columns: readonly Column[] | null, prefix = ''): RowReading {
  // The table reader asks about a line several times (indent, titles, the line itself): read it once.
  // A few readings per line (columns × name prefix): a list is found faster than maps are made.
  let known = readings.get(line);
  if (!known) {
    known = [];
    readings.set(line, known);
  }
  for (const entry of known) if (entry.columns === columns && entry.prefix === prefix) return entry.reading;
  const reading = readRowOnce(line, columns, prefix);
  known.push({ columns, prefix, reading });
  return reading;
}

const readings = new WeakMap<Line, Array<{ columns: readonly Column[] | null; prefix: string; reading: RowReading }>>();

/**
 * The line without the one word OCR could not read (its own confidence under half), or null when it has
 * none, or more than one: two unread words on one line leave too little to tell its cells apart.
 */
function withoutUnreadWord(line: Line): { line: Line; unread: Word } | null {
  const unread = line.words.filter((word) => (word.confidence ?? 1) < UNREADABLE_OCR_CONFIDENCE);
  if (unread.length !== 1 || unread[0] === line.words[0]) return null;
  const words = line.words.filter((word) => word !== unread[0]);
  return { line: { ...line, words, text: words.map((w) => w.text).join(' ') }, unread: unread[0]! };
}

function readRowOnce(line: Line, columns: readonly Column[] | null, prefix: string): RowReading {
  const reading = readWholeLine(line, columns, prefix);
  if ('row' in reading) return reading;
  // A word the engine could not read (`gh` for `High`, a lab code, a range it lost the points of) after
  // the value costs the row nothing but that cell: the row keeps its value, the word's cell stays empty,
  // and the result carries the word's confidence (flagged to check, index.ts). Never the value itself:
  // without it another number would be taken for the value, and that reading is refused.
  const rest = withoutUnreadWord(line);
  if (!rest) return reading;
  const without = readWholeLine(rest.line, columns, prefix);
  if (!('row' in without) || rest.unread.x0 <= without.row.valueX) return reading;
  return { row: withUnreadFlag(without.row, rest.unread, line) };
}

/** Farthest a flag stands after its value, in font sizes: a space or two, not the next column. */
const FLAG_GAP = 1.5;

/**
 * The row with the flag an unread word right after its value stands for, where the word reads as a
 * flag through OCR's confusions (`1` for `L`: ocr/normalise-word.ts `scannedFlag`) and the row's value
 * lies where that flag says against its range (`Creatinine 0.72 1` beside `0.76-1.27` is flagged `L`);
 * the row as it is otherwise, its flag unread.
 */
function withUnreadFlag(row: Row, unread: Word, line: Line): Row {
  const flag = scannedFlag(unread.text);
  if (row.flag !== null || flag === null || row.range === null || row.value.resultType !== 'numeric') return row;
  const at = line.words.indexOf(unread);
  const value = line.words[at - 1];
  if (value === undefined || Math.abs(value.x0 - row.valueX) > 0.5 || unread.x0 - value.x1 > FLAG_GAP * value.size) return row;
  return agreement(flag, row.range)?.(Number(row.value.resultValue)) ? { ...row, flag } : row;
}

function readWholeLine(line: Line, columns: readonly Column[] | null, prefix: string): RowReading {
  if (!columns) return byShape(line, prefix);
  const reading = byColumns(line, columns, prefix);
  if ('row' in reading) return reading;
  const estimated = line.words.some((w) => !w.exact && !w.spaced);
  if (reading.reason !== 'unreadable_cell' && !estimated) return reading;
  // A line's shapes do not depend on the columns: read once for every header that falls back to them.
  const shaped = readRow(line, null, prefix);
  return 'row' in shaped && underValueColumns(shaped.row, columns) ? shaped : reading;
}

/** The row a line holds, or null. */
export function rowOf(line: Line, columns: readonly Column[] | null, prefix = ''): Row | null {
  const reading = readRow(line, columns, prefix);
  return 'row' in reading ? reading.row : null;
}
