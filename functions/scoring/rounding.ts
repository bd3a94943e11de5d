/**
 * Output rounding. Arithmetic rather than toPrecision (this runs thousands of times per request);
 * `+ 0` turns -0 into 0, so a rounding of ±1e-17 never shows a sign.
 */
export function roundTo(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f + 0;
}

const MIN_EXPONENT = -30;
const POWERS = Array.from({ length: 61 }, (_, i) => 10 ** (i + MIN_EXPONENT));

/** Six significant digits; the decimal exponent comes from a table search (Math.log10 is the slow part). */
export function sig6(value: number): number {
  const magnitude = Math.abs(value);
  if (magnitude === 0 || !Number.isFinite(value) || magnitude < POWERS[0]! || magnitude >= POWERS[POWERS.length - 1]!) {
    return value + 0;
  }
  let lo = 0;
  let hi = POWERS.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (POWERS[mid]! <= magnitude) lo = mid;
    else hi = mid;
  }
  const exponent = lo + MIN_EXPONENT;
  // Multiply by 10^k for k ≥ 0 and divide by 10^-k otherwise: both exact powers, so ties round as decimals do.
  const k = 5 - exponent;
  const scaled = k >= 0 ? Math.round(value * POWERS[k - MIN_EXPONENT]!) / POWERS[k - MIN_EXPONENT]! : Math.round(value / POWERS[-k - MIN_EXPONENT]!) * POWERS[-k - MIN_EXPONENT]!;
  return scaled + 0;
}
