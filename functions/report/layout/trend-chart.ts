import { type Color, degrees } from 'pdf-lib';
import { chartGeometry } from './chart-geometry';
import type { PageWriter } from './page-writer';
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

  for (const t of geometry.yTicks) {
    page.drawLine({ start: { x: plot.x, y: t.at }, end: { x: plot.x + plot.width, y: t.at }, thickness: 0.3, color: COLOR.rule });
    w.text(String(t.value), plot.x - 4, t.at - 2.5, tick, 'right');
  }
  for (const t of geometry.xTicks) {
    page.drawLine({ start: { x: t.at, y: plot.y }, end: { x: t.at, y: plot.y - 3 }, thickness: 0.5, color: COLOR.muted });
    w.text(String(t.value), t.at, plot.y - 11, tick, 'center');
  }
  page.drawLine({ start: { x: plot.x, y: plot.y }, end: { x: plot.x + plot.width, y: plot.y }, thickness: 0.8, color: COLOR.text });
  page.drawLine({ start: { x: plot.x, y: plot.y }, end: { x: plot.x, y: plot.y + plot.height }, thickness: 0.8, color: COLOR.text });
  w.text(spec.xLabel, plot.x + plot.width / 2, plot.y - 21, tick, 'center');
  page.drawText(spec.yLabel, {
    x: frame.x + 6,
    y: plot.y + plot.height / 2 - w.width(spec.yLabel, tick) / 2,
    size: TYPE.small,
    font: w.fonts.regular,
    color: COLOR.muted,
    rotate: degrees(90),
  });

  spec.series.forEach((series, index) => {
    const points = geometry.lines[index] ?? [];
    for (let i = 1; i < points.length; i++) {
      page.drawLine({ start: points[i - 1]!, end: points[i]!, thickness: 1.4, color: series.color, dashArray: series.dashed ? [3, 2] : undefined });
    }
    for (const point of points) page.drawCircle({ x: point.x, y: point.y, size: 2, color: series.color });

    const y = plot.y - 26 - (index + 1) * LEGEND_ROW + 3;
    page.drawLine({ start: { x: plot.x, y: y + 3 }, end: { x: plot.x + 16, y: y + 3 }, thickness: 1.4, color: series.color, dashArray: series.dashed ? [3, 2] : undefined });
    w.text(series.label, plot.x + 20, y, { size: TYPE.small });
  });
}
