import type { StoredLabRange } from '../../reference/build/lab-ranges';
import { toNumber } from '../parsers/values';
import type { PanelResult } from '../results-schema';

/**
 * A scanned value far outside the range printed beside it, on a row the lab did not flag, is a
 * misreading: a lab flags every value outside its range (`H`, `L`, `A`), and the reading contradicts
 * the row. Tesseract reads a `7` as a `1` (`PROTEIN, TOTAL 1.7` for 7.7 beside 6.1-8.1, `PH 1.3` for
 * 7.3), loses or adds a point (`A/G Ratio 22` for 2.2, `MCHC 358`), or a leading digit (`EGFR 1` for
 * 81 beside >59), sure of itself as often as not (`1.6` at 0.90). Such a row is left unread: a missed
 * value is better than a wrong one.
 *
 * A row that prints no range (some reports give a value, a flag and a unit only) is judged against the
 * ranges labs print for the test (`usualRange`: the widest of Quest's and Labcorp's in
 * data/reference/lab-ranges.json), where those are known for either sex: the unflagged `Globulin, Total
 * 27 g/dL` of a blurred Times 8-point scan, for 2.7, lies far outside any globulin range a lab prints.
 *
 * "Far" is beyond twice the upper bound or under half the lower one. Nearer, a value with no flag is
 * more likely a flag the scan lost, or a last digit misread: it is given, and validation flags the
 * contradiction (`flag_inconsistent_with_range`). A value far out whose flag was read (`358 H`) is
 * given as read; so is one on a text page, where nothing was misread.
 */

/** How many times beyond its range's bound an unflagged scanned value must lie to contradict its row. */
const REACH = 2;

export interface RangeBounds {
  min: number | null;
  max: number | null;
}

/**
 * The widest of the ranges labs print for a test in unit `ucumCode` (`printed`: its rows of
 * data/reference/lab-ranges.json, one per lab and sex or stratum), or null where they do not cover both sexes
 * (a range given for men only says nothing of a woman's value: testosterone, ferritin) or depend on
 * more than sex. A stratum with no lower or upper bound leaves the widest range without it.
 */
export function usualRange(printed: readonly StoredLabRange[], ucumCode: string): RangeBounds | null {
  const rows = printed.filter((row) => row.ucum_unit === ucumCode);
  // A range that depends on more than sex (estradiol's on the cycle's phase) has no widest one here.
  if (rows.some((row) => row.menstrual_cycle !== null || row.bmi_min !== null || row.bmi_max !== null)) return null;
  const sexes = new Set(rows.map((row) => row.gender_name));
  if (!sexes.has('ALL') && !(sexes.has('MALE') && sexes.has('FEMALE'))) return null;
  const mins = rows.map((row) => row.min_value);
  const maxes = rows.map((row) => row.max_value);
  return {
    min: mins.some((m) => m === null) ? null : Math.min(...(mins as number[])),
    max: maxes.some((m) => m === null) ? null : Math.max(...(maxes as number[])),
  };
}

/**
 * Whether the result is a scanned number that its unflagged row contradicts (above): beyond its printed
 * range, or where it prints none, beyond `usual` (the lab's range for the test, `usualRange`).
 */
export function isUnflaggedOutlier(result: PanelResult, usual: RangeBounds | null = null): boolean {
  if (result.provenance.source !== 'ocr' || result.resultValue === null || result.flag !== undefined) return false;
  // A text result or a censored value (`<0.5`) reads as no number, and nothing here is said of it.
  const value = toNumber(result.resultValue);
  if (!Number.isFinite(value)) return false;
  const printed = result.minRefRangeValue !== null || result.maxRefRangeValue !== null;
  return isFarOutside(value, printed ? { min: result.minRefRangeValue, max: result.maxRefRangeValue } : (usual ?? { min: null, max: null }));
}

/** Whether a number lies beyond `REACH` times a range's upper bound or under its lower one by as much. */
function isFarOutside(value: number, { min, max }: RangeBounds): boolean {
  // A range from zero, or up to it, gives no scale for how far off a reading lies.
  return (max !== null && max > 0 && value > REACH * max) || (min !== null && min > 0 && value < min / REACH);
}

/**
 * Whether a range read from a scan is no range a lab prints for the test: a bound beyond `REACH` times
 * the widest range labs print for it (`usual`, `usualRange`), or under its lower bound by as much.
 * Reference ranges differ between labs by far less; a bound that far off had a digit added or lost
 * (`Hematocrit 37.5-561.0` for 37.5-51.0 in an 8-point Nimbus Roman). A bound of zero is printed by
 * many labs (`0-40`) and says nothing here.
 */
export function isImplausibleRange(read: RangeBounds, usual: RangeBounds | null): boolean {
  if (usual === null) return false;
  return [read.min, read.max].some((bound) => bound !== null && bound > 0 && isFarOutside(bound, usual));
}
