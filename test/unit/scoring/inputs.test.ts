import { ValidationError } from '../../../functions/http/errors';
import { analyseTimeline, scoreTimeseries } from '../../../functions/scoring/engine';
import { fullPanel, predictor, timeseriesRequest } from './fixtures';

function issuesOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.issues;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('input handling', () => {
  // mmol/L = mg/dL × 10 / molecular weight (catalogue: cholesterol 386.65, creatinine 113.12, glucose 180.156, triolein 885.7).
  it('gives identical scores for mg/dL and mmol/L (and µmol/L, g/L, 10*9/L) inputs', () => {
    const us = scoreTimeseries(timeseriesRequest());
    const si = scoreTimeseries(
      timeseriesRequest({
        health_events: [
          {
            health_event_id: 'e1',
            health_event_date: '2025-03-01',
            predictors: fullPanel({
              '2093-3': [String((195 * 10) / 386.65), 'mmol/L'],
              '2085-9': [String((48 * 10) / 386.65), 'mmol/L'],
              '2160-0': [String((1.0 * 10_000) / 113.12), 'umol/L'],
              '2345-7': [String((98 * 10) / 180.156), 'mmol/L'],
              '1558-6': [String((98 * 10) / 180.156), 'mmol/L'],
              '2571-8': [String((130 * 10) / 885.7), 'mmol/L'],
              '1751-7': ['43', 'g/L'],
              '6690-2': ['6.4', '10*9/L'],
              '777-3': ['230', 'K/uL'],
            }),
          },
        ],
      }),
    );
    expect(si.scoring_results).toEqual(us.scoring_results);
  });

  it('ignores unknown codes with a warning naming event and code', () => {
    const response = scoreTimeseries(
      timeseriesRequest({
        health_events: [{ health_event_id: 'visit-7', health_event_date: '2025-03-01', predictors: [...fullPanel(), predictor('99999-9', '3', 'mg/dL')] }],
      }),
    );
    expect(response.warnings).toEqual([
      expect.objectContaining({ code: 'unknown_observation_code', health_event_id: 'visit-7', observation_code: '99999-9' }),
    ]);
    expect(response.scoring_results[0]!.disease_scores.every((d) => d.status === 'scored')).toBe(true);
  });

  it('rejects a non-numeric value, an unconvertible unit and an out-of-bounds value with paths naming each', () => {
    const request = timeseriesRequest({
      health_events: [
        { health_event_id: 'e1', health_event_date: '2025-01-01', predictors: fullPanel() },
        { health_event_id: 'e2', health_event_date: '2025-02-01', predictors: [predictor('2093-3', 'high', 'mg/dL'), predictor('2085-9', '50', 'kg')] },
        { health_event_id: 'e3', health_event_date: '2025-03-01', predictors: [predictor('2345-7', '5.5', 'mg/dL')] },
      ],
    });
    const issues = issuesOf(() => scoreTimeseries(request));
    expect(issues.map((i) => i.path)).toEqual([
      'body.health_events.1.predictors.0.value',
      'body.health_events.1.predictors.1.unit',
      'body.health_events.2.predictors.0.value',
    ]);
    expect(issues[0]!.message).toMatch(/event 'e2', predictor 2093-3: Total cholesterol value 'high' is not a number/);
    expect(issues[1]!.message).toMatch(/'kg' cannot be converted to mg\/dL/);
    expect(issues[2]!.message).toMatch(/event 'e3'.*Glucose 5\.5 mg\/dL is outside the accepted range \(19\.5–1252 mg\/dL\)/);
  });

  it('requires sex and rejects contradicting sex values', () => {
    const noSex = fullPanel().filter((p) => p.observation_code !== '76689-9');
    expect(issuesOf(() => scoreTimeseries(timeseriesRequest({ health_events: [{ health_event_id: 'e1', health_event_date: '2025-03-01', predictors: noSex }] })))[0]!.message).toMatch(/sex is required/);
    const contradicting = [...fullPanel(), predictor('76689-9', 'female')];
    expect(issuesOf(() => analyseTimeline({ events: [{ eventId: 'e1', age: 50, date: null, predictors: contradicting }], points: [{ age: 50, date: null }] }))[0]!.message).toMatch(/contradicts/);
  });

  it('in `score` mode drops invalid predictors with a warning; in `validate` mode returns no results', () => {
    const events = [{ health_event_id: 'e1', health_event_date: '2025-03-01', predictors: [...fullPanel(), predictor('8480-6', 'n/a', 'mmHg')] }];
    const meta = timeseriesRequest().scoring_event_metadata;
    const scored = scoreTimeseries(timeseriesRequest({ health_events: events, scoring_event_metadata: { ...meta, mode: 'score' } }));
    expect(scored.warnings).toContainEqual(
      expect.objectContaining({ code: 'invalid_predictor_dropped', health_event_id: 'e1', observation_code: '8480-6', message: expect.stringMatching(/'n\/a' is not a number/) }),
    );
    expect(scored.scoring_results).toHaveLength(1);
    const valid = scoreTimeseries(timeseriesRequest({ scoring_event_metadata: { ...meta, mode: 'validate' } }));
    expect(valid.scoring_results).toEqual([]);
    expect(() => scoreTimeseries(timeseriesRequest({ health_events: events, scoring_event_metadata: { ...meta, mode: 'validate' } }))).toThrow(ValidationError);
  });

  it('accepts censored values (<0.3) at the limit with a warning, and binary inputs as yes/no, 1/0 and SNOMED smoking codes', () => {
    const response = scoreTimeseries(
      timeseriesRequest({
        health_events: [{ health_event_id: 'e1', health_event_date: '2025-03-01', predictors: fullPanel({ '30522-7': ['<0.3', 'mg/L'], '72166-2': ['449868002', ''], '308116003': ['1', ''] }) }],
      }),
    );
    expect(response.warnings.map((w) => w.code)).toEqual(['censored_value']);
    const used = response.scoring_results[0]!.scoring_predictors;
    expect(used.find((p) => p.predictor === 'crp')?.value).toBe(0.3);
    expect(used.find((p) => p.predictor === 'smoking')?.value).toBe(1);
    expect(used.find((p) => p.predictor === 'bp_treatment')?.value).toBe(1);
  });

  it('rejects dates before the date of birth', () => {
    expect(issuesOf(() => scoreTimeseries(timeseriesRequest({ dates_to_score: ['1960-01-01'] })))[0]!.path).toBe('body.dates_to_score.0');
  });
});

describe('request checks (issue 14 item 8): 422 naming the field', () => {
  const meta = timeseriesRequest().scoring_event_metadata;
  const scoreMode = { ...meta, mode: 'score' as const };

  it('refuses a date of birth more than 120 years before a date to score (1800-01-01)', () => {
    const issues = issuesOf(() => scoreTimeseries(timeseriesRequest({ date_of_birth: '1800-01-01' })));
    expect(issues).toEqual([{ path: 'body.date_of_birth', message: expect.stringMatching(/more than 120 years before the date to score 2025-03-01/) }]);
    // 120 years to the day is still a person.
    expect(() => scoreTimeseries(timeseriesRequest({ date_of_birth: '1905-03-02', health_events: [{ health_event_id: 'e1', health_event_date: '2025-03-01', predictors: fullPanel() }] }))).not.toThrow();
  });

  it('refuses dates to score and event dates after event_asof_dtutc (2099)', () => {
    const issues = issuesOf(() =>
      scoreTimeseries(
        timeseriesRequest({
          dates_to_score: ['2025-03-01', '2099-01-01'],
          health_events: [
            { health_event_id: 'e1', health_event_date: '2025-03-01', predictors: fullPanel() },
            { health_event_id: 'e2', health_event_date: '2099-01-01', predictors: [predictor('2093-3', '200', 'mg/dL')] },
          ],
        }),
      ),
    );
    // 2099 is also more than 120 years after this date of birth: that is named too.
    expect(issues.map((i) => i.path)).toEqual(['body.dates_to_score.1', 'body.date_of_birth', 'body.health_events.1.health_event_date']);
    expect(issues[0]!.message).toMatch(/after event_asof_dtutc \(2026-11-22\)/);
    // The as-of date itself is not in the future, whatever its offset.
    const sameDay = timeseriesRequest({ scoring_event_metadata: { ...meta, event_asof_dtutc: '2025-03-01T00:00:00+05:00' } });
    expect(() => scoreTimeseries(sameDay)).not.toThrow();
  });

  it('refuses a date to score given twice', () => {
    const issues = issuesOf(() => scoreTimeseries(timeseriesRequest({ dates_to_score: ['2025-03-01', '2025-03-01'] })));
    expect(issues).toEqual([{ path: 'body.dates_to_score.1', message: expect.stringMatching(/also body\.dates_to_score\.0/) }]);
  });

  it('refuses repeated event and predictor ids, in every mode', () => {
    const panel = fullPanel();
    const events = [
      { health_event_id: 'visit', health_event_date: '2025-01-01', predictors: panel },
      { health_event_id: 'visit', health_event_date: '2025-03-01', predictors: [{ ...predictor('2093-3', '200', 'mg/dL'), id: panel[3]!.id }] },
    ];
    const issues = issuesOf(() => scoreTimeseries(timeseriesRequest({ health_events: events, scoring_event_metadata: scoreMode })));
    expect(issues.map((i) => i.path)).toEqual(['body.health_events.1.health_event_id', 'body.health_events.1.predictors.0.id']);
    expect(issues[0]!.message).toMatch(/Event id 'visit' is used twice \(first at body\.health_events\.0\.health_event_id\)/);
  });

  it('refuses two different values of one code on one date, across events or within one, after unit conversion', () => {
    const events = [
      { health_event_id: 'a', health_event_date: '2025-03-01', predictors: fullPanel() },
      { health_event_id: 'b', health_event_date: '2025-03-01', predictors: [predictor('2093-3', '240', 'mg/dL')] },
    ];
    const issues = issuesOf(() => scoreTimeseries(timeseriesRequest({ health_events: events })));
    expect(issues).toEqual([{ path: 'body.health_events.1.predictors.0.value', message: expect.stringMatching(/different value at body\.health_events\.0\.predictors\.\d+\.value for the same date/) }]);
    const within = [...fullPanel(), predictor('2085-9', '60', 'mg/dL')];
    expect(issuesOf(() => scoreTimeseries(timeseriesRequest({ health_events: [{ health_event_id: 'a', health_event_date: '2025-03-01', predictors: within }] })))[0]!.path).toBe(
      `body.health_events.0.predictors.${within.length - 1}.value`,
    );
    // In mode `score` the second value is dropped with a warning and the first one scores.
    const scored = scoreTimeseries(timeseriesRequest({ health_events: events, scoring_event_metadata: scoreMode }));
    expect(scored.warnings).toContainEqual(expect.objectContaining({ code: 'invalid_predictor_dropped', health_event_id: 'b', observation_code: '2093-3' }));
    expect(scored.scoring_results[0]!.scoring_predictors.find((p) => p.predictor === 'total_cholesterol')!.value).toBe(195);
  });

  it('counts the same value given twice for one date once, with a warning (195 mg/dL = 5.0433 mmol/L)', () => {
    const events = [
      { health_event_id: 'a', health_event_date: '2025-03-01', predictors: fullPanel() },
      { health_event_id: 'b', health_event_date: '2025-03-01', predictors: [predictor('2093-3', String((195 * 10) / 386.65), 'mmol/L')] },
    ];
    const response = scoreTimeseries(timeseriesRequest({ health_events: events }));
    expect(response.warnings).toEqual([expect.objectContaining({ code: 'duplicate_value', health_event_id: 'b', observation_code: '2093-3' })]);
  });

  it('enforces for fasting glucose the range it documents: the one range of glucose (docs/accepted-ranges.md)', () => {
    const panel = (mgdl: string) => fullPanel({ '1558-6': [mgdl, 'mg/dL'], '2345-7': [mgdl, 'mg/dL'] });
    const at = (mgdl: string) => () => scoreTimeseries(timeseriesRequest({ health_events: [{ health_event_id: 'e1', health_event_date: '2025-03-01', predictors: panel(mgdl) }] }));
    expect(at('1000')).not.toThrow();
    expect(at('1252')).not.toThrow();
    const glucoseRows = panel('1').flatMap((p, j) => (['1558-6', '2345-7'].includes(p.observation_code) ? [`body.health_events.0.predictors.${j}.value`] : []));
    expect(issuesOf(at('1253')).map((i) => i.path)).toEqual(glucoseRows);
    expect(issuesOf(at('19')).map((i) => i.path)).toEqual(glucoseRows);
  });
});
