import { h } from '../dom';
import { decimal, ordinal, years } from '../format';
import { biologicalAgeText, primaryRisk, riskLines, riskText } from '../explain';
import type { DiseaseScore } from '../input';

function biologicalAge(score: DiseaseScore): Node[] {
  if (score.disease_age === null) return [h('dt', {}, 'Biological age'), h('dd', {}, 'not available')];
  const gap = score.disease_age - score.chronological_age;
  // At an edge of the peer data the age is a bound, and so is the gap: "≤ 46.6" is at least 10 years younger than 57.
  const edge = score.disease_age_status === 'below_peer_data' ? -1 : score.disease_age_status === 'above_peer_data' ? 1 : 0;
  const bound = edge === 0 ? '' : Math.sign(gap) === edge ? 'at least ' : 'at most ';
  const comparison =
    Math.abs(gap) < 0.05 && edge === 0
      ? h('span', {}, 'same as')
      : h('span', { class: gap < 0 ? 'good' : 'bad' }, `${bound}${years(Math.abs(gap))} ${gap < 0 ? 'younger than' : 'older than'}`);
  return [
    h('dt', {}, 'Biological age'),
    h('dd', { class: 'bio-age' }, `${biologicalAgeText(score)} `, h('span', { class: 'small' }, '(', comparison, ` chronological age ${decimal(score.chronological_age)})`)),
  ];
}

function risk(score: DiseaseScore): Node[] {
  const primary = primaryRisk(score);
  const others = riskLines(score.risk_ratios.slice(1));
  const text = primary ? riskText(primary) : 'not available';
  const ratio = primary?.ratio;
  return [
    h('dt', {}, 'Risk'),
    h(
      'dd',
      { class: 'risk' },
      ratio === null || ratio === undefined ? text : h('span', { class: ratio > 1 ? 'bad' : 'good' }, text),
      others.length > 0 ? h('ul', { class: 'small plain horizons' }, others.map((line) => h('li', {}, line))) : null,
    ),
  ];
}

function percentile(score: DiseaseScore): Node[] {
  const value = score.score_percentile;
  return [h('dt', {}, 'Percentile'), h('dd', { class: 'percentile' }, value === null ? 'not available' : `${ordinal(value)} among peers`)];
}

function notes(score: DiseaseScore): HTMLElement | null {
  return score.notes.length === 0 ? null : h('ul', { class: 'small muted notes' }, score.notes.map((note) => h('li', {}, note)));
}

function card(score: DiseaseScore): HTMLElement {
  const attributes = { class: 'card', 'data-domain': score.disease_code };
  if (score.status !== 'scored' || score.health_score === null) {
    return h('li', attributes, h('h4', {}, score.disease_name), h('p', { class: 'score muted' }, 'Not scored'), notes(score));
  }
  const fill = h('span', {});
  fill.style.width = `${Math.max(0, Math.min(1, score.health_score / score.health_score_max)) * 100}%`;
  return h(
    'li',
    attributes,
    h('h4', {}, score.disease_name),
    h('p', { class: 'score' }, decimal(score.health_score), h('small', {}, ` / ${decimal(score.health_score_max, 0)} health score`)),
    h('div', { class: 'meter', 'aria-hidden': 'true' }, fill),
    h('dl', {}, biologicalAge(score), risk(score), percentile(score)),
    notes(score),
  );
}

/** One card per health domain of the latest date: score of its maximum, ages, risks for every horizon, percentile, notes. */
export function domainCardsSection(scores: readonly DiseaseScore[]): HTMLElement {
  return h('section', { 'aria-label': 'Health domains' }, h('h3', {}, 'Health domains'), h('ul', { class: 'grid plain' }, scores.map(card)));
}
