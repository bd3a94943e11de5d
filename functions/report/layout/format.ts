import { biologicalAgeText } from '../../../widget/explain';
import { decimal, displayUnit, measurement, percent, ratio, significant, withUnit } from '../../../widget/format';

/**
 * How the report prints each number: the widget's formatting (widget/format.ts), so the two say the
 * same thing, plus a dash for a missing value. The tests format the scoring result with these same
 * functions and look for the strings in the PDF's text, so a number is printed one way only.
 */

export const MISSING = '—';

export function formatScore(value: number | null): string {
  return value === null ? MISSING : decimal(value);
}

export function formatYears(value: number | null): string {
  return value === null ? MISSING : decimal(value);
}

/** A disease age with its status: `≥ 85.7`, `≤ 46.6`, `120.1 (extrapolated)`. */
export function formatBiologicalAge(score: { disease_age: number | null; disease_age_status: string | null }): string {
  return score.disease_age === null ? MISSING : biologicalAgeText(score).replace(/ years/, '');
}

export function formatRatio(value: number | null): string {
  return value === null ? MISSING : ratio(value);
}

/** Probabilities (0–1) as percentages, three significant digits. */
export function formatRisk(value: number | null): string {
  return value === null ? MISSING : percent(value);
}

export function formatPercentile(value: number | null): string {
  return value === null ? MISSING : value.toFixed(0);
}

/** Signed change, e.g. of disease age in years. */
export function formatDelta(value: number | null, digits = 1): string {
  if (value === null) return MISSING;
  const text = Math.abs(value).toFixed(digits);
  if (Number(text) === 0) return text;
  return value > 0 ? `+${text}` : `−${text}`;
}

/** Lab values: three significant digits (whole numbers from 100 up). */
export function formatMeasurement(value: number | string | null): string {
  if (value === null) return MISSING;
  if (typeof value === 'number' && !Number.isFinite(value)) return MISSING;
  return measurement(value);
}

/** A value in its unit; yes/no inputs (unitless 0/1) as yes/no, a peers' share as a percentage of peers. */
export function formatValue(value: number, ucum: string): string {
  if (ucum === '' && value > 0 && value < 1) return `${decimal(value * 100, 0)}% of peers`;
  return ucum === '' ? withUnit(value, ucum) : significant(value);
}

/** Printed form of a UCUM unit (`mL/min/1.73 m²`, `×10³/µL`, `mmHg`). */
export function formatUnit(ucum: string): string {
  return displayUnit(ucum);
}

export function formatAgeRange(ages: readonly number[]): string {
  if (ages.length === 0) return MISSING;
  const low = Math.min(...ages);
  const high = Math.max(...ages);
  return low === high ? `${formatYears(low)} years` : `${formatYears(low)}–${formatYears(high)} years`;
}
