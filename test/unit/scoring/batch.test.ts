import fc from 'fast-check';
import { BATCH_LIMITS } from '../../../functions/scoring/batch-limits';
import { BatchResponseSchema } from '../../../functions/scoring/batch-schemas';
import { handler as batch } from '../../../functions/scoring/batch-handler';
import { scoreTimeseries } from '../../../functions/scoring/engine';
import type { PredictorInput } from '../../../functions/scoring/schemas';
import { apiGatewayEvent, lambdaContext } from '../http/api-gateway-event';
import { fullPanel, predictor } from './fixtures';

const METADATA = { event_id: '0b7f3c1e-5d2a-4a8e-9c41-7f2e1d3b6a90', event_asof_dtutc: '2026-11-22T00:00:00Z', mode: 'validate_and_score' as const };

const post = (body: unknown) => batch(apiGatewayEvent({ apiKeyId: 'key-1', body: typeof body === 'string' ? body : JSON.stringify(body) }), lambdaContext);

function person(uid: string, overrides: Partial<{ date_of_birth: string; score_date: string; predictors: PredictorInput[] }> = {}) {
  return { uid_ext: uid, date_of_birth: '1968-04-02', score_date: '2025-03-01', predictors: fullPanel(), ...overrides };
}

/** The timeseries request a batch person stands for: one event on the score date, that date scored. */
function asTimeseries(p: ReturnType<typeof person>) {
  return {
    scoring_event_metadata: METADATA,
    uid_ext: p.uid_ext,
    date_of_birth: p.date_of_birth,
    dates_to_score: [p.score_date],
    health_events: [{ health_event_id: p.score_date, health_event_date: p.score_date, predictors: p.predictors }],
  };
}

async function scoreAll(persons: unknown[]) {
  const response = await post({ scoring_event_metadata: METADATA, persons });
  expect(response.statusCode).toBe(200);
  return BatchResponseSchema.parse(JSON.parse(response.body));
}

describe('POST /health-score/batch', () => {
  it('answers each person exactly as the timeseries endpoint scores the same history at that date', async () => {
    const alice = person('alice', { predictors: fullPanel({ '76689-9': ['female', ''], '8480-6': ['142', 'mm[Hg]'] }) });
    const bob = person('bob', { date_of_birth: '1955-11-30', score_date: '2024-07-15' });
    const body = await scoreAll([alice, bob]);
    expect(body.batch_results.map((r) => r.uid_ext)).toEqual(['alice', 'bob']);
    for (const [i, p] of [alice, bob].entries()) {
      const timeseries = scoreTimeseries(asTimeseries(p));
      const [result] = timeseries.scoring_results;
      expect(body.batch_results[i]).toEqual({
        uid_ext: p.uid_ext,
        status: 'scored',
        errors: [],
        warnings: timeseries.warnings,
        scoring_event_date: result!.scoring_event_date,
        scoring_event_age: result!.scoring_event_age,
        disease_scores: result!.disease_scores,
        scoring_predictors: result!.scoring_predictors,
      });
    }
    expect(body.scoring_version).toBe(scoreTimeseries(asTimeseries(alice)).scoring_version);
  });

  it('reports a bad person as invalid with its own errors, in its place, and scores the others', async () => {
    const bad = person('bad', { predictors: [...fullPanel(), predictor('2160-0', '12,5', 'mg/dL')] });
    const unborn = person('unborn', { date_of_birth: '2025-06-01' });
    const body = await scoreAll([person('a'), bad, 'not a person', unborn, { uid_ext: 7 }, person('z')]);
    expect(body.batch_results.map((r) => [r.uid_ext, r.status])).toEqual([
      ['a', 'scored'],
      ['bad', 'invalid'],
      [null, 'invalid'],
      ['unborn', 'invalid'],
      [null, 'invalid'],
      ['z', 'scored'],
    ]);
    const [, badResult, notObject, unbornResult, noFields] = body.batch_results;
    expect(badResult!.errors).toEqual([{ path: `predictors.${bad.predictors.length - 1}.value`, message: expect.stringMatching(/2160-0.*'12,5' is not a number/) }]);
    expect(badResult!.disease_scores).toEqual([]);
    expect(notObject!.errors).toEqual([{ path: '', message: expect.stringMatching(/must be an object/) }]);
    // The score date is the event date too; the issue is named once, on score_date.
    expect(unbornResult!.errors).toEqual([{ path: 'score_date', message: expect.stringMatching(/before date_of_birth/) }]);
    expect(noFields!.errors.map((e) => e.path).sort()).toEqual(['date_of_birth', 'predictors', 'score_date', 'uid_ext']);
  });

  it('names another predictor a message points at in the person’s terms, not the timeseries request’s', async () => {
    const panel = fullPanel();
    const twice = person('twice', { predictors: [...panel, { ...predictor('2160-0', '1.1', 'mg/dL'), id: panel[0]!.id }] });
    const [result] = (await scoreAll([twice])).batch_results;
    expect(result!.errors).toEqual([{ path: `predictors.${twice.predictors.length - 1}.id`, message: expect.stringMatching(/is used twice \(first at predictors\.0\.id\)/) }]);
  });

  it('drops an invalid predictor with a warning in score mode', async () => {
    const response = await post({
      scoring_event_metadata: { ...METADATA, mode: 'score' },
      persons: [person('p', { predictors: [...fullPanel(), predictor('2093-3', 'high', 'mg/dL')] })],
    });
    const [result] = BatchResponseSchema.parse(JSON.parse(response.body)).batch_results;
    expect(result!.status).toBe('scored');
    expect(result!.warnings).toEqual([expect.objectContaining({ code: 'invalid_predictor_dropped', observation_code: '2093-3' })]);
  });

  it('answers 413 naming the bulk API beyond 100 persons or 1 MB, and 422 for a bad envelope', async () => {
    const many = await post({ scoring_event_metadata: METADATA, persons: Array.from({ length: BATCH_LIMITS.maxPersons + 1 }, (_, i) => person(`p${i}`)) });
    expect(many.statusCode).toBe(413);
    expect(JSON.parse(many.body).detail).toMatch(/POST \/health-score\/bulk/);
    const padding = 'x'.repeat(BATCH_LIMITS.maxBytes);
    const big = await post({ scoring_event_metadata: METADATA, persons: [person('p')], padding });
    expect(big.statusCode).toBe(413);
    expect(JSON.parse(big.body).detail).toMatch(/bulk/);
    expect((await post({ scoring_event_metadata: METADATA, persons: [] })).statusCode).toBe(422);
    const validateOnly = await post({ scoring_event_metadata: { ...METADATA, mode: 'validate' }, persons: [person('p')] });
    expect(validateOnly.statusCode).toBe(422);
    expect(JSON.parse(validateOnly.body).errors).toEqual([expect.objectContaining({ path: 'body.scoring_event_metadata.mode' })]);
    expect((await post('{')).statusCode).toBe(400);
  });

  it('keeps order and lets no invalid person change another person’s result (property)', async () => {
    const reference = (await scoreAll([person('ref')])).batch_results[0]!;
    const invalidPerson = fc.oneof(
      fc.constant<unknown>(null),
      fc.string(),
      fc.record({ uid_ext: fc.string({ minLength: 1, maxLength: 5 }), score_date: fc.constant('2025-02-30') }),
      fc.constant(person('bad', { predictors: [predictor('76689-9', 'male'), predictor('2085-9', '-4', 'mg/dL')] })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constant('valid' as const), invalidPerson), { minLength: 1, maxLength: 12 }), async (kinds) => {
        const persons = kinds.map((kind, i) => (kind === 'valid' ? person(`ref-${i}`) : kind));
        const body = await scoreAll(persons);
        expect(body.batch_results).toHaveLength(persons.length);
        body.batch_results.forEach((result, i) => {
          if (kinds[i] === 'valid') expect(result).toEqual({ ...reference, uid_ext: `ref-${i}` });
          else expect(result.status).toBe('invalid');
        });
      }),
      { numRuns: 30 },
    );
  });
});
