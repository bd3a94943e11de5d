/** Small, dependency-free statistics shared by the population build (scripts/) and the engine. */

/**
 * Weighted quantiles with midpoint plotting positions P_i = (cumsum(w)_i − w_i/2) / Σw and linear
 * interpolation, clamped to the sample range: the method of nhanes-biomarker-stats.json, so Hale's
 * tables agree with the shared statistics.
 */
export function weightedQuantiles(values: readonly number[], weights: readonly number[], probabilities: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const total = order.reduce((sum, i) => sum + weights[i]!, 0);
  const positions: number[] = [];
  let cumulative = 0;
  for (const i of order) {
    cumulative += weights[i]!;
    positions.push((cumulative - weights[i]! / 2) / total);
  }
  const sorted = order.map((i) => values[i]!);
  return probabilities.map((p) => interpolate(positions, sorted, p));
}

export function weightedMean(values: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  let total = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i]! * weights[i]!;
    total += weights[i]!;
  }
  return sum / total;
}

export function weightedSd(values: readonly number[], weights: readonly number[]): number {
  const mean = weightedMean(values, weights);
  return Math.sqrt(weightedMean(values.map((v) => (v - mean) ** 2), weights));
}

/** Piecewise-linear y(x) on increasing xs, clamped to the end values. */
export function interpolate(xs: readonly number[], ys: readonly number[], x: number): number {
  const last = xs.length - 1;
  if (x <= xs[0]!) return ys[0]!;
  if (x >= xs[last]!) return ys[last]!;
  let lo = 0;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= x) lo = mid;
    else hi = mid;
  }
  const span = xs[hi]! - xs[lo]!;
  return span === 0 ? ys[lo]! : ys[lo]! + ((ys[hi]! - ys[lo]!) * (x - xs[lo]!)) / span;
}

/** Quantiles at 0, 1, …, 100 %: an array, or a distribution that computes them on demand. */
export type Quantiles = readonly number[] | { quantile(i: number): number };

/**
 * Percentile rank (0–100) of `value` in a distribution given by its quantiles at 0, 1, …, 100 %,
 * linear between them. Inside a run of equal quantiles the midpoint of the run is returned.
 */
export function percentileOf(quantiles: Quantiles, value: number): number {
  const q = Array.isArray(quantiles) ? (i: number) => (quantiles as readonly number[])[i]! : (i: number) => (quantiles as { quantile(i: number): number }).quantile(i);
  const last = 100;
  if (value < q(0)) return 0;
  if (value > q(last)) return 100;
  // First index whose quantile is ≥ value, by bisection.
  let lo = 0;
  let hi = last;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (q(mid) < value) lo = mid + 1;
    else hi = mid;
  }
  if (q(lo) === value) {
    let end = lo;
    while (end < last && q(end + 1) === value) end++;
    return (lo + end) / 2;
  }
  const below = lo - 1;
  return below + (value - q(below)) / (q(lo) - q(below));
}

/** Pool-adjacent-violators: the closest non-decreasing sequence (weighted least squares). */
export function isotonicIncreasing(values: readonly number[], weights: readonly number[]): number[] {
  const blocks: { value: number; weight: number; count: number }[] = [];
  values.forEach((value, i) => {
    blocks.push({ value, weight: weights[i]!, count: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2]!.value > blocks[blocks.length - 1]!.value) {
      const b = blocks.pop()!;
      const a = blocks.pop()!;
      const weight = a.weight + b.weight;
      blocks.push({ value: (a.value * a.weight + b.value * b.weight) / weight, weight, count: a.count + b.count });
    }
  });
  return blocks.flatMap((b) => Array<number>(b.count).fill(b.value));
}
