import type { ChartConfiguration } from 'chart.js';
import { h, uniqueId } from '../dom';
import { decimal, displayDate } from '../format';
import type { ScoringResult } from '../input';
import type { ChartColours } from '../styles';
import { domainsOf, isScored, scoreOf } from '../results';

/** A canvas waiting for Chart.js: its sized wrapper and how to build its configuration in a theme. */
export interface PendingChart {
  box: HTMLElement;
  canvas: HTMLCanvasElement;
  configure(colours: ChartColours, animate: boolean): ChartConfiguration<'line', (number | null)[], string>;
}

interface Series {
  label: string;
  values: (number | null)[];
  /** Drawn dashed in the theme's text colour (the reference line). */
  reference?: boolean;
}

interface TrendSpec {
  title: string;
  axis: string;
  digits: number;
  series: Series[];
}

function trendSpecs(results: readonly ScoringResult[]): TrendSpec[] {
  const domains = domainsOf(results);
  const perDomain = (pick: 'health_score' | 'disease_age') =>
    domains.map(({ code, name }) => ({
      label: name,
      values: results.map((result) => {
        const score = scoreOf(result, code);
        return isScored(score) ? score[pick] : null;
      }),
    }));
  return [
    { title: 'Health score by domain', axis: 'Health score (of 100)', digits: 1, series: perDomain('health_score') },
    {
      title: 'Biological age by domain',
      axis: 'Age (years)',
      digits: 1,
      series: [...perDomain('disease_age'), { label: 'Chronological age', values: results.map((r) => r.scoring_event_age), reference: true }],
    },
  ];
}

function summary(spec: TrendSpec, results: readonly ScoringResult[]): string {
  const first = displayDate(results[0]!.scoring_event_date);
  const last = displayDate(results[results.length - 1]!.scoring_event_date);
  const changes = spec.series
    .map((series) => {
      const known = series.values.filter((v): v is number => v !== null);
      if (known.length === 0) return `${series.label}: not scored`;
      return `${series.label}: ${decimal(known[0]!, spec.digits)} to ${decimal(known[known.length - 1]!, spec.digits)}`;
    })
    .join('; ');
  return `${spec.title}, ${first} to ${last}. ${changes}.`;
}

function dataTable(spec: TrendSpec, results: readonly ScoringResult[]): HTMLElement {
  const head = h('tr', {}, h('th', { scope: 'col' }, 'Date'), h('th', { scope: 'col' }, 'Age'), spec.series.map((s) => h('th', { scope: 'col' }, s.label)));
  const rows = results.map((result, i) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, displayDate(result.scoring_event_date)),
      h('td', {}, decimal(result.scoring_event_age)),
      spec.series.map((s) => h('td', {}, s.values[i] === null || s.values[i] === undefined ? '—' : decimal(s.values[i]!, spec.digits))),
    ),
  );
  const id = uniqueId('table');
  return h(
    'details',
    {},
    h('summary', {}, 'Show the data as a table'),
    h('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-labelledby': id }, h('table', {}, h('caption', { id }, spec.title), h('thead', {}, head), h('tbody', {}, rows))),
  );
}

function pendingChart(spec: TrendSpec, results: readonly ScoringResult[]): { figure: HTMLElement; chart: PendingChart } {
  const canvas = h('canvas', { role: 'img', 'aria-label': summary(spec, results) });
  const box = h('div', { class: 'chart-box' }, canvas);
  const labels = results.map((r) => displayDate(r.scoring_event_date));
  const configure: PendingChart['configure'] = (colours, animate) => ({
    type: 'line',
    data: {
      labels,
      datasets: spec.series.map((series, i) => {
        const colour = series.reference ? colours.fg : (colours.series[i % colours.series.length] ?? colours.fg);
        return {
          label: series.label,
          data: series.values,
          borderColor: colour,
          backgroundColor: colour,
          borderDash: series.reference ? [6, 4] : [],
          pointRadius: series.reference ? 0 : 3,
          pointStyle: series.reference ? 'line' : 'circle',
          borderWidth: 2,
          spanGaps: false,
        };
      }),
    },
    options: {
      animation: animate ? { duration: 300 } : false,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'index', intersect: false },
      plugins: {
        legend: { labels: { color: colours.fg, boxWidth: 8, boxHeight: 8, usePointStyle: true } },
        tooltip: {
          callbacks: {
            title: (items) => {
              const result = results[items[0]?.dataIndex ?? 0];
              return result ? `${displayDate(result.scoring_event_date)} · age ${decimal(result.scoring_event_age)}` : '';
            },
            label: (item) => `${item.dataset.label}: ${item.raw === null ? '—' : decimal(item.raw as number, spec.digits)}`,
          },
        },
      },
      scales: {
        x: { ticks: { color: colours.muted }, grid: { color: colours.grid } },
        y: { title: { display: true, text: spec.axis, color: colours.muted }, ticks: { color: colours.muted }, grid: { color: colours.grid } },
      },
    },
  });
  const figure = h('figure', { class: 'card trend' }, h('figcaption', {}, h('h4', {}, spec.title)), box, dataTable(spec, results));
  return { figure, chart: { box, canvas, configure } };
}

/** Trend charts over the scored dates (only with two or more), each with its data as a table. */
export function trendsSection(results: readonly ScoringResult[]): { section: HTMLElement; charts: PendingChart[] } | undefined {
  if (results.length < 2) return undefined;
  const built = trendSpecs(results).map((spec) => pendingChart(spec, results));
  const section = h('section', { 'aria-label': 'Trends' }, h('h3', {}, 'Trends'), h('div', { class: 'grid wide' }, built.map((b) => b.figure)));
  return { section, charts: built.map((b) => b.chart) };
}
