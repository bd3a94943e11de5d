import { h } from '../dom';
import { decimal, ordinal, percent, years } from '../format';
import type { DiseaseScore } from '../input';

function biologicalAge(score: DiseaseScore): Node[] {
  if (score.disease_age === null) return [h('dt', {}, 'Biological age'), h('dd', {}, 'not available')];
  const gap = score.disease_age - score.chronological_age;
  const comparison =
    Math.abs(gap) < 0.05
      ? h('span', {}, 'same as')
      : h('span', { class: gap < 0 ? 'good' : 'bad' }, `${years(Math.abs(gap))} ${gap < 0 ? 'younger than' : 'older than'}`);
  return [
    h('dt', {}, 'Biological age'),
    h('dd', { class: 'bio-age' }, `${decimal(score.disease_age)} years `, h('span', { class: 'small' }, '(', comparison, ` chronological age ${decimal(score.chronological_age)})`)),
  ];
}

function risk(score: DiseaseScore): Node[] {
  const { risk: own, peer_risk: peer, ratio, horizon_years: horizon, reason } = score.risk_ratios;
  if (ratio === null || own === null || peer === null) return [h('dt', {}, 'Risk'), h('dd', { class: 'risk' }, reason ?? 'not available')];
  const over = horizon === null ? '' : ` over ${decimal(horizon, 0)} years`;
  return [
    h('dt', {}, 'Risk'),
    h('dd', { class: 'risk' }, `${percent(own)}${over} vs ${percent(peer)} for peers · `, h('span', { class: ratio > 1 ? 'bad' : 'good' }, `ratio ${decimal(ratio, 2)}×`)),
  ];
}

function percentile(score: DiseaseScore): Node[] {
  const value = score.score_percentile;
  return [h('dt', {}, 'Percentile'), h('dd', { class: 'percentile' }, value === null ? 'not available' : `${ordinal(value)} among peers`)];
}

function card(score: DiseaseScore): HTMLElement {
  const attributes = { class: 'card', 'data-domain': score.disease_code };
  if (score.status !== 'scored' || score.health_score === null) {
    return h('li', attributes, h('h4', {}, score.disease_name), h('p', { class: 'score muted' }, 'Not scored'), h('ul', { class: 'small muted' }, score.notes.map((note) => h('li', {}, note))));
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
  );
}

/** One card per health domain of the latest date: score of its maximum, ages, risk ratio, percentile. */
export function domainCardsSection(scores: readonly DiseaseScore[]): HTMLElement {
  return h('section', { 'aria-label': 'Health domains' }, h('h3', {}, 'Health domains'), h('ul', { class: 'grid plain' }, scores.map(card)));
}
