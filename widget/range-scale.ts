/**
 * The axis of a biomarker's range bar, shared by the widget and the PDF report so both draw the
 * same picture: from the population's 1st to 99th percentile, widened to hold the value, the lab
 * range, the optimal range and the mean, with a 5 % margin. Anchoring on the population keeps a bar
 * readable when a biomarker has no lab or optimal range: the value and the mean alone would
 * otherwise fill the bar, however close they are.
 */

export interface RangeBand {
  low: number | null;
  high: number | null;
}

export interface RangeContext {
  lab?: RangeBand;
  optimal?: RangeBand;
  mean?: number;
  /** The population's 1st and 99th percentile. */
  population?: { low: number; high: number };
}

const MARGIN = 0.05;

/** [min, max] of the axis. */
export function rangeAxis(value: number, context: RangeContext): [number, number] {
  const points = [
    value,
    context.mean,
    context.population?.low,
    context.population?.high,
    context.lab?.low,
    context.lab?.high,
    context.optimal?.low,
    context.optimal?.high,
  ].filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const low = Math.min(...points);
  const high = Math.max(...points);
  const pad = (high - low) * MARGIN || Math.abs(value) * MARGIN || 1;
  return [low - pad, high + pad];
}

/** Position of `v` on the axis, 0–1. */
export function axisPosition(axis: [number, number], v: number): number {
  return (v - axis[0]) / (axis[1] - axis[0]);
}
