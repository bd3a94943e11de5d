import type { DomainTrack } from './domains';
import { formatDelta, formatMeasurement, formatPercentile, formatRatio, formatRisk, formatScore, formatUnit, formatYears } from './format';
import type { PageWriter } from './page-writer';
import { formatBand } from './biomarker-table';
import { type Column, drawTable } from './table';
import { COLOR, CONTENT_WIDTH, TYPE } from './theme';
import { chartHeight, drawTrendChart } from './trend-chart';
import type { DiseaseScore, ReportResult } from './types';

const TREND_COLUMNS: readonly Column[] = [
  { header: 'Age at event', width: 86, align: 'right' },
  { header: 'Health score', width: 72, align: 'right' },
  { header: 'Biological age', width: 86, align: 'right' },
  { header: 'Risk', width: 66, align: 'right' },
  { header: 'Peer risk', width: 66, align: 'right' },
  { header: 'Risk ratio', width: 66, align: 'right' },
  { header: 'Percentile', width: 74, align: 'right' },
];

const ATTRIBUTION_COLUMNS: readonly Column[] = [
  { header: 'Biomarker', width: 168 },
  { header: 'Your value', width: 72, align: 'right' },
  { header: 'Peer value', width: 72, align: 'right' },
  { header: 'Unit', width: 64 },
  { header: 'Biological age effect (y)', width: 140, align: 'right' },
];

const OPPORTUNITY_COLUMNS: readonly Column[] = [
  { header: 'Biomarker', width: 150 },
  { header: 'Now', width: 58, align: 'right' },
  { header: 'Target', width: 58, align: 'right' },
  { header: 'Optimal range', width: 80, align: 'right' },
  { header: 'Unit', width: 60 },
  { header: 'Biological age change (y)', width: 110, align: 'right' },
];

/** Largest effects first; the ones that make the person older lead when effects tie. */
export function topAttributions(score: DiseaseScore, count: number): DiseaseScore['predictor_attributions'] {
  return [...score.predictor_attributions]
    .filter((a) => a.disease_age_years !== null || a.risk !== null)
    .sort((a, b) => Math.abs(b.disease_age_years ?? 0) - Math.abs(a.disease_age_years ?? 0) || (b.disease_age_years ?? 0) - (a.disease_age_years ?? 0))
    .slice(0, count);
}

function trendRows(track: DomainTrack, results: readonly ReportResult[]): string[][] {
  return results.flatMap((result, i) => {
    const s = track.scores[i];
    if (!s) return [];
    return [
      [
        formatYears(result.scoring_event_age),
        formatScore(s.health_score),
        formatYears(s.disease_age),
        formatRisk(s.risk_ratios.risk),
        formatRisk(s.risk_ratios.peer_risk),
        formatRatio(s.risk_ratios.ratio),
        formatPercentile(s.score_percentile),
      ],
    ];
  });
}

function describeScore(score: DiseaseScore): string {
  const parts = [`Model: ${score.model.name}.`];
  if (score.risk_ratios.horizon_years !== null) parts.push(`Risk horizon: ${score.risk_ratios.horizon_years} years.`);
  if (score.risk_ratios.reason) parts.push(score.risk_ratios.reason);
  parts.push(`Inputs observed: ${Math.round(score.completeness.fraction_observed * 100)}%.`);
  for (const index of score.indices) {
    const unit = index.unit ? ` ${formatUnit(index.unit)}` : '';
    parts.push(`${index.name}: ${formatMeasurement(index.value)}${unit}${index.category ? ` (${index.category})` : ''}.`);
  }
  return [...parts, ...score.notes].join(' ');
}

/** A domain's page section in the full report: trend chart, per-event table, drivers and opportunities. */
export function drawDomainDetail(w: PageWriter, track: DomainTrack, results: readonly ReportResult[]): void {
  const current = [...track.scores].reverse().find((s): s is DiseaseScore => s !== undefined);
  if (!current) return;
  w.heading(track.name);
  w.paragraph(describeScore(current), { size: TYPE.small, color: COLOR.muted });
  drawTrends(w, track, results);
  drawTable(w, TREND_COLUMNS, trendRows(track, results));
  drawDrivers(w, current, 5);
  drawOpportunities(w, current, 5);
}

const PLOT_HEIGHT = 110;
const CHART_GAP = 24;

/** Two charts side by side across the events: biological against actual age, and the health score. */
function drawTrends(w: PageWriter, track: DomainTrack, results: readonly ReportResult[]): void {
  const xs = results.map((r) => r.scoring_event_age);
  const ages = track.scores.map((s) => s?.disease_age ?? null);
  const scores = track.scores.map((s) => s?.health_score ?? null);
  const plottable = (values: (number | null)[]) => values.filter((v) => v !== null).length > 1;
  if (!plottable(ages) && !plottable(scores)) return;
  const height = chartHeight(PLOT_HEIGHT, 2);
  if (!w.room(height + 8)) return;
  const width = (CONTENT_WIDTH - CHART_GAP) / 2;
  const top = w.y - 6;
  const common = { xs, xLabel: 'Age at event (years)' };
  if (plottable(ages)) {
    drawTrendChart(
      w,
      {
        ...common,
        title: 'Biological age',
        yLabel: 'Years',
        series: [
          { label: 'Biological age', values: ages, color: COLOR.accent },
          { label: 'Actual age', values: track.scores.map((s) => s?.chronological_age ?? null), color: COLOR.muted, dashed: true },
        ],
      },
      { x: w.left, top, width, height: PLOT_HEIGHT },
    );
  }
  if (plottable(scores)) {
    drawTrendChart(
      w,
      { ...common, title: 'Health score', yLabel: 'Score', yRange: [0, 100], series: [{ label: 'Health score (0–100)', values: scores, color: COLOR.optimal }] },
      { x: w.left + width + CHART_GAP, top, width, height: PLOT_HEIGHT },
    );
  }
  w.y = top - height - 4;
}

export function drawDrivers(w: PageWriter, score: DiseaseScore, count: number): void {
  const top = topAttributions(score, count);
  if (top.length === 0) return;
  w.gap(6);
  w.paragraph('Biomarkers that move this domain most (compared with a same-sex, same-age peer)', { bold: true, size: TYPE.subheading - 1 });
  drawTable(
    w,
    ATTRIBUTION_COLUMNS,
    top.map((a) => [a.name, formatMeasurement(a.value), formatMeasurement(a.peer_value), formatUnit(a.unit), formatDelta(a.disease_age_years)]),
    { size: TYPE.small + 0.5 },
  );
}

function drawOpportunities(w: PageWriter, score: DiseaseScore, count: number): void {
  const items = [...score.improvement_opportunities]
    .sort((a, b) => (a.disease_age_change ?? 0) - (b.disease_age_change ?? 0))
    .slice(0, count);
  if (items.length === 0) return;
  w.gap(6);
  w.paragraph('Improvement opportunities (if this biomarker reached its optimal range)', { bold: true, size: TYPE.subheading - 1 });
  drawTable(
    w,
    OPPORTUNITY_COLUMNS,
    items.map((o) => [
      o.name,
      formatMeasurement(o.current_value),
      formatMeasurement(o.target_value),
      formatBand({ low: o.optimal_min, high: o.optimal_max }),
      formatUnit(o.unit),
      formatDelta(o.disease_age_change),
    ]),
    { size: TYPE.small + 0.5 },
  );
}

/** Condensed report: per domain one line of drivers and the best opportunity, no tables. */
export function drawDomainBrief(w: PageWriter, score: DiseaseScore): boolean {
  const drivers = topAttributions(score, 3)
    .map((a) => `${a.name} ${formatDelta(a.disease_age_years)} y`)
    .join(', ');
  const best = [...score.improvement_opportunities].sort((a, b) => (a.disease_age_change ?? 0) - (b.disease_age_change ?? 0))[0];
  const lines = [`${score.disease_name} (${score.model.name})`];
  if (drivers) lines.push(`Main drivers: ${drivers}.`);
  if (best) {
    lines.push(
      `Best opportunity: ${best.name} ${formatMeasurement(best.current_value)} → ${formatMeasurement(best.target_value)} ${formatUnit(best.unit)} (${formatDelta(best.disease_age_change)} y).`,
    );
  }
  if (!w.paragraph(lines[0]!, { bold: true })) return false;
  for (const line of lines.slice(1)) if (!w.paragraph(line, { size: TYPE.small + 0.5 }, 8)) return false;
  return true;
}
