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
});
