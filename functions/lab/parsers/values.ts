import type { ResultFlag, ResultOperator, ResultType } from '../results-schema';
import { isPrintedUnit } from '../ucum/to-ucum';

/**
 * Grammar of the cells of a result row: values (numeric, censored, text), flags, reference ranges in
 * every printed form, and units. Forms from docs/research/lab-extraction.md §1 and §6.4–6.6.
 */

const NUMBER = String.raw`[+-]?(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)`;
const NUMERIC = new RegExp(`^${NUMBER}$`);
/** `<`, `<=`, `< OR = `, `< or =`, `≤` and the `>` forms. */
const OPERATOR = String.raw`(<|>|≤|≥)\s*(=|\s*or\s*=)?`;
const CENSORED = new RegExp(`^${OPERATOR}\\s*(${NUMBER})$`, 'i');

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

/** Text results seen on Quest and Labcorp reports (research §6.4); any other text must look like one. */
const TEXT_RESULTS =
  /^(?:NEGATIVE|POSITIVE|NOT DETECTED|DETECTED|NON-?REACTIVE|REACTIVE|EQUIVOCAL|INDETERMINATE|BORDERLINE|ABSENT|PRESENT|NORMAL|ABNORMAL|YELLOW|PALE YELLOW|DARK YELLOW|STRAW|AMBER|ORANGE|RED|BROWN|COLORLESS|CLEAR|SLIGHTLY CLOUDY|CLOUDY|HAZY|TURBID|TRACE|SMALL|MODERATE|LARGE|FEW|RARE|MANY|OCCASIONAL|NONE SEEN|NONE|[1-4]\+|PATTERN [AB]|SEE NOTE:?|SEE BELOW|TNP|DNR|QNS|CANCELL?ED|NOT REPORTED:?|PENDING|IMMUNE|NON-?IMMUNE)$/i;

/** Flags printed after the value: Quest letters, Labcorp words. */
const FLAG_WORDS: Record<string, ResultFlag> = {
  H: 'H',
  L: 'L',
  HH: 'HH',
  LL: 'LL',
  A: 'A',
  AA: 'AA',
  HIGH: 'H',
  LOW: 'L',
  ABNORMAL: 'A',
  NORMAL: 'N',
  '(NORMAL)': 'N',
};

export function flagOf(token: string): ResultFlag | null {
  return FLAG_WORDS[token.toUpperCase()] ?? null;
}

/** Reads a critical marker (`Critical`, `Alert`, `Critical High`) into the critical flag of its direction. */
export function criticalFlag(text: string): ResultFlag | null {
  if (!/^(?:Critical|Alert|Panic)\b/i.test(text)) return null;
  if (/\bHigh\b/i.test(text)) return 'HH';
  if (/\bLow\b/i.test(text)) return 'LL';
  return 'AA';
}

export function parseValue(text: string): ParsedValue | null {
  const value = text.trim();
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
  if (TEXT_RESULTS.test(value)) return { resultValue: value, resultType: 'string', numeric: null };
  return null;
}

/**
 * Splits a value cell into value and flag: `32 L`, `128 High`, `POSITIVE A`, `12.0 Critical High`.
 * Returns null when the cell does not hold a value.
 */
export function parseValueAndFlag(text: string): { value: ParsedValue; flag: ResultFlag | null } | null {
  const cell = text.trim().replace(/\s+/g, ' ');
  const critical = /^(.*?)\s+((?:Critical|Alert|Panic)(?:\s+(?:High|Low))?)$/i.exec(cell);
  if (critical) {
    const value = parseValue(critical[1]!);
    return value ? { value, flag: criticalFlag(critical[2]!) } : null;
  }
  const whole = parseValue(cell);
  if (whole) return { value: whole, flag: null };
  const split = /^(.*\S)\s+(\S+)$/.exec(cell);
  if (!split) return null;
  const flag = flagOf(split[2]!);
  const value = flag ? parseValue(split[1]!) : null;
  return value && flag ? { value, flag } : null;
}

export interface ParsedRange {
  min: number | null;
  max: number | null;
  /** Whether a value equal to the bound is inside the range (`<200` excludes 200, `< OR = 20` includes 20). */
  minInclusive: boolean;
  maxInclusive: boolean;
  text: string;
}

const BETWEEN = new RegExp(`^(${NUMBER})\\s*[-–—]\\s*(${NUMBER})`);
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

/** A reference-interval cell on its own (Labcorp): `65-99`, `>59`, `Not Estab.`, `Negative`. */
export function parseRange(text: string): ParsedRange | null {
  const cell = text.trim().replace(/\s+/g, ' ');
  if (cell === '') return null;
  const leading = leadingRange(cell);
  if (leading && leading.length === cell.length) return leading.range;
  return textRange(cell);
}

/**
 * Quest's reference-range cell, which carries the unit: `65-99 mg/dL`, `> OR = 40 mg/dL`,
 * `mg/dL (calc)` (no range), `NEGATIVE`, `NONE SEEN /HPF`.
 */
export function splitRangeAndUnit(text: string): { range: ParsedRange | null; unit: string | null } {
  const cell = text.trim().replace(/\s+/g, ' ');
  if (cell === '') return { range: null, unit: null };
  const leading = leadingRange(cell);
  if (leading) {
    const rest = cell.slice(leading.length).trim();
    return { range: leading.range, unit: rest === '' ? null : rest };
  }
  if (isPrintedUnit(cell)) return { range: null, unit: cell };
  const words = cell.split(' ');
  for (let cut = 1; cut < words.length; cut++) {
    const unit = words.slice(cut).join(' ');
    if (isPrintedUnit(unit)) return { range: textRange(words.slice(0, cut).join(' ')), unit };
  }
  return { range: textRange(cell), unit: null };
}
