/**
 * How the report prints each number. The tests format the scoring result with these same functions
 * and look for the strings in the PDF's text, so a number is printed one way only.
 */

export const MISSING = '—';

export function formatScore(value: number | null): string {
  return value === null ? MISSING : value.toFixed(1);
}

export function formatYears(value: number | null): string {
  return value === null ? MISSING : value.toFixed(1);
}

export function formatRatio(value: number | null): string {
  return value === null ? MISSING : `${value.toFixed(2)}×`;
}

/** Probabilities (0–1) as percentages. */
export function formatRisk(value: number | null): string {
  return value === null ? MISSING : `${(value * 100).toFixed(1)}%`;
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

/** Lab values: at most four significant digits, no trailing zeros, no exponent for lab magnitudes. */
export function formatMeasurement(value: number | string | null): string {
  if (value === null) return MISSING;
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return MISSING;
  return String(Number(value.toPrecision(4)));
}

/** Printed form of a UCUM unit where the code differs from what people read on a lab report. */
const UNIT_LABELS: Readonly<Record<string, string>> = {
  'mm[Hg]': 'mmHg',
  '10*3/uL': '×10³/µL',
  '10*6/uL': '×10⁶/µL',
  '10*9/L': '×10⁹/L',
  'u[IU]/mL': 'µIU/mL',
  'm[IU]/L': 'mIU/L',
  'mL/min/{1.73_m2}': 'mL/min/1.73 m²',
  'kg/m2': 'kg/m²',
  a: 'years',
  '1': '',
};

export function formatUnit(ucum: string): string {
  return UNIT_LABELS[ucum] ?? ucum.replace(/\bu(?=[gLm]|mol)/g, 'µ');
}

export function formatAgeRange(ages: readonly number[]): string {
  if (ages.length === 0) return MISSING;
  const low = Math.min(...ages);
  const high = Math.max(...ages);
  return low === high ? `${formatYears(low)} years` : `${formatYears(low)}–${formatYears(high)} years`;
}
