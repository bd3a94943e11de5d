/**
 * Number, unit and date formatting, the same on every host page and in the PDF report
 * (functions/report/layout/format.ts builds on these), so both say the same thing. Plain toFixed
 * rather than Intl.NumberFormat: a page's first Intl formatter took 15–30 ms in headless Chromium
 * here, a fifth of the first-render budget, and the values read well without digit grouping.
 */

export function decimal(value: number, digits = 1): string {
  const fixed = value.toFixed(digits);
  const trimmed = digits > 0 ? fixed.replace(/\.?0+$/, '') : fixed;
  return trimmed === '-0' ? '0' : trimmed;
}

export function years(value: number): string {
  const text = decimal(value);
  return `${text} ${text === '1' ? 'year' : 'years'}`;
}

/** A signed change, with a real minus sign: "+0.6", "−1.9". */
export function signed(value: number, digits = 1): string {
  const text = decimal(Math.abs(value), digits);
  if (text === decimal(0, digits)) return text;
  return value < 0 ? `\u2212${text}` : `+${text}`;
}

/** Three significant digits for reading (`0.0966`, `6.54`, `45.3`); from 100 up, whole numbers (`105`, `1276`). */
export function significant(value: number): string {
  const rounded = Number(value.toPrecision(3));
  const magnitude = Math.abs(rounded);
  if (magnitude >= 100 || magnitude === 0) return decimal(value, 0);
  return decimal(rounded, Math.min(20, 2 - Math.floor(Math.log10(magnitude))));
}

/** Probability (0–1) as a percentage, three significant digits: `4.64%`, `0.123%`, `35.6%`. */
export function percent(probability: number): string {
  return `${significant(probability * 100)}%`;
}

/** A ratio to peers: `0.768×`. */
export function ratio(value: number): string {
  return `${significant(value)}×`;
}

export function ordinal(value: number): string {
  const n = Math.round(value);
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** Measured values: three significant digits, whole numbers from 100 up. */
export function measurement(value: number | string): string {
  return typeof value === 'string' ? value : significant(value);
}

const SUPERSCRIPT: Record<string, string> = { '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹', '-': '⁻' };

/**
 * UCUM codes as people write them: `10*3/uL` → `×10³/µL`, `mm[Hg]` → `mmHg`,
 * `mL/min/{1.73_m2}` → `mL/min/1.73 m²`, `a` (annum) → `years`.
 */
export function displayUnit(ucum: string): string {
  if (ucum === 'a') return 'years';
  return ucum
    .replace(/^10\*(-?\d+)/, (_, exp: string) => `×10${[...exp].map((c) => SUPERSCRIPT[c] ?? c).join('')}`)
    .replace(/\{([^}]*)\}/g, (_, annotation: string) => annotation.replace(/_/g, ' '))
    .replace(/\[([^\]]*)\]/g, '$1')
    .replace(/\bu(?=(L|g|mol|IU)\b)/g, 'µ')
    .replace(/([a-zA-Z])2\b/g, '$1²');
}

/**
 * Hale's unitless numeric inputs are yes/no answers coded 1/0 (smoking, diabetes, treatments, family
 * history: functions/scoring/catalogue.ts); they read as words.
 */
function isYesNo(value: number | string, ucum: string): value is 0 | 1 {
  return ucum === '' && (value === 0 || value === 1);
}

export function withUnit(value: number | string, ucum: string): string {
  if (isYesNo(value, ucum)) return value === 1 ? 'yes' : 'no';
  const unit = displayUnit(ucum);
  if (!unit) return measurement(value);
  return unit === '%' ? `${measurement(value)}%` : `${measurement(value)} ${unit}`;
}

/** A peer value: for a yes/no input the peers' mean is the share of peers with it. */
export function peerValue(value: number, ucum: string): string {
  return ucum === '' && value > 0 && value < 1 ? `${decimal(value * 100, 0)}% of peers` : withUnit(value, ucum);
}

/** How a disease_age reads: an edge of the peer data is a bound, an extrapolated model age says so. */
export function biologicalAge(value: number, status: string | null): string {
  const text = decimal(value);
  if (status === 'below_peer_data') return `≤ ${text}`;
  if (status === 'above_peer_data') return `≥ ${text}`;
  return text;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2025-03-01` → `1 Mar 2025`, unambiguous for every reader. */
export function displayDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  return `${day} ${MONTHS[(month ?? 1) - 1]} ${year}`;
}
