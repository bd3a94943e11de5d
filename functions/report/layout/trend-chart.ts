import type { Color } from 'pdf-lib';
import { chartGeometry } from './chart-geometry';
import type { PageWriter } from './page-writer';
import { fillDots, strokePolyline, strokeSegments } from './paths';
import { COLOR, TYPE } from './theme';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: Color;
  dashed?: boolean;
}

export interface TrendChartSpec {
  title: string;
  xs: number[];
  xLabel: string;
  yLabel: string;
  series: ChartSeries[];
  /** Fixed value axis; fitted to the data when absent. */
  yRange?: readonly [number, number];
}

export interface ChartFrame {
  x: number;
  /** Top of the chart's area. */
  top: number;
  width: number;
  height: number;
}

const TITLE = 22;
const LEGEND_ROW = 11;

/** Height a chart with this many series needs, title and legend included. */
export function chartHeight(plotHeight: number, seriesCount: number): number {
  return TITLE + plotHeight + 26 + seriesCount * LEGEND_ROW;
}

/** A vector line chart in `frame`: title, axes with tick labels, axis titles, one line per series, legend below. */
export function drawTrendChart(w: PageWriter, spec: TrendChartSpec, frame: ChartFrame): void {
  const tick = { size: TYPE.small, color: COLOR.muted };
  const plot = { x: frame.x + 34, y: frame.top - TITLE - frame.height, width: frame.width - 44, height: frame.height };
  const geometry = chartGeometry(
    spec.xs,
    spec.series.map((s) => s.values),
    plot,
    spec.yRange,
  );
  const page = w.page;
  w.text(spec.title, frame.x, frame.top - 9, { size: TYPE.body, bold: true });

  strokeSegments(page, geometry.yTicks.map((t) => [{ x: plot.x, y: t.at }, { x: plot.x + plot.width, y: t.at }]), { thickness: 0.3, color: COLOR.rule });
  strokeSegments(page, geometry.xTicks.map((t) => [{ x: t.at, y: plot.y }, { x: t.at, y: plot.y - 3 }]), { thickness: 0.5, color: COLOR.muted });
  for (const t of geometry.yTicks) w.text(String(t.value), plot.x - 4, t.at - 2.5, tick, 'right');
  for (const t of geometry.xTicks) w.text(String(t.value), t.at, plot.y - 11, tick, 'center');
  strokePolyline(
    page,
    [
      { x: plot.x, y: plot.y + plot.height },
      { x: plot.x, y: plot.y },
      { x: plot.x + plot.width, y: plot.y },
    ],
    { thickness: 0.8, color: COLOR.text },
  );
  w.text(spec.xLabel, plot.x + plot.width / 2, plot.y - 21, tick, 'center');
  w.verticalText(spec.yLabel, frame.x + 6, plot.y + plot.height / 2 - w.width(spec.yLabel, tick) / 2, tick);

  spec.series.forEach((series, index) => {
    const points = geometry.lines[index] ?? [];
    const line = { thickness: 1.4, color: series.color, dash: series.dashed ? [3, 2] : undefined };
    strokePolyline(page, points, line);
    fillDots(page, points, 2, series.color);
    const y = plot.y - 26 - (index + 1) * LEGEND_ROW + 3;
    strokeSegments(page, [[{ x: plot.x, y: y + 3 }, { x: plot.x + 16, y: y + 3 }]], line);
    w.text(series.label, plot.x + 20, y, { size: TYPE.small });
  });
}
