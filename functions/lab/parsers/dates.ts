import { memoize } from '../memo';

/**
 * Dates as US lab reports print them (docs/research/generic-table-reading.md §4): `MM/DD/YYYY`,
 * `M/D/YY`, `MM-DD-YYYY`, `YYYY-MM-DD` (older Labcorp portal), `Sep 25, 2024`, `25-Sep-2024`, each
 * with or without a time and zone. Two-digit years follow POSIX `%y`: 69–99 are 19xx, 00–68 are 20xx.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAME = String.raw`(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?`;

interface DateForm {
  pattern: RegExp;
  /** Year, month, day from a match. */
  parts(m: RegExpExecArray): [number, number, number];
}

function year(text: string): number {
  const n = Number(text);
  if (text.length === 4) return n;
  return n >= 69 ? 1900 + n : 2000 + n;
}

function month(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

/** Numeric forms need a digit, a slash or dash, a digit; named forms a month's name (`hint`: tested first, it is cheaper than the form). */
const NUMERIC_HINT = /\d[/-]\d/;
const MONTH_HINT = /Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec/i;

const FORMS: readonly (DateForm & { hint: RegExp })[] = [
  { hint: NUMERIC_HINT, pattern: /(?<![\d/.-])(\d{4})-(\d{1,2})-(\d{1,2})(?![\d/-])/g, parts: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  { hint: NUMERIC_HINT, pattern: /(?<![\d/.-])(\d{4})\/(\d{1,2})\/(\d{1,2})(?![\d/-])/g, parts: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  { hint: NUMERIC_HINT, pattern: /(?<![\d/.-])(\d{1,2})[/-](\d{1,2})[/-](\d{4}|\d{2})(?![\d/-])/g, parts: (m) => [year(m[3]!), Number(m[1]), Number(m[2])] },
  { hint: MONTH_HINT, pattern: new RegExp(String.raw`\b${MONTH_NAME}\s+(\d{1,2}),?\s+(\d{4})\b`, 'gi'), parts: (m) => [Number(m[3]), month(m[1]!), Number(m[2])] },
  { hint: MONTH_HINT, pattern: new RegExp(String.raw`\b(\d{1,2})[\s-]${MONTH_NAME}[\s-](\d{4}|\d{2})\b`, 'gi'), parts: (m) => [year(m[3]!), month(m[2]!), Number(m[1])] },
];

function iso(y: number, m: number, d: number): string | null {
  if (y < 1900 || y > 2199 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export interface FoundDate {
  /** YYYY-MM-DD */
  date: string;
  index: number;
  length: number;
}

/** Every date in `text`, in reading order. */
export const findDates = memoize(function findDates(text: string): FoundDate[] {
  const found: FoundDate[] = [];
  if (!/\d/.test(text)) return found;
  for (const form of FORMS) {
    if (!form.hint.test(text)) continue;
    for (const m of text.matchAll(form.pattern)) {
      const date = iso(...form.parts(m as RegExpExecArray));
      const overlaps = found.some((f) => m.index! < f.index + f.length && f.index < m.index! + m[0].length);
      if (date && !overlaps) found.push({ date, index: m.index!, length: m[0].length });
    }
  }
  return found.sort((a, b) => a.index - b.index);
});

/** The first date in `text` as YYYY-MM-DD, or null. */
export function firstDate(text: string): string | null {
  return findDates(text)[0]?.date ?? null;
}

/** Whether the whole text is one date, with an optional time and zone (`2024-09-25 06:21:00 PST`). */
export function isDateText(text: string): boolean {
  const dates = findDates(text);
  if (dates.length !== 1) return false;
  const rest = (text.slice(0, dates[0]!.index) + text.slice(dates[0]!.index + dates[0]!.length)).trim();
  return rest === '' || TIME_AND_ZONE.test(rest);
}

/** `06:21`, `06:21:00`, `03:32 PM`, `0621`, each with an optional zone (`PST`, `ET`, `UTC`, `Local`). */
export const TIME_AND_ZONE = /^(?:(?:\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]\.?M\.?)?|\d{4})(?:\s+(?:[A-Z]{1,4}T|UTC|GMT|Z|Local))?|[A-Z]{1,4}T|UTC|Local)$/i;

/**
 * True when the text holds a date that cannot be US formatted: a slash or dash date whose first part
 * is a day above 12 (DD/MM/YYYY), or a dotted DD.MM.YYYY date.
 */
export function hasNonUsDate(text: string): boolean {
  for (const m of text.matchAll(/(?<![\d/.-])(\d{1,2})[/-](\d{1,2})[/-](\d{4}|\d{2})(?![\d/-])/g)) {
    const first = Number(m[1]);
    const second = Number(m[2]);
    if (first > 12 && first <= 31 && second >= 1 && second <= 12) return true;
  }
  for (const m of text.matchAll(/\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/g)) {
    if (Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[1]) >= 1 && Number(m[1]) <= 31) return true;
  }
  return false;
}
