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

/**
 * Percentile rank (0–100) of `value` in a distribution given by its quantiles at 0, 1, …, 100 %.
 * Inside a run of equal quantiles the midpoint of the run is returned.
 */
export function percentileOf(quantiles: readonly number[], value: number): number {
  const last = quantiles.length - 1;
  if (value < quantiles[0]!) return 0;
  if (value > quantiles[last]!) return 100;
  let first = -1;
  let lastEqual = -1;
  for (let i = 0; i <= last; i++) {
    if (quantiles[i] === value) {
      if (first < 0) first = i;
      lastEqual = i;
    }
  }
  const step = 100 / last;
  if (first >= 0) return ((first + lastEqual) / 2) * step;
  let i = 0;
  while (quantiles[i + 1]! < value) i++;
  const fraction = (value - quantiles[i]!) / (quantiles[i + 1]! - quantiles[i]!);
  return (i + fraction) * step;
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
