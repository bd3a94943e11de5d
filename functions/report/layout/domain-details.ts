import { notMeasuredSentence, primaryRisk, riskLines } from '../../../widget/explain';
import type { DomainTrack } from './domains';
import {
  formatBiologicalAge,
  formatDelta,
  formatMeasurement,
  formatPercentile,
  formatRatio,
  formatRisk,
  formatScore,
  formatUnit,
  formatValue,
  formatYears,
} from './format';
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

/** Largest effects first (the engine's order); the ones that make the person older lead when effects tie. */
export function topAttributions(score: DiseaseScore, count: number): DiseaseScore['predictor_attributions'] {
  return [...score.predictor_attributions]
    .sort((a, b) => Math.abs(b.disease_age_years) - Math.abs(a.disease_age_years) || b.disease_age_years - a.disease_age_years)
    .slice(0, count);
}

function trendRows(track: DomainTrack, results: readonly ReportResult[]): string[][] {
  return results.flatMap((result, i) => {
    const s = track.scores[i];
    if (!s) return [];
    const primary = primaryRisk(s);
    return [
      [
        formatYears(result.scoring_event_age),
        formatScore(s.health_score),
        formatBiologicalAge(s),
        formatRisk(primary?.risk ?? null),
        formatRisk(primary?.peer_risk ?? null),
        formatRatio(primary?.ratio ?? null),
        formatPercentile(s.score_percentile),
      ],
    ];
  });
}

/** The domain's model, risks for every outcome and horizon, indices and notes: one sentence each. */
export function describeScore(score: DiseaseScore): string[] {
  const sentences = [`Model: ${score.model.name}.`];
  for (const line of riskLines(score.risk_ratios)) sentences.push(`${line.replace(/\.$/, '')}.`);
  sentences.push(`Inputs observed: ${Math.round(score.completeness.fraction_observed * 100)}%.`);
  for (const index of score.indices) {
    const unit = index.unit ? ` ${formatUnit(index.unit)}` : '';
    const value = index.unit === null && index.name.includes('risk') ? formatRisk(index.value) : formatMeasurement(index.value);
    sentences.push(`${index.name}: ${value}${unit}${index.category ? ` (${index.category})` : ''}.`);
  }
  return [...sentences, ...score.notes];
}

/** A domain's page section in the full report: trend chart, per-event table, drivers and opportunities. */
export function drawDomainDetail(w: PageWriter, track: DomainTrack, results: readonly ReportResult[]): void {
  const current = [...track.scores].reverse().find((s): s is DiseaseScore => s !== undefined);
  if (!current) return;
  w.heading(track.name);
  for (const sentence of describeScore(current)) w.paragraph(sentence, { size: TYPE.small, color: COLOR.muted });
  drawTrends(w, track, results);
  drawTable(w, TREND_COLUMNS, trendRows(track, results));
  drawDrivers(w, current, 5);
  drawNotMeasured(w, current);
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
    top.map((a) => [a.name, formatValue(a.value, a.unit), formatValue(a.peer_value, a.unit), formatUnit(a.unit), formatDelta(a.disease_age_years)]),
    { size: TYPE.small + 0.5 },
  );
  const residual = score.attribution_residual;
  const difference = score.difference_from_peers;
  if (residual && difference) {
    w.paragraph(
      `Difference from peers: ${formatDelta(difference.disease_age_years)} years of biological age, of which the measured inputs account for ${formatDelta(difference.disease_age_years - residual.disease_age_years)} years one at a time and interactions, model curvature and the edges of the peer data for ${formatDelta(residual.disease_age_years)} years.`,
      { size: TYPE.small, color: COLOR.muted },
    );
  }
}

/** Inputs that were not measured: the peers' value stood in; what measuring them could change. */
function drawNotMeasured(w: PageWriter, score: DiseaseScore): void {
  if (score.not_measured.length === 0) return;
  w.gap(4);
  w.paragraph('Not measured', { bold: true, size: TYPE.subheading - 1 });
  for (const entry of score.not_measured) w.paragraph(notMeasuredSentence(entry), { size: TYPE.small, color: COLOR.muted });
}

function drawOpportunities(w: PageWriter, score: DiseaseScore, count: number): void {
  const items = score.improvement_opportunities.slice(0, count);
  if (items.length === 0) return;
  w.gap(6);
  w.paragraph('Improvement opportunities (if this biomarker reached its optimal range)', { bold: true, size: TYPE.subheading - 1 });
  drawTable(
    w,
    OPPORTUNITY_COLUMNS,
    items.map((o) => [
      o.name,
      formatValue(o.current_value, o.unit),
      formatValue(o.target_value, o.unit),
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
  const best = score.improvement_opportunities[0];
  const lines = [`${score.disease_name} (${score.model.name})`];
  if (drivers) lines.push(`Main drivers: ${drivers}.`);
  if (score.not_measured.length > 0) lines.push(`Not measured: ${score.not_measured.map((n) => n.name).join(', ')} (peers' value used).`);
  if (best) {
    lines.push(
      `Best opportunity: ${best.name} ${formatValue(best.current_value, best.unit)} → ${formatValue(best.target_value, best.unit)} ${formatUnit(best.unit)} (${formatDelta(best.disease_age_change)} y).`.replace(/ {2,}/g, ' ').replace(' )', ')'),
    );
  }
  for (const note of score.notes) lines.push(note);
  if (!w.paragraph(lines[0]!, { bold: true })) return false;
  for (const line of lines.slice(1)) if (!w.paragraph(line, { size: TYPE.small + 0.5 }, 8)) return false;
  return true;
}
