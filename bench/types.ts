/** One measured figure of a benchmark, printed by `npm run bench` next to its budget. */
export interface BenchRow {
  area: string;
  metric: string;
  value: number;
  unit: string;
  /** Human-readable budget, e.g. "≤ 5 ms"; empty when the figure is informative only. */
  budget: string;
  /** Whether the figure meets the budget; null when there is no budget. */
  pass: boolean | null;
}

/** Rows, and optionally a longer text (e.g. a quality matrix in Markdown) printed after the table. */
export interface BenchReport {
  rows: BenchRow[];
  details: string;
}

export type Bench = () => Promise<BenchRow[] | BenchReport>;

/** p-th percentile (0–100) of samples, nearest-rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
