import { BATCH_LIMITS } from '../../../functions/scoring/batch-limits';
import { BatchResponseSchema } from '../../../functions/scoring/batch-schemas';
import { fullPanel, predictor } from '../../unit/scoring/fixtures';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime';

let hale: TestRuntime;
beforeAll(async () => {
  hale = await startTestRuntime();
});
afterAll(() => hale.stop());

const METADATA = { event_id: '0b7f3c1e-5d2a-4a8e-9c41-7f2e1d3b6a90', event_asof_dtutc: '2026-11-22T00:00:00Z', mode: 'validate_and_score' };
const person = (uid: string, predictors = fullPanel()) => ({ uid_ext: uid, date_of_birth: '1970-02-01', score_date: '2025-05-01', predictors });

describe('POST /health-score/batch through the local runtime', () => {
  it('scores each person in request order, with per-person status and errors', async () => {
    const response = await hale.post('/health-score/batch', {
      scoring_event_metadata: METADATA,
      persons: [person('first'), person('broken', [predictor('76689-9', 'unknown')]), person('last')],
    });
    expect(response.status).toBe(200);
    const body = BatchResponseSchema.parse(response.json());
    expect(body.batch_results.map((r) => [r.uid_ext, r.status])).toEqual([
      ['first', 'scored'],
      ['broken', 'invalid'],
      ['last', 'scored'],
    ]);
    expect(body.batch_results[0]!.disease_scores).toHaveLength(6);
    expect(body.batch_results[1]!.errors.length).toBeGreaterThan(0);
  });

  it('answers 413 naming the bulk API for more than 100 persons or more than 1 MB', async () => {
    const many = await hale.post('/health-score/batch', { scoring_event_metadata: METADATA, persons: Array.from({ length: 101 }, (_, i) => person(`p${i}`)) });
    expect(many.status).toBe(413);
    expect(many.json().detail).toMatch(/\/health-score\/bulk/);
    const big = await hale.post('/health-score/batch', { scoring_event_metadata: METADATA, persons: [person('p')], note: 'x'.repeat(BATCH_LIMITS.maxBytes) });
    expect(big.status).toBe(413);
  });
});
