import { ValidationError } from '../../../functions/http/errors';
import { scoreReport, validateReportEvents } from '../../../functions/report/score-report';
import { reportTimeline } from '../../../functions/report/timeline';
import { scoreTimeseries } from '../../../functions/scoring/engine';
import { fullPanel, predictor, timeseriesRequest } from '../scoring/fixtures';

const event = (id: string, age: number, predictors = fullPanel()) => ({ health_event_id: id, event_age: age, predictors });

function issuesOf(run: () => void) {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.issues;
    throw error;
  }
  return [];
}

describe('report timeline', () => {
  it('keeps the request order for issue paths and scores each distinct age once, undated', () => {
    const timeline = reportTimeline([event('b', 52.25), event('a', 48), event('c', 52.25)]);
    expect(timeline.events.map((e) => e.eventId)).toEqual(['b', 'a', 'c']);
    expect(timeline.events.every((e) => e.date === null)).toBe(true);
    expect(timeline.points).toEqual([
      { age: 48, date: null },
      { age: 52.25, date: null },
    ]);
  });
});

describe('report scoring', () => {
  it('scores with the timeseries engine: the same figures for the same person and age', () => {
    const request = timeseriesRequest({ dates_to_score: ['2025-03-01'], date_of_birth: '1970-03-01' });
    const timeseries = scoreTimeseries(request).scoring_results[0]!;
    // The timeseries endpoint turns dates into ages in years of 365.25 days; a report sends that age.
    const age = (Date.parse('2025-03-01') - Date.parse('1970-03-01')) / 86_400_000 / 365.25;
    const report = scoreReport({ variant: 'full', uid_ext: 'u', event_asof_dtutc: '2026-01-01T00:00:00Z', health_events: [event('e1', age, request.health_events[0]!.predictors)] });
    expect(report.results).toHaveLength(1);
    expect(report.results[0]!.scoring_event_date).toBeNull();
    expect(report.results[0]!.disease_scores.map((s) => [s.disease_code, s.health_score, s.disease_age])).toEqual(
      timeseries.disease_scores.map((s) => [s.disease_code, s.health_score, s.disease_age]),
    );
  });

  it('refuses at request time an event set without sex, naming the events field', () => {
    const withoutSex = fullPanel().filter((p) => p.observation_code !== '76689-9');
    expect(issuesOf(() => validateReportEvents('full', [event('e1', 50, withoutSex)]))[0]?.path).toBe('body.health_events');
  });

  it('names the condensed event field without an array index', () => {
    const bad = [...fullPanel(), predictor('2345-7', 'abc', 'mg/dL')];
    const paths = issuesOf(() => validateReportEvents('condensed', [event('e1', 50, bad)])).map((i) => i.path);
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path).toMatch(/^body\.health_event\.predictors\.\d+/);
  });

  it('refuses repeated event and predictor ids and two values of one code at one age (issue 14 item 8)', () => {
    const first = fullPanel();
    const second = [{ ...predictor('2093-3', '240', 'mg/dL'), id: first[0]!.id }];
    const paths = issuesOf(() => validateReportEvents('full', [event('e1', 50, first), event('e1', 50, second)])).map((i) => i.path);
    expect(paths).toEqual(['body.health_events.1.health_event_id', 'body.health_events.1.predictors.0.id']);
    const conflicting = issuesOf(() => validateReportEvents('full', [event('e1', 50, fullPanel()), event('e2', 50, [predictor('2093-3', '240', 'mg/dL')])]));
    expect(conflicting).toEqual([{ path: 'body.health_events.1.predictors.0.value', message: expect.stringMatching(/different value at body\.health_events\.0\.predictors\.\d+\.value for the same date/) }]);
    // The condensed event holds one event: its repeated predictor id is named without an array index.
    const doubled = [...fullPanel(), { ...predictor('2085-9', '48', 'mg/dL'), id: 'same' }, { ...predictor('8480-6', '128', 'mmHg'), id: 'same' }];
    expect(issuesOf(() => validateReportEvents('condensed', [event('e1', 50, doubled)])).map((i) => i.path)).toContain(`body.health_event.predictors.${doubled.length - 1}.id`);
  });
});
