import type { DiseaseScore } from '../scoring/schemas';

/**
 * The summary of a bulk job: per domain, the distribution of health_score, disease_age − age and the
 * risk ratio over every scored person-date. Batches are scored apart and summarised apart, so each
 * distribution is a fixed-bin histogram (which merges exactly by adding counts) plus the exact count,
 * sum, minimum and maximum; percentiles are read from the histogram, interpolated within a bin, so they
 * are exact to the bin width: 1 point of health score, 0.25 years of age gap, 2 % of a risk ratio.
 */

interface Scale {
  /** Bin of a value; values beyond the range go to the first or last bin. */
  bin(value: number): number;
  /** Lower edge of a bin, in the value's units. */
  edge(bin: number): number;
  bins: number;
}

function linear(min: number, max: number, width: number): Scale {
  const bins = Math.round((max - min) / width);
  return {
    bins,
    bin: (value) => Math.min(bins - 1, Math.max(0, Math.floor((value - min) / width))),
    edge: (bin) => min + bin * width,
  };
}

/** Ratios on a log scale: equal steps of relative change, from 1/64 to 64. */
function logarithmic(min: number, max: number, binsPerDoubling: number): Scale {
  const low = Math.log2(min);
  const bins = Math.round((Math.log2(max) - low) * binsPerDoubling);
  return {
    bins,
    bin: (value) => Math.min(bins - 1, Math.max(0, Math.floor((Math.log2(Math.max(value, Number.MIN_VALUE)) - low) * binsPerDoubling))),
    edge: (bin) => 2 ** (low + bin / binsPerDoubling),
  };
}

export const METRICS = {
  health_score: linear(0, 101, 1),
  disease_age_minus_age: linear(-60, 60, 0.25),
  risk_ratio: logarithmic(1 / 64, 64, 35),
} as const;
export type Metric = keyof typeof METRICS;
const METRIC_NAMES = Object.keys(METRICS) as Metric[];

/** A mergeable sketch of one metric: sparse bin counts and exact moments and extremes. */
export interface Sketch {
  count: number;
  sum: number;
  min: number | null;
  max: number | null;
  /** Bin index → count; only bins with values. */
  bins: Record<string, number>;
}

export interface DomainTally {
  scored: number;
  not_scored: number;
  metrics: Record<Metric, Sketch>;
}

export interface BatchTally {
  items: number;
  scored: number;
  invalid: number;
  /** Scored dates (a JSONL line may score several). */
  person_dates: number;
  domains: Record<string, DomainTally>;
}

export const emptySketch = (): Sketch => ({ count: 0, sum: 0, min: null, max: null, bins: {} });

export function emptyTally(): BatchTally {
  return { items: 0, scored: 0, invalid: 0, person_dates: 0, domains: {} };
}

function add(sketch: Sketch, metric: Metric, value: number | null): void {
  if (value === null || !Number.isFinite(value)) return;
  sketch.count += 1;
  sketch.sum += value;
  sketch.min = sketch.min === null ? value : Math.min(sketch.min, value);
  sketch.max = sketch.max === null ? value : Math.max(sketch.max, value);
  const bin = String(METRICS[metric].bin(value));
  sketch.bins[bin] = (sketch.bins[bin] ?? 0) + 1;
}

function domainTally(tally: BatchTally, code: string): DomainTally {
  tally.domains[code] ??= { scored: 0, not_scored: 0, metrics: { health_score: emptySketch(), disease_age_minus_age: emptySketch(), risk_ratio: emptySketch() } };
  return tally.domains[code]!;
}

/** Counts one scored date's domains into the tally. */
export function tallyScores(tally: BatchTally, scores: readonly DiseaseScore[]): void {
  tally.person_dates += 1;
  for (const score of scores) {
    const domain = domainTally(tally, score.disease_code);
    if (score.status !== 'scored') {
      domain.not_scored += 1;
      continue;
    }
    domain.scored += 1;
    add(domain.metrics.health_score, 'health_score', score.health_score);
    add(domain.metrics.disease_age_minus_age, 'disease_age_minus_age', score.disease_age === null ? null : score.disease_age - score.chronological_age);
    // The domain's primary outcome and horizon (risk_ratios lists it first).
    add(domain.metrics.risk_ratio, 'risk_ratio', score.risk_ratios[0]?.ratio ?? null);
  }
}

function mergeSketch(into: Sketch, from: Sketch): void {
  into.count += from.count;
  into.sum += from.sum;
  if (from.min !== null) into.min = into.min === null ? from.min : Math.min(into.min, from.min);
  if (from.max !== null) into.max = into.max === null ? from.max : Math.max(into.max, from.max);
  for (const [bin, count] of Object.entries(from.bins)) into.bins[bin] = (into.bins[bin] ?? 0) + count;
}

/** Adds `from` into `into` (summing batches). */
export function mergeTally(into: BatchTally, from: BatchTally): void {
  into.items += from.items;
  into.scored += from.scored;
  into.invalid += from.invalid;
  into.person_dates += from.person_dates;
  for (const [code, domain] of Object.entries(from.domains)) {
    const target = domainTally(into, code);
    target.scored += domain.scored;
    target.not_scored += domain.not_scored;
    for (const metric of METRIC_NAMES) mergeSketch(target.metrics[metric], domain.metrics[metric]);
  }
}

export interface Distribution {
  count: number;
  mean: number | null;
  min: number | null;
  p5: number | null;
  p25: number | null;
  median: number | null;
  p75: number | null;
  p95: number | null;
  max: number | null;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

function percentile(sketch: Sketch, metric: Metric, q: number): number {
  const scale = METRICS[metric];
  const target = q * sketch.count;
  let seen = 0;
  const bins = Object.entries(sketch.bins)
    .map(([bin, count]) => [Number(bin), count] as const)
    .sort((a, b) => a[0] - b[0]);
  for (const [bin, count] of bins) {
    if (seen + count >= target) {
      const within = count === 0 ? 0 : (target - seen) / count;
      const low = Math.max(scale.edge(bin), sketch.min!);
      const high = Math.min(scale.edge(bin + 1), sketch.max!);
      return low + (high - low) * within;
    }
    seen += count;
  }
  return sketch.max!;
}

export function distribution(sketch: Sketch, metric: Metric): Distribution {
  if (sketch.count === 0) return { count: 0, mean: null, min: null, p5: null, p25: null, median: null, p75: null, p95: null, max: null };
  const at = (q: number) => round(percentile(sketch, metric, q));
  return {
    count: sketch.count,
    mean: round(sketch.sum / sketch.count),
    min: round(sketch.min!),
    p5: at(0.05),
    p25: at(0.25),
    median: at(0.5),
    p75: at(0.75),
    p95: at(0.95),
    max: round(sketch.max!),
  };
}
