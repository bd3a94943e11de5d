import { h } from '../dom';
import { decimal, displayDate } from '../format';
import type { ScoringInput, ScoringResult } from '../input';

export function headerSection(scoring: ScoringInput, latest: ScoringResult, dates: number, reportName: string | undefined, titleId: string): HTMLElement {
  return h(
    'header',
    {},
    h('div', {}, h('h2', { id: titleId }, reportName?.trim() || 'Health report'), h('p', { class: 'latest' }, `Results of ${displayDate(latest.scoring_event_date)} · age ${decimal(latest.scoring_event_age)}`)),
    h('p', { class: 'muted small' }, `${dates} ${dates === 1 ? 'date' : 'dates'} scored · model version ${scoring.scoring_version}`),
  );
}
