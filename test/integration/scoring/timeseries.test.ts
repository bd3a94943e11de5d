import { TimeseriesResponseSchema, TopDiseasePredictorsResponseSchema } from '../../../functions/scoring/schemas';
import { SCORING_VERSION } from '../../../functions/scoring/version';
import { fullPanel, predictor, timeseriesRequest } from '../../unit/scoring/fixtures';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime';

let hale: TestRuntime;
beforeAll(async () => {
  hale = await startTestRuntime();
});
afterAll(() => hale.stop());

describe('POST /health-score/timeseries through the local runtime', () => {
  it('scores a multi-event, multi-date history with carry-forward, derivations and trends', async () => {
    const request = timeseriesRequest({
      date_of_birth: '1968-05-20',
      dates_to_score: ['2023-06-01', '2024-06-15', '2025-06-15'],
      health_events: [
        { health_event_id: 'annual-2023', health_event_date: '2023-06-01', predictors: fullPanel({ '8480-6': ['146', 'mmHg'], '72166-2': ['yes', ''] }) },
        { health_event_id: 'bp-check', health_event_date: '2024-01-10', predictors: [predictor('8480-6', '138', 'mmHg')] },
        {
          health_event_id: 'annual-2024',
          health_event_date: '2024-06-15',
          predictors: [
            predictor('2093-3', '5.2', 'mmol/L'),
            predictor('2085-9', '1.3', 'mmol/L'),
            predictor('2160-0', '84', 'umol/L'),
            predictor('29463-7', '86', 'kg'),
            predictor('72166-2', '8517006'),
          ],
        },
        { health_event_id: 'annual-2025', health_event_date: '2025-06-15', predictors: [predictor('8480-6', '124', 'mmHg'), predictor('2093-3', '182', 'mg/dL')] },
      ],
    });
    const response = await hale.post('/health-score/timeseries', request);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const body = TimeseriesResponseSchema.parse(response.json());
    expect(body.scoring_version).toBe(SCORING_VERSION);
    expect(body.scoring_results.map((r) => r.scoring_event_date)).toEqual(request.dates_to_score);
    expect(body.scoring_results.map((r) => r.scoring_event_age)).toEqual([55.03, 56.07, 57.07]);

    const [y2023, y2024, y2025] = body.scoring_results;
    const input = (result: typeof y2023, key: string) => result!.scoring_predictors.find((p) => p.predictor === key)!;
    expect(input(y2024, 'sbp')).toEqual(expect.objectContaining({ imputation_code: 'carried_forward', value: 138, source_date: '2024-01-10', age_days: 157 }));
    expect(input(y2024, 'total_cholesterol')).toEqual(expect.objectContaining({ imputation_code: 'measured', value: 201.058 }));
    expect(input(y2024, 'bmi')).toEqual(expect.objectContaining({ imputation_code: 'derived' }));
    expect(input(y2024, 'smoking')).toEqual(expect.objectContaining({ imputation_code: 'measured', value: 0 }));
    expect(input(y2025, 'albumin')).toEqual(expect.objectContaining({ imputation_code: 'imputed', value: null }));

    const cvd = body.scoring_results.map((r) => r.disease_scores.find((d) => d.disease_code === 'cardiovascular')!);
    // Quitting smoking and a lower blood pressure lower the cardiovascular risk year on year.
    expect(cvd[1]!.risk_ratios[0]!.risk!).toBeLessThan(cvd[0]!.risk_ratios[0]!.risk!);
    expect(cvd[2]!.risk_ratios[0]!.risk!).toBeLessThan(cvd[1]!.risk_ratios[0]!.risk!);
    expect(cvd[0]!.improvement_opportunities.map((o) => o.predictor)).toEqual(expect.arrayContaining(['smoking', 'sbp']));
    expect(y2023!.disease_scores.every((d) => d.status === 'scored')).toBe(true);
    expect(body.warnings).toEqual([]);
  });

  it('answers 422 {detail} naming the event, predictor and reason', async () => {
    const request = timeseriesRequest({
      health_events: [{ health_event_id: 'e1', health_event_date: '2025-03-01', predictors: [...fullPanel(), predictor('8480-6', '128', 'kg')] }],
    });
    const response = await hale.post('/health-score/timeseries', request);
    expect(response.status).toBe(422);
    expect(response.json<{ detail: string }>().detail).toMatch(/event 'e1', predictor 8480-6: unit 'kg' cannot be converted to mm\[Hg\]/);
  });

  it('needs an API key', async () => {
    expect((await hale.post('/health-score/timeseries', timeseriesRequest(), { apiKey: null })).status).toBe(401);
  });
});

describe('GET /top-disease-predictors/ through the local runtime', () => {
  it('serves the ranking with an ETag and 304s', async () => {
    const first = await hale.get('/top-disease-predictors/');
    expect(first.status).toBe(200);
    const body = TopDiseasePredictorsResponseSchema.parse(first.json());
    expect(body.top_disease_predictors).toHaveLength(6);
    const etag = first.headers.get('etag')!;
    expect((await hale.get('/top-disease-predictors/', { headers: { 'if-none-match': etag } })).status).toBe(304);
  });
});
