import type { ParsedRange, ParsedValue } from '../parsers/values';
import type { ResultFlag } from '../results-schema';

/**
 * A number read from a scan with its decimal point lost or a speck taken for one. On a 150-dpi scan of
 * 7-pt type a point can be one pixel, below what `decimal-points.ts` may take for one, so `1.2` beside
 * the range `1.2-2.2` comes back `12`; and a speck between two digits reads as a point (`119` as
 * `11.9`). The row gives it away: what it prints about the value contradicts the reading, and the
 * reading with the point put back or taken out agrees with it.
 * - What the row prints: no flag says the value lies inside its range; `L` or `LL` below it, `H` or
 *   `HH` above it (other flags say nothing about where the value lies, and leave it as read).
 * - A point lost: a whole number of two digits or more, beside a range printed with points, that a
 *   point between two of its digits brings into agreement (`12` beside `1.2-2.2`; `85` flagged `L`
 *   beside `8.7-10.2`).
 * - A point gained: a number with one point, beside a range printed in whole numbers, that agrees
 *   without it (`11.9` unflagged beside `44-121`).
 * - A point lost beyond the row's scale: a whole number flagged high that agrees with its flag as read,
 *   but stands over ten times the upper bound of a range printed with points, where a point between
 *   its digits brings it within that scale and still above the range (a fax's Potassium `54` flagged `H`
 *   beside `3.5-5.2`, printed `5.4`). Labs print a test's values to its range's precision, so a whole
 *   number there lost its point; a value that high is printed with its point (`45.0` beside `0.0-4.9`).
 * - Decimals lost: a whole number beside a range whose two bounds are printed with points, whatever its
 *   flag (a fax's Albumin `4.7` read `4` beside `3.8-4.9`, a thin Courier's `.7` too faint to read).
 *   Labs print a test's values to its range's precision (Quest and Labcorp alike: none of ~4,000 results
 *   of the rendering generator's reports, drawn from their layouts, is otherwise), so a whole number
 *   there lost its point, or its point and the digits after it.
 * Such a reading is no value to give (a value missed is better than a value wrong), and its row is left
 * unread, unless the point can be put back for sure (`restoredPoint`). A whole number outside a
 * whole-number range (`59`, `0-44`, no flag: reports print such values) is no sign of a lost point.
 */

const BELOW: readonly ResultFlag[] = ['L', 'LL'];
const ABOVE: readonly ResultFlag[] = ['H', 'HH'];

/** Whether a value agrees with what its row prints: inside its range unflagged, below it flagged low, above it flagged high; null where the flag says nothing of that. */
export function agreement(flag: ResultFlag | null, range: ParsedRange): ((x: number) => boolean) | null {
  const { min, max, minInclusive, maxInclusive } = range;
  const aboveMin = (x: number) => min === null || (minInclusive ? x >= min : x > min);
  const belowMax = (x: number) => max === null || (maxInclusive ? x <= max : x < max);
  if (flag === null) return (x) => aboveMin(x) && belowMax(x);
  if (BELOW.includes(flag)) return min === null ? null : (x) => !aboveMin(x);
  if (ABOVE.includes(flag)) return max === null ? null : (x) => !belowMax(x);
  return null;
}

/** The reading with a point put in at each place between its digits (`123`: `1.23`, `12.3`). */
function pointedReadings(read: string): string[] {
  return Array.from({ length: read.length - 1 }, (_, i) => `${read.slice(0, i + 1)}.${read.slice(i + 1)}`);
}

/** Whether a range is printed with points (`1.2-2.2`; not `44-121`). */
const isPointedRange = (range: ParsedRange) => /\d\.\d/.test(range.text);

/** The readings with a point put back that agree with the row, for a whole number its row contradicts beside a range printed with points. */
function agreeingPointed(read: string, agrees: (x: number) => boolean, range: ParsedRange): string[] {
  if (!/^\d{2,}$/.test(read) || !isPointedRange(range)) return [];
  return pointedReadings(read).filter((pointed) => agrees(Number(pointed)));
}

/** A whole number over this many times its pointed range's upper bound, flagged high, lost its point (above). */
const BEYOND_SCALE = 10;

/**
 * For a whole number flagged high beyond the scale of its pointed range, where a point put back brings
 * it within that scale, the readings with a point put back that agree with the flag (all of them: where
 * two do, nothing says which was printed); none for any other reading.
 */
function pointedBeyondScale(read: string, flag: ResultFlag | null, range: ParsedRange): string[] {
  if (flag === null || !ABOVE.includes(flag) || range.max === null || range.max <= 0 || Number(read) <= BEYOND_SCALE * range.max) return [];
  const agreeing = agreeingPointed(read, agreement(flag, range)!, range);
  return agreeing.some((pointed) => Number(pointed) <= BEYOND_SCALE * range.max!) ? agreeing : [];
}

/** Whether both bounds of a two-sided range are printed with points (`3.8-4.9`, `6.0 - 8.5`; not `0.5-10`, `<5.7` or `65-99`). */
const isPointedBothSides = (range: ParsedRange) => /^\s*\d+\.\d+\s*-\s*\d+\.\d+\s*$/.test(range.text);

export function misreadPoint(value: ParsedValue, flag: ResultFlag | null, range: ParsedRange | null): boolean {
  if (range === null || value.resultType !== 'numeric') return false;
  const read = value.resultValue;
  if (/^\d+$/.test(read) && isPointedBothSides(range)) return true;
  const agrees = agreement(flag, range);
  if (agrees === null) return false;
  if (agrees(Number(read))) return pointedBeyondScale(read, flag, range).length > 0;
  if (agreeingPointed(read, agrees, range).length > 0) return true;
  return /^\d+\.\d+$/.test(read) && !isPointedRange(range) && agrees(Number(read.replace('.', '')));
}

/** Digits after the point of the range's most precise bound (`0.57-1.00`: 2; `> OR = 40`: 0). */
function rangeDecimals(range: ParsedRange): number {
  return Math.max(0, ...[...range.text.matchAll(/\d\.(\d+)/g)].map((m) => m[1]!.length));
}

/**
 * The reading with its lost point put back, where that is sure: the engine was sure of the digits (the
 * caller says so: the point alone was too faint to see), one place of the point and no other brings the
 * reading into agreement with its row, and there the value has as many digits after its point as the
 * range's bounds (labs print a test's values and range to one precision: `22` beside `1.2-2.2` is
 * `2.2`). Null otherwise, and for a point a speck made: a range read in whole numbers may be one whose
 * points were lost too (`75-125` for `7.5-12.5`), so taking a point out has nothing sure to go by.
 */
export function restoredPoint(value: ParsedValue, flag: ResultFlag | null, range: ParsedRange | null): string | null {
  if (range === null || value.resultType !== 'numeric') return null;
  const agrees = agreement(flag, range);
  if (agrees === null) return null;
  const agreeing = agrees(Number(value.resultValue)) ? pointedBeyondScale(value.resultValue, flag, range) : agreeingPointed(value.resultValue, agrees, range);
  if (agreeing.length !== 1) return null;
  const pointed = agreeing[0]!;
  return pointed.length - pointed.indexOf('.') - 1 === rangeDecimals(range) ? pointed : null;
}
