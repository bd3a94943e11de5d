import { DEMO_LIMITS } from '../../functions/routes';
import { startTestRuntime, type TestResponse, type TestRuntime } from './helpers/runtime';

/**
 * The reference-data group's usage plan (spec §8: 50 requests/second and 1,000/day per key), as the
 * local gateway applies it before any handler runs. The gateway's clock is driven by the test.
 */
describe('reference group rate limits', () => {
  let now = Date.parse('2026-03-01T12:00:00.000Z');
  let hale: TestRuntime;
  beforeAll(async () => {
    hale = await startTestRuntime({ clock: () => now });
  });
  afterAll(() => hale.stop());

  const referenceRequests = [
    (apiKey: string) => hale.get('/reference-data/', { apiKey }),
    (apiKey: string) => hale.get('/top-disease-predictors/', { apiKey }),
    (apiKey: string) => hale.get('/lab-ranges/?sex=female', { apiKey }),
    (apiKey: string) => hale.post('/predictor-statistics/', {}, { apiKey }),
  ];
  const burst = (apiKey: string, count: number): Promise<TestResponse[]> =>
    Promise.all(Array.from({ length: count }, (_, i) => referenceRequests[i % referenceRequests.length]!(apiKey)));

  it('answers 429 with Retry-After after 50 requests within one second, across the group', async () => {
    const responses = await burst(hale.apiKey, 60);
    const limited = responses.filter((res) => res.status === 429);
    expect(limited).toHaveLength(10);
    expect(responses.filter((res) => res.status !== 429)).toHaveLength(50);
    for (const res of limited) {
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.json()).toEqual({ detail: expect.any(String), retry_after_seconds: 1 });
    }
  });

  it('leaves another key and the routes outside the group unaffected', async () => {
    const other = await burst(hale.otherApiKey, 10);
    expect(other.every((res) => res.status !== 429)).toBe(true);
    const ping = await hale.get('/ping', { apiKey: hale.apiKey });
    expect(ping.status).toBe(200);
  });

  it('lets the key in again once the second has passed', async () => {
    expect((await hale.get('/reference-data/')).status).toBe(429);
    now += 1_000;
    expect((await hale.get('/reference-data/')).status).not.toBe(429);
  });

  it('stops a key at 1,000 requests a day and lets it in again after midnight UTC', async () => {
    // A thousand requests: the group's cheapest (a conditional GET answered 304 without a body) keeps
    // the test about the gateway's count, not about serialising reference data on a busy machine.
    const etag = (await hale.get('/top-disease-predictors/')).headers.get('etag')!;
    const notModified = (apiKey: string) => hale.get('/top-disease-predictors/', { apiKey, headers: { 'if-none-match': etag } });
    now = Date.parse('2026-03-02T23:59:00.000Z');
    const key = hale.otherApiKey;
    let accepted = 0;
    for (let second = 0; second < 20; second += 1) {
      const responses = await Promise.all(Array.from({ length: 50 }, () => notModified(key)));
      expect(responses.every((res) => res.status === 304 || res.status === 429)).toBe(true);
      accepted += responses.filter((res) => res.status !== 429).length;
      now += 1_000;
    }
    expect(accepted).toBe(1_000);
    const refused = await hale.get('/reference-data/', { apiKey: key });
    expect(refused.status).toBe(429);
    // Midnight is 40 s after 23:59:20 (AWS, whose gateway responses are static, says 3600).
    expect(refused.headers.get('retry-after')).toBe('40');
    expect(refused.json()).toEqual({ detail: expect.stringContaining('00:00 UTC'), retry_after_seconds: 40 });
    expect((await hale.get('/reference-data/', { apiKey: hale.apiKey })).status).not.toBe(429);

    now = Date.parse('2026-03-03T00:00:01.000Z');
    expect((await hale.get('/reference-data/', { apiKey: key })).status).not.toBe(429);
  });
});

/**
 * The widget demo's data route (GET /demo/data) is anonymous and limited on its own: one bucket of
 * DEMO_LIMITS for all its callers (method throttling on AWS), never a customer key's usage plan.
 */
describe('demo data route limits', () => {
  let now = Date.parse('2026-03-01T12:00:00.000Z');
  let hale: TestRuntime;
  beforeAll(async () => {
    hale = await startTestRuntime({ clock: () => now, referenceLimits: { perDay: 3 } });
  });
  afterAll(() => hale.stop());

  it('answers the scored demo person without an API key', async () => {
    const res = await hale.get('/demo/data', { apiKey: null });
    expect(res.status).toBe(200);
    const data = res.json<{ scoring: { uid_ext: string; scoring_results: unknown[] }; predictorStats: { predictor_statistics: unknown[] } }>();
    expect(data.scoring.uid_ext).toBe('demo-person');
    expect(data.scoring.scoring_results).toHaveLength(4);
    expect(data.predictorStats.predictor_statistics.length).toBeGreaterThan(10);
  });

  it(`allows ${DEMO_LIMITS.requestsPerSecond} requests a second across all callers, keyed or not, then 429 until the second has passed`, async () => {
    now += 1_000;
    const count = DEMO_LIMITS.requestsPerSecond + 5;
    const responses = await Promise.all(Array.from({ length: count }, (_, i) => hale.get('/demo/data', { apiKey: i % 2 === 0 ? null : hale.apiKey })));
    expect(responses.filter((res) => res.status === 200)).toHaveLength(DEMO_LIMITS.requestsPerSecond);
    const limited = responses.filter((res) => res.status === 429);
    expect(limited).toHaveLength(5);
    for (const res of limited) {
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.json()).toEqual({ detail: expect.any(String), retry_after_seconds: 1 });
    }
    now += 1_000;
    expect((await hale.get('/demo/data', { apiKey: null })).status).toBe(200);
  });

  it("never spends a customer key's quota, and a key's limits never block the demo", async () => {
    now += 1_000;
    // The key's reference quota is 3 a day here: the demo requests sent with it above took none of it.
    for (let i = 0; i < 3; i += 1) expect((await hale.get('/top-disease-predictors/')).status).toBe(200);
    expect((await hale.get('/top-disease-predictors/')).status).toBe(429);
    expect((await hale.get('/demo/data')).status).toBe(200);
  });
});
