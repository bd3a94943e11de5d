import { primaryRisk } from '../../../widget/explain';
import { formatBiologicalAge, formatPercentile, formatRatio, formatRisk, formatScore, formatYears } from './format';
import type { PageWriter } from './page-writer';
import { fillRectangles } from './paths';
import { type Column, drawTable } from './table';
import { COLOR, CONTENT_WIDTH, TYPE } from './theme';
import type { ReportResult } from './types';

const COLUMNS: readonly Column[] = [
  { header: 'Health domain', width: 164 },
  { header: 'Score', width: 62, align: 'right' },
  { header: 'Biological age', width: 70, align: 'right' },
  { header: 'Actual age', width: 56, align: 'right' },
  { header: 'Risk', width: 50, align: 'right' },
  { header: 'Risk ratio', width: 56, align: 'right' },
  { header: 'Percentile', width: 58, align: 'right' },
];

/** One row per domain of the given result: the figures a reader looks for first. */
export function drawDomainSummary(w: PageWriter, result: ReportResult): void {
  const rows = result.disease_scores.map((score) => [
    score.disease_name,
    score.status === 'scored' ? `${formatScore(score.health_score)} / ${score.health_score_max}` : 'not scored',
    formatBiologicalAge(score),
    formatYears(score.chronological_age),
    formatRisk(primaryRisk(score)?.risk ?? null),
    formatRatio(primaryRisk(score)?.ratio ?? null),
    formatPercentile(score.score_percentile),
  ]);
  drawTable(w, COLUMNS, rows, { size: TYPE.body - 0.5 });
  w.gap(4);
  w.paragraph(
    'Health score: 0–100, higher is healthier; 50 is the median same-sex peer of the same age. ' +
      'Biological age: the age at which the median peer has the same modelled risk (≤ or ≥: beyond the ages of the peer data). ' +
      'Risk: the model’s probability of its primary outcome over its horizon; risk ratio: that risk divided by the median peer’s. ' +
      'Percentile: share of those peers the person is healthier than.',
    { size: TYPE.small, color: COLOR.muted },
  );
  for (const score of result.disease_scores) {
    if (score.status === 'not_scored' && score.notes.length > 0) {
      w.paragraph(`${score.disease_name}: ${score.notes.join(' ')}`, { size: TYPE.small, color: COLOR.muted });
    }
  }
}

/** One horizontal 0–100 bar per scored domain: the summary's scores at a glance. */
export function drawScoreBars(w: PageWriter, result: ReportResult): void {
  const scored = result.disease_scores.filter((s) => s.health_score !== null);
  const row = 16;
  if (scored.length === 0 || !w.room(row * scored.length + 20)) return;
  const labelWidth = 150;
  const barWidth = CONTENT_WIDTH - labelWidth - 50;
  const x0 = w.left + labelWidth;
  w.y -= 6;
  for (const score of scored) {
    w.y -= row;
    const value = score.health_score!;
    w.text(score.disease_name, w.left, w.y + 3, { size: TYPE.small + 0.5 });
    fillRectangles(w.page, [{ x: x0, y: w.y + 1, width: barWidth, height: 9 }], COLOR.panel);
    fillRectangles(w.page, [{ x: x0, y: w.y + 1, width: (barWidth * value) / score.health_score_max, height: 9 }], COLOR.accent);
    w.text(formatScore(value), x0 + barWidth + 6, w.y + 3, { size: TYPE.small + 0.5, bold: true });
  }
  w.y -= 12;
  for (const tick of [0, 25, 50, 75, 100]) {
    w.text(String(tick), x0 + (barWidth * tick) / 100, w.y, { size: TYPE.small, color: COLOR.muted }, 'center');
  }
  w.y -= 6;
}
