import { h } from '../dom';
import { decimal, peerValue, signed, withUnit } from '../format';
import { notMeasuredSentence } from '../explain';
import type { DiseaseScore } from '../input';

const SHOWN = 3;

function effect(years: number): HTMLElement {
  return h('span', { class: years > 0 ? 'bad' : 'good' }, `${signed(years)} ${decimal(Math.abs(years)) === '1' ? 'year' : 'years'}`);
}

/** Measured inputs only (the API attributes nothing to an input that was not measured). */
function attributions(score: DiseaseScore): HTMLElement {
  const top = score.predictor_attributions.filter((a) => a.disease_age_years !== 0).slice(0, SHOWN);
  if (top.length === 0) return h('p', { class: 'small muted' }, 'No measured input moves this result away from peers.');
  return h(
    'ul',
    { class: 'small' },
    top.map((a) => h('li', {}, `${a.name} ${withUnit(a.value, a.unit)} (peers ${peerValue(a.peer_value, a.unit)}): `, effect(a.disease_age_years))),
  );
}

function notMeasured(score: DiseaseScore): HTMLElement | null {
  if (score.not_measured.length === 0) return null;
  return h('ul', { class: 'small muted', 'data-not-measured': score.disease_code }, score.not_measured.map((entry) => h('li', {}, notMeasuredSentence(entry))));
}

function opportunities(score: DiseaseScore): HTMLElement {
  const top = score.improvement_opportunities.slice(0, SHOWN);
  if (top.length === 0) return h('p', { class: 'small muted' }, 'No improvement opportunities listed.');
  return h(
    'ul',
    { class: 'small' },
    top.map((o) => h('li', {}, `${o.name} ${withUnit(o.current_value, o.unit)} → ${withUnit(o.target_value, o.unit)}: `, effect(o.disease_age_change), ' of biological age')),
  );
}

/** Per scored domain: the measured inputs that move it most from peers, what unmeasured inputs could change, and what reaching the optimal range would change. */
export function driversSection(scores: readonly DiseaseScore[]): HTMLElement | undefined {
  const scored = scores.filter((score) => score.status === 'scored');
  if (scored.length === 0) return undefined;
  return h(
    'section',
    { 'aria-label': 'What drives the results' },
    h('h3', {}, 'What drives the results'),
    h(
      'ul',
      { class: 'grid plain drivers' },
      scored.map((score) =>
        h(
          'li',
          { class: 'card', 'data-drivers': score.disease_code },
          h('h4', {}, score.disease_name),
          h('p', { class: 'muted small' }, 'Largest effects against peers'),
          attributions(score),
          notMeasured(score),
          h('p', { class: 'muted small' }, 'Improvement opportunities'),
          opportunities(score),
        ),
      ),
    ),
  );
}
