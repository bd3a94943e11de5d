import { h } from '../dom';
import { displayDate, withUnit } from '../format';
import type { PredictorStatistic, ScoringPredictor } from '../input';
import { rangeBar } from './range-bar';

function obtained(predictor: ScoringPredictor): string {
  switch (predictor.imputation_code) {
    case 'measured':
      return 'measured';
    case 'carried_forward':
      return predictor.source_date ? `carried forward from ${displayDate(predictor.source_date)}` : 'carried forward';
    case 'derived':
      return 'derived from other inputs';
    case 'imputed':
      return 'not measured';
  }
}

/** The statistic of the same predictor in the same unit (by Hale's key, else by observation code). */
function statisticFor(predictor: ScoringPredictor, stats: readonly PredictorStatistic[]): PredictorStatistic | undefined {
  const sameUnit = (stat: PredictorStatistic) => stat.unit === undefined || stat.unit === predictor.unit;
  return (
    stats.find((stat) => stat.predictor === predictor.predictor && sameUnit(stat)) ??
    stats.find((stat) => stat.predictor === undefined && (stat.observation_codes ?? []).includes(predictor.observation_code) && sameUnit(stat))
  );
}

/**
 * The inputs of the latest date: each observed value with its unit, how it was obtained and, with
 * statistics, where it lies; then the inputs that were not measured, by name only (no value is
 * shown as the person's own: each domain used its peers' value, see the drivers section).
 */
export function biomarkersSection(predictors: readonly ScoringPredictor[], stats: readonly PredictorStatistic[]): HTMLElement {
  const observed = predictors.filter((p) => p.imputation_code !== 'imputed' && p.value !== null);
  const missing = predictors.filter((p) => p.imputation_code === 'imputed' || p.value === null);
  const items = observed.map((predictor) => {
    const stat = statisticFor(predictor, stats);
    return h(
      'li',
      { class: 'biomarker', 'data-predictor': predictor.predictor, 'data-imputation': predictor.imputation_code },
      h(
        'div',
        { class: 'biomarker-head' },
        h('span', {}, predictor.name),
        h('span', {}, h('span', { class: 'value' }, withUnit(predictor.value!, predictor.unit)), ' ', h('span', { class: 'badge' }, obtained(predictor))),
      ),
      stat ? rangeBar(stat, predictor.value!, predictor.unit) : null,
    );
  });
  const legend =
    stats.length > 0 ? h('p', { class: 'small muted' }, 'Bars: lab reference range (wide band), guideline optimal range (inner band), population mean for sex and age (line), this result (dot).') : null;
  const notMeasured =
    missing.length > 0
      ? h('p', { class: 'small muted', 'data-not-measured': '' }, `Not measured: ${missing.map((p) => p.name).join(', ')}. Each domain used its peers' value instead (see What drives the results).`)
      : null;
  return h('section', { 'aria-label': 'Biomarkers' }, h('h3', {}, 'Biomarkers'), legend, h('ul', { class: 'biomarkers' }, items), notMeasured);
}
