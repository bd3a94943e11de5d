import type { ParsedRange, ParsedValue } from '../parsers/values';
import type { ResultFlag } from '../results-schema';

/**
 * A whole number read from a scan where the print had a decimal point the image no longer shows: on
 * a 150-dpi scan of 7-pt type a point can be one pixel, below what `decimal-points.ts` may take for
 * one, so `1.2` beside the range `1.2-2.2` comes back `12`. The row gives it away: its range is
 * printed with points, the value lies outside it and no flag says so, and with a point put between
 * two of its digits the value lies inside. Such a reading is no value to give (a value missed is
 * better than a value wrong), and its row is left unread. A whole number outside a whole-number range
 * (`59`, `0-44`, no flag: reports print such values) is no sign of a lost point, nor is one that no
 * point brings into the range.
 */
export function lostItsPoint(value: ParsedValue, flag: ResultFlag | null, range: ParsedRange | null): boolean {
  if (flag !== null || range === null || value.resultType !== 'numeric' || !/^\d{2,}$/.test(value.resultValue)) return false;
  if (!/\d\.\d/.test(range.text)) return false;
  const { min, max, minInclusive, maxInclusive } = range;
  const inside = (x: number) => (min === null || (minInclusive ? x >= min : x > min)) && (max === null || (maxInclusive ? x <= max : x < max));
  const digits = value.resultValue;
  if (inside(Number(digits))) return false;
  for (let at = 1; at < digits.length; at++) if (inside(Number(`${digits.slice(0, at)}.${digits.slice(at)}`))) return true;
  return false;
}
