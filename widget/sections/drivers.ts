import { h } from '../dom';
import { decimal, measurement, peerValue, signed, withUnit } from '../format';
import type { DiseaseScore } from '../input';

const SHOWN = 3;

function effect(years: number | null): HTMLElement | string {
  if (years === null) return '';
  return h('span', { class: years > 0 ? 'bad' : 'good' }, `${signed(years)} ${decimal(Math.abs(years)) === '1' ? 'year' : 'years'}`);
}

function attributions(score: DiseaseScore): HTMLElement {
  const top = [...score.predictor_attributions]
    .filter((a) => a.disease_age_years !== null && a.disease_age_years !== 0)
    .sort((a, b) => Math.abs(b.disease_age_years!) - Math.abs(a.disease_age_years!))
    .slice(0, SHOWN);
  if (top.length === 0) return h('p', { class: 'small muted' }, 'No input moves this score away from peers.');
  return h(
    'ul',
    { class: 'small' },
    top.map((a) =>
      h(
        'li',
        {},
        `${a.name}${a.value === null ? '' : ` ${withUnit(a.value, a.unit)}`}${a.peer_value === null ? '' : ` (peers ${peerValue(a.peer_value, a.unit)})`}: `,
        effect(a.disease_age_years),
      ),
    ),
  );
}

function opportunities(score: DiseaseScore): HTMLElement {
  const top = [...score.improvement_opportunities]
    .sort((a, b) => (a.disease_age_change ?? 0) - (b.disease_age_change ?? 0))
    .slice(0, SHOWN);
  if (top.length === 0) return h('p', { class: 'small muted' }, 'No improvement opportunities listed.');
  return h(
    'ul',
    { class: 'small' },
    top.map((o) =>
      h('li', {}, `${o.name} ${o.unit === '' ? withUnit(o.current_value, '') : measurement(o.current_value)} → ${withUnit(o.target_value, o.unit)}: `, effect(o.disease_age_change), o.disease_age_change === null ? '' : ' of biological age'),
    ),
  );
}

/** Per scored domain: the inputs that move it most from peers, and what reaching the optimal range would change. */
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
          h('p', { class: 'muted small' }, 'Improvement opportunities'),
          opportunities(score),
        ),
      ),
    ),
  );
}
