import { handler as topPredictors } from '../../../functions/reference/top-disease-predictors-handler';
import { DOMAINS } from '../../../functions/scoring/domains';
import { TimeseriesResponseSchema, TopDiseasePredictorsResponseSchema } from '../../../functions/scoring/schemas';
import { handler as timeseries } from '../../../functions/scoring/timeseries-handler';
import { apiGatewayEvent, lambdaContext } from '../http/api-gateway-event';
import { fullPanel, predictor, timeseriesRequest } from './fixtures';

const post = (body: unknown) => timeseries(apiGatewayEvent({ apiKeyId: 'key-1', body: JSON.stringify(body) }), lambdaContext);
const get = (headers: Record<string, string> = {}) => topPredictors(apiGatewayEvent({ apiKeyId: 'key-1', method: 'GET', headers }), lambdaContext);

describe('POST /health-score/timeseries handler', () => {
  it('answers 200 with a schema-valid response, one result per date, echoing metadata', async () => {
    const request = timeseriesRequest({ dates_to_score: ['2025-03-01', '2025-09-01'] });
    const response = await post(request);
    expect(response.statusCode).toBe(200);
    const body = TimeseriesResponseSchema.parse(JSON.parse(response.body));
    expect(body.scoring_event_metadata).toEqual(request.scoring_event_metadata);
    expect(body.uid_ext).toBe('user-123');
    expect(body.scoring_results.map((r) => r.scoring_event_date)).toEqual(['2025-03-01', '2025-09-01']);
  });

  it('answers 422 {detail, errors} naming event, predictor and reason for a bad value', async () => {
    const request = timeseriesRequest({
      health_events: [{ health_event_id: 'lab-2', health_event_date: '2025-03-01', predictors: [...fullPanel(), predictor('2160-0', '12,5', 'mg/dL')] }],
    });
    const response = await post(request);
    expect(response.statusCode).toBe(422);
    const body = JSON.parse(response.body);
    expect(body.detail).toMatch(/body\.health_events\.0\.predictors\.26\.value: event 'lab-2', predictor 2160-0: Creatinine value '12,5' is not a number/);
    expect(body.errors).toEqual([expect.objectContaining({ path: 'body.health_events.0.predictors.26.value' })]);
  });

  it('answers 422 from schema validation for a malformed request and 400 for malformed JSON', async () => {
    const response = await post({ ...timeseriesRequest(), dates_to_score: ['not-a-date'] });
    expect(response.statusCode).toBe(422);
    expect(JSON.parse(response.body).errors[0].path).toBe('body.dates_to_score.0');
    const malformed = await timeseries(apiGatewayEvent({ apiKeyId: 'key-1', body: '{' }), lambdaContext);
    expect(malformed.statusCode).toBe(400);
  });

  it('lists unknown codes in warnings', async () => {
    const request = timeseriesRequest({
      health_events: [{ health_event_id: 'e1', health_event_date: '2025-03-01', predictors: [...fullPanel(), predictor('5905-5', '7', '%')] }],
    });
    const body = JSON.parse((await post(request)).body);
    expect(body.warnings).toEqual([expect.objectContaining({ code: 'unknown_observation_code', observation_code: '5905-5', health_event_id: 'e1' })]);
  });
});

describe('GET /top-disease-predictors/ handler', () => {
  it('ranks each domain\'s model inputs with strengths that sum to 1, with observation codes', async () => {
    const response = await get();
    expect(response.statusCode).toBe(200);
    const body = TopDiseasePredictorsResponseSchema.parse(JSON.parse(response.body));
    expect(body.top_disease_predictors.map((d) => d.disease)).toEqual(DOMAINS.map((d) => d.code));
    for (const entry of body.top_disease_predictors) {
      const strengths = entry.predictors.map((p) => p.strength);
      expect(strengths.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 3);
      expect(strengths).toEqual([...strengths].sort((a, b) => b - a));
      expect(entry.predictors.map((p) => p.rank)).toEqual(entry.predictors.map((_, i) => i + 1));
      for (const p of entry.predictors) expect(p.observation_codes.length).toBeGreaterThan(0);
      const domain = DOMAINS.find((d) => d.code === entry.disease)!;
      const expected = entry.disease === 'kidney' ? ['egfr', 'uacr'] : domain.inputs;
      expect(entry.predictors.map((p) => p.predictor).sort()).toEqual([...expected].sort());
    }
    const kidney = body.top_disease_predictors.find((d) => d.disease === 'kidney')!;
    expect(kidney.predictors.find((p) => p.predictor === 'egfr')!.observation_codes).toEqual(['2160-0', '98979-8']);
  });

  it('sends a strong ETag and answers 304 to If-None-Match', async () => {
    const first = await get();
    const etag = first.headers!.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers!['cache-control']).toMatch(/max-age=\d+/);
    const second = await get({ 'If-None-Match': etag });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
  });
});
