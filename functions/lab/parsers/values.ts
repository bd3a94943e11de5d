import { memoize } from '../memo';
import { isUnitRespaced } from '../ocr/unit-spacing';
import type { ResultFlag, ResultOperator, ResultType } from '../results-schema';
import { isPrintedUnit } from '../ucum/to-ucum';
import { isDateText } from './dates';
import { CRITICAL_WORD, criticalFlag, flagOf, isTextResult } from './vocabulary';

/**
 * Grammar of the cells of a result row: values (numeric, censored, text), flags, reference ranges in
 * every printed form, units and previous results. Forms from docs/research/lab-extraction.md §1 and
 * §6.4–6.6; the words themselves are in the vocabulary (data/lab/report-vocabulary.json).
 */

const NUMBER = String.raw`[+-]?(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)`;
const NUMERIC = new RegExp(`^${NUMBER}$`);
/** `<`, `<=`, `< OR = `, `< or =`, `≤` and the `>` forms. */
const OPERATOR = String.raw`(<|>|≤|≥)\s*(=|\s*or\s*=)?`;
const CENSORED = new RegExp(`^${OPERATOR}\\s*(${NUMBER})$`, 'i');
/** A titre (`1:80`, `<1:40`) is reported as text: it is a dilution, not a number. */
const TITRE = /^[<>]?\s*1\s*:\s*\d+$/;

export interface ParsedValue {
  resultValue: string;
  resultType: ResultType;
  resultOperator?: ResultOperator;
  /** The number, for numeric and censored values. */
  numeric: number | null;
}

export function toNumber(text: string): number {
  return Number(text.replace(/,/g, ''));
}

function operatorOf(sign: string, orEqual: string | undefined): ResultOperator {
  const less = sign === '<' || sign === '≤';
  const inclusive = Boolean(orEqual) || sign === '≤' || sign === '≥';
  return less ? (inclusive ? '<=' : '<') : inclusive ? '>=' : '>';
}

export function parseValue(text: string): ParsedValue | null {
  const value = text.trim().replace(/\s+/g, ' ');
  if (value === '') return null;
  if (NUMERIC.test(value)) return { resultValue: value, resultType: 'numeric', numeric: toNumber(value) };
  const censored = CENSORED.exec(value);
  if (censored) {
    return {
      resultValue: value,
      resultType: 'range',
      resultOperator: operatorOf(censored[1]!, censored[2]),
      numeric: toNumber(censored[3]!),
    };
  }
  if (isTextResult(value) || TITRE.test(value)) return { resultValue: value, resultType: 'string', numeric: null };
  return null;
}

export interface ValueAndFlag {
  value: ParsedValue;
  flag: ResultFlag | null;
}

/** A flag cell on its own: `H`, `High`, `Critical High`, `(Normal)`. */
export const parseFlag = memoize(function parseFlag(text: string): ResultFlag | null {
  const cell = text.trim().replace(/\s+/g, ' ');
  return flagOf(cell) ?? criticalFlag(cell);
});

/** A letter flag against a number or censored value (`6.0H`, `<0.01L`); the abnormal mark against a text result (`TRACEA`), a speck's point between (`REACTIVE.A`). */
const ATTACHED_FLAG = /^(.*\d)(HH|LL|H|L)$/;
const ATTACHED_MARK = /^(.*?)[.,]?(A)$/;

/**
 * Splits a value cell into value and flag: `32 L`, `128 High`, `POSITIVE A`, `12.0 Critical High`,
 * `6.0H`. Returns null when the cell does not hold a value.
 */
export const parseValueAndFlag = memoize(function parseValueAndFlag(text: string): ValueAndFlag | null {
  const cell = text.trim().replace(/\s+/g, ' ');
  const critical = /^(.*?)\s+((?:Critical|Alert|Panic)(?:\s+(?:High|Low))?)$/i.exec(cell);
  if (critical && CRITICAL_WORD.test(critical[2]!)) {
    const value = parseValue(critical[1]!);
    return value ? { value, flag: criticalFlag(critical[2]!) } : null;
  }
  const whole = parseValue(cell);
  if (whole) return { value: whole, flag: null };
  const split = /^(.*\S)\s+(\S+)$/.exec(cell);
  if (split) {
    const flag = flagOf(split[2]!);
    const value = flag ? parseValue(split[1]!) : null;
    if (value && flag) return { value, flag };
  }
  // A letter flag printed against the value, as some producers draw it and OCR reads a narrow gap
  // (`6.0H`, `32L`, `<0.01L`), or the abnormal mark against a text result (`TRACEA`, `FEWA`).
  const attached = ATTACHED_FLAG.exec(cell);
  const number = attached ? parseValue(attached[1]!) : null;
  if (number && number.resultType !== 'string') return { value: number, flag: flagOf(attached![2]!) };
  const marked = ATTACHED_MARK.exec(cell);
  const textResult = marked ? parseValue(marked[1]!) : null;
  if (textResult && textResult.resultType === 'string') return { value: textResult, flag: flagOf(marked![2]!) };
  return null;
});

export interface ParsedRange {
  min: number | null;
  max: number | null;
  /** Whether a value equal to the bound is inside the range (`<200` excludes 200, `< OR = 20` includes 20). */
  minInclusive: boolean;
  maxInclusive: boolean;
  text: string;
}

const BETWEEN = new RegExp(`^(${NUMBER})\\s*(?:[-–—]|to)\\s*(${NUMBER})`, 'i');
const BOUND = new RegExp(`^${OPERATOR}\\s*(${NUMBER})`, 'i');
const NOT_ESTABLISHED = /^Not Estab(?:\.|lished)?/i;

/** Numeric range at the start of `text`, and how many characters it took. */
function leadingRange(text: string): { range: ParsedRange; length: number } | null {
  const between = BETWEEN.exec(text);
  if (between) {
    return {
      range: { min: toNumber(between[1]!), max: toNumber(between[2]!), minInclusive: true, maxInclusive: true, text: between[0] },
      length: between[0].length,
    };
  }
  const bound = BOUND.exec(text);
  if (bound) {
    const operator = operatorOf(bound[1]!, bound[2]);
    const limit = toNumber(bound[3]!);
    const inclusive = operator.endsWith('=');
    const range: ParsedRange = operator.startsWith('<')
      ? { min: null, max: limit, minInclusive: true, maxInclusive: inclusive, text: bound[0] }
      : { min: limit, max: null, minInclusive: inclusive, maxInclusive: true, text: bound[0] };
    return { range, length: bound[0].length };
  }
  const notEstablished = NOT_ESTABLISHED.exec(text);
  if (notEstablished) {
    return { range: { min: null, max: null, minInclusive: true, maxInclusive: true, text: notEstablished[0] }, length: notEstablished[0].length };
  }
  return null;
}

function textRange(text: string): ParsedRange {
  return { min: null, max: null, minInclusive: true, maxInclusive: true, text };
}

/** A numeric range cell on its own, with nothing after it: `65-99`, `>59`, `< OR = 20`, `Not Estab.`. */
export const parseNumericRange = memoize(function parseNumericRange(text: string): ParsedRange | null {
  const cell = text.trim().replace(/\s+/g, ' ');
  const leading = leadingRange(cell);
  return leading && leading.length === cell.length ? leading.range : null;
});

/** A reference-interval cell in a range column: a numeric range, else the printed text (`Negative`). */
export function parseRange(text: string): ParsedRange | null {
  const cell = text.trim().replace(/\s+/g, ' ');
  if (cell === '') return null;
  return parseNumericRange(cell) ?? textRange(cell);
}

export type RangeAndUnit = { range: ParsedRange | null; unit: string | null };

/**
 * A reference-range cell that may carry the unit (Quest): `65-99 mg/dL`, `> OR = 40 mg/dL`,
 * `mg/dL (calc)` (no range), `NEGATIVE`, `NONE SEEN /HPF`. `strict` (no range column said so) accepts
 * a text range only when it is a text result (`NEGATIVE`), never arbitrary words.
 */
function readRangeAndUnit(text: string, strict: boolean): RangeAndUnit | null {
  const cell = text.trim().replace(/\s+/g, ' ');
  if (cell === '') return { range: null, unit: null };
  const leading = leadingRange(cell);
  if (leading) {
    const rest = cell.slice(leading.length).trim();
    if (rest === '') return { range: leading.range, unit: null };
    if (!strict || isUnitRespaced(rest)) return { range: leading.range, unit: rest };
    return null;
  }
  if (isPrintedUnit(cell)) return { range: null, unit: cell };
  const words = cell.split(' ');
  for (let cut = 1; cut < words.length; cut++) {
    const unit = words.slice(cut).join(' ');
    const rangeText = words.slice(0, cut).join(' ');
    if ((!strict || isTextResult(rangeText)) && isPrintedUnit(unit)) return { range: textRange(rangeText), unit };
  }
  if (strict && !isTextResult(cell)) return null;
  return { range: textRange(cell), unit: null };
}

export interface PreviousResult {
  value: ParsedValue | null;
  date: string | null;
}

/** A previous-result cell: `227.0 H 10/10/2024`, `45 01/02/2024`, `<5.0`, or the date alone. */
export const parsePrevious = memoize(function parsePrevious(text: string): PreviousResult | null {
  // A producer that sets the date right against the flag leaves no space for pdf.js to find (`Abnormal01/06/2025`).
  const cell = text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/([A-Za-z)])(\d{1,2}\/\d{1,2}\/\d{2,4})$/, '$1 $2');
  if (cell === '') return null;
  if (isDateText(cell)) return { value: null, date: cell };
  const dated = /^(.*\S)\s+(\S+(?:\s+\S+){0,2})$/.exec(cell);
  const parts = cell.split(' ');
  for (let words = 3; words >= 1 && dated; words--) {
    const date = parts.slice(-words).join(' ');
    if (!isDateText(date)) continue;
    const value = parseValueAndFlag(parts.slice(0, -words).join(' '));
    if (value) return { value: value.value, date };
  }
  const value = parseValueAndFlag(cell);
  return value ? { value: value.value, date: null } : null;
});

const looseRangeAndUnit = memoize((text: string) => readRangeAndUnit(text, false));
const strictRangeAndUnit = memoize((text: string) => readRangeAndUnit(text, true));

export function splitRangeAndUnit(text: string, strict = false): RangeAndUnit | null {
  return strict ? strictRangeAndUnit(text) : looseRangeAndUnit(text);
}
