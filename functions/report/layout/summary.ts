import { formatPercentile, formatRatio, formatRisk, formatScore, formatYears } from './format';
import type { PageWriter } from './page-writer';
import { type Column, drawTable } from './table';
import { COLOR, TYPE } from './theme';
import type { ReportResult } from './types';

const COLUMNS: readonly Column[] = [
  { header: 'Health domain', width: 150 },
  { header: 'Score', width: 64, align: 'right' },
  { header: 'Biological age', width: 74, align: 'right' },
  { header: 'Actual age', width: 58, align: 'right' },
  { header: 'Risk', width: 52, align: 'right' },
  { header: 'Risk ratio', width: 56, align: 'right' },
  { header: 'Percentile', width: 62, align: 'right' },
];

/** One row per domain of the given result: the figures a reader looks for first. */
export function drawDomainSummary(w: PageWriter, result: ReportResult): void {
  const rows = result.disease_scores.map((score) => [
    score.disease_name,
    score.status === 'scored' ? `${formatScore(score.health_score)} / ${score.health_score_max}` : 'not scored',
    formatYears(score.disease_age),
    formatYears(score.chronological_age),
    formatRisk(score.risk_ratios.risk),
    formatRatio(score.risk_ratios.ratio),
    formatPercentile(score.score_percentile),
  ]);
  drawTable(w, COLUMNS, rows);
  w.gap(4);
  w.paragraph(
    'Health score: 0–100, higher is healthier. Biological age: the age at which an average peer has the same modelled risk. ' +
      'Risk: the model’s probability over its horizon; risk ratio: that risk divided by the mean of same-sex, same-age peers. ' +
      'Percentile: position among those peers, higher is healthier.',
    { size: TYPE.small, color: COLOR.muted },
  );
  for (const score of result.disease_scores) {
    if (score.status === 'not_scored' && score.notes.length > 0) {
      w.paragraph(`${score.disease_name}: ${score.notes.join(' ')}`, { size: TYPE.small, color: COLOR.muted });
    }
  }
}
