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
 * "Far" is beyond twice the upper bound or under half the lower one. Nearer, a value with no flag is
 * more likely a flag the scan lost, or a last digit misread: it is given, and validation flags the
 * contradiction (`flag_inconsistent_with_range`). A value far out whose flag was read (`358 H`) is
 * given as read; so is one on a text page, where nothing was misread.
 */

/** How many times beyond its range's bound an unflagged scanned value must lie to contradict its row. */
const REACH = 2;

/** Whether the result is a scanned number that its unflagged row's printed range contradicts (above). */
export function isUnflaggedOutlier(result: PanelResult): boolean {
  if (result.provenance.source !== 'ocr' || result.resultValue === null || result.flag !== undefined) return false;
  // A text result or a censored value (`<0.5`) reads as no number, and nothing here is said of it.
  const value = toNumber(result.resultValue);
  if (!Number.isFinite(value)) return false;
  // A range from zero, or up to it, gives no scale for how far off a reading lies.
  const { minRefRangeValue: min, maxRefRangeValue: max } = result;
  return (max !== null && max > 0 && value > REACH * max) || (min !== null && min > 0 && value < min / REACH);
}
