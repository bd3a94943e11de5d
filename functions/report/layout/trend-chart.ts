import { type Color, degrees } from 'pdf-lib';
import { chartGeometry } from './chart-geometry';
import type { PageWriter } from './page-writer';
import { COLOR, CONTENT_WIDTH, TYPE } from './theme';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: Color;
  dashed?: boolean;
}

export interface TrendChartSpec {
  xs: number[];
  xLabel: string;
  yLabel: string;
  series: ChartSeries[];
  height?: number;
}

/** A vector line chart at the cursor: axes with tick labels, axis titles, one line per series and a legend. */
export function drawTrendChart(w: PageWriter, spec: TrendChartSpec): boolean {
  const height = spec.height ?? 130;
  const total = height + 44;
  if (!w.room(total)) return false;
  const tick = { size: TYPE.small, color: COLOR.muted };
  const plot = { x: w.left + 40, y: w.y - height - 12, width: CONTENT_WIDTH - 150, height };
  const geometry = chartGeometry(
    spec.xs,
    spec.series.map((s) => s.values),
    plot,
  );
  const page = w.page;

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
  w.text(spec.xLabel, plot.x + plot.width / 2, plot.y - 22, tick, 'center');
  page.drawText(spec.yLabel, {
    x: w.left + 6,
    y: plot.y + plot.height / 2 - w.width(spec.yLabel, tick) / 2,
    size: TYPE.small,
    font: w.fonts.regular,
    color: COLOR.muted,
    rotate: degrees(90),
  });

  spec.series.forEach((series, index) => {
    const points = geometry.lines[index] ?? [];
    for (let i = 1; i < points.length; i++) {
      page.drawLine({
        start: points[i - 1]!,
        end: points[i]!,
        thickness: 1.4,
        color: series.color,
        dashArray: series.dashed ? [3, 2] : undefined,
      });
    }
    for (const point of points) page.drawCircle({ x: point.x, y: point.y, size: 2, color: series.color });
  });

  // Legend to the right of the plot.
  const legendX = plot.x + plot.width + 14;
  spec.series.forEach((series, index) => {
    const y = plot.y + plot.height - 8 - index * 14;
    page.drawLine({
      start: { x: legendX, y: y + 3 },
      end: { x: legendX + 16, y: y + 3 },
      thickness: 1.4,
      color: series.color,
      dashArray: series.dashed ? [3, 2] : undefined,
    });
    w.text(series.label, legendX + 20, y, { size: TYPE.small });
  });
  w.y = plot.y - 28;
  return true;
}
