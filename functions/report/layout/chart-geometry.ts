/** Pure geometry of a line chart: scales, "nice" ticks and point positions, no drawing. */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Tick {
  value: number;
  /** Position along the axis in page points. */
  at: number;
}

export interface ChartGeometry {
  xTicks: Tick[];
  yTicks: Tick[];
  /** One polyline per series; null values have no point and the line joins their neighbours. */
  lines: { x: number; y: number }[][];
}

/** Ticks at 1, 2 or 5 × 10^n covering [min, max] with at most `maxTicks` steps. */
export function niceTicks(min: number, max: number, maxTicks = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) {
    min -= 1;
    max += 1;
  }
  const rough = (max - min) / maxTicks;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => (max - min) / s <= maxTicks) ?? 10 * magnitude;
  const first = Math.floor(min / step) * step;
  const ticks: number[] = [];
  for (let value = first; value <= max + step * 1e-9; value += step) ticks.push(Number(value.toFixed(10)));
  if (ticks[ticks.length - 1]! < max) ticks.push(Number((ticks[ticks.length - 1]! + step).toFixed(10)));
  return ticks;
}

/** `yRange` fixes the value axis (e.g. 0–100 for scores) instead of fitting it to the data. */
export function chartGeometry(
  xs: readonly number[],
  series: readonly (readonly (number | null)[])[],
  box: Box,
  yRange?: readonly [number, number],
): ChartGeometry {
  const values = series.flat().filter((v): v is number => v !== null && Number.isFinite(v));
  const xTickValues = niceTicks(Math.min(...xs), Math.max(...xs), 4);
  const yTickValues = yRange ? niceTicks(yRange[0], yRange[1], 4) : niceTicks(Math.min(...values), Math.max(...values), 4);
  const [x0, x1] = [xTickValues[0] ?? 0, xTickValues[xTickValues.length - 1] ?? 1];
  const [y0, y1] = [yTickValues[0] ?? 0, yTickValues[yTickValues.length - 1] ?? 1];
  const sx = (v: number) => box.x + ((v - x0) / (x1 - x0 || 1)) * box.width;
  const sy = (v: number) => box.y + ((v - y0) / (y1 - y0 || 1)) * box.height;
  return {
    xTicks: xTickValues.map((value) => ({ value, at: sx(value) })),
    yTicks: yTickValues.map((value) => ({ value, at: sy(value) })),
    lines: series.map((s) =>
      s.flatMap((value, i) => (value === null || !Number.isFinite(value) ? [] : [{ x: sx(xs[i]!), y: sy(value) }])),
    ),
  };
}
