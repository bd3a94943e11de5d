import { h } from '../dom';
import { displayDate, withUnit } from '../format';
import type { PredictorStatistic, ScoringPredictor } from '../input';
import { rangeBar } from './range-bar';

function imputation(predictor: ScoringPredictor): string {
  switch (predictor.imputation_code) {
    case 'measured':
      return 'measured';
    case 'carried_forward':
      return predictor.source_date ? `carried forward from ${displayDate(predictor.source_date)}` : 'carried forward';
    case 'derived':
      return 'derived from other inputs';
    case 'population_median':
      return 'imputed: population median';
    case 'default':
      return 'imputed: default';
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

/** Every input of the latest date: value, unit, how it was obtained and, with statistics, where it lies. */
export function biomarkersSection(predictors: readonly ScoringPredictor[], stats: readonly PredictorStatistic[]): HTMLElement {
  const items = predictors.map((predictor) => {
    const stat = statisticFor(predictor, stats);
    return h(
      'li',
      { class: 'biomarker', 'data-predictor': predictor.predictor, 'data-imputation': predictor.imputation_code },
      h(
        'div',
        { class: 'biomarker-head' },
        h('span', {}, predictor.name),
        h('span', {}, h('span', { class: 'value' }, withUnit(predictor.value, predictor.unit)), ' ', h('span', { class: 'badge' }, imputation(predictor))),
      ),
      stat ? rangeBar(stat, predictor.value, predictor.unit) : null,
    );
  });
  const legend = stats.length > 0 ? h('p', { class: 'small muted' }, 'Bars: lab reference range (wide band), optimal range (inner band), population mean for sex and age (line), this result (dot).') : null;
  return h('section', { 'aria-label': 'Biomarkers' }, h('h3', {}, 'Biomarkers'), legend, h('ul', { class: 'biomarkers' }, items));
}
