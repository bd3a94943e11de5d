import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  LabRangeRowSchema,
  PredictorStatisticsResponseSchema,
  ReferenceDataResponseSchema,
} from '../../../functions/reference/schemas';
import { SCORING_VERSION } from '../../../functions/scoring/version';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime';

const stats = JSON.parse(readFileSync(path.resolve(__dirname, '../../../data/sources/nhanes-biomarker-stats.json'), 'utf8')) as {
  datasets: Record<string, Record<string, { strata: { sex: string; age_band: string; mean: number }[] }>>;
};

let hale: TestRuntime;
// The group's per-key limits (50/s) are the gateway's concern and tested there; these tests need headroom.
beforeAll(async () => {
  hale = await startTestRuntime({ referenceLimits: { perSecond: 10_000, perDay: 100_000 } });
});
afterAll(() => hale.stop());

const header = { event_id: '7d0f6f0e-2b1a-4a57-9b8e-5e0c2f9a1d33', event_asof_dtutc: '2026-11-22T08:30:00+01:00' };

describe('reference routes through the local runtime', () => {
  it('GET /reference-data/ serves the concepts with a strong ETag and answers 304 to it', async () => {
    const response = await hale.get('/reference-data/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const concepts = ReferenceDataResponseSchema.parse(response.json());
    expect(concepts.length).toBeGreaterThanOrEqual(187 + 9 + 5);
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(response.headers.get('cache-control')).toMatch(/max-age/);
    const again = await hale.get('/reference-data/', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('answers 401 {detail} without a key or with an unknown one', async () => {
    for (const apiKey of [null, 'not-a-key']) {
      const response = await hale.get('/reference-data/', { apiKey });
      expect(response.status).toBe(401);
      expect(response.json()).toEqual({ detail: expect.any(String) });
    }
  });

  it('POST /predictor-statistics/ echoes the header, reports the scoring version and the stats-file values', async () => {
    const response = await hale.post('/predictor-statistics/', { header, sex: 'female', age: 40 });
    expect(response.status).toBe(200);
    const body = PredictorStatisticsResponseSchema.parse(response.json());
    expect(body.header).toEqual({ ...header, scoring_version: SCORING_VERSION });
    const hdl = body.predictor_statistics.find((s) => s.predictor === 'hdl')!;
    const expected = stats.datasets.nhanes_2017_2020_prepandemic_weighted!.hdl!.strata.find((s) => s.sex === 'female' && s.age_band === '40-44')!;
    expect(hdl.mean).toBe(expected.mean);
  });

  it('POST /predictor-statistics/ answers 422 naming each field and 400 to malformed JSON, in the {detail} dialect', async () => {
    const invalid = await hale.post('/predictor-statistics/', { header: { event_id: 'x' }, sex: 'other', age: 121 });
    expect(invalid.status).toBe(422);
    const detail = invalid.json<{ detail: string }>().detail;
    for (const field of ['body.header.event_asof_dtutc', 'body.sex', 'body.age']) expect(detail).toContain(field);
    const malformed = await hale.post('/predictor-statistics/', '{"header":');
    expect(malformed.status).toBe(400);
    expect(malformed.json()).toEqual({ detail: expect.any(String) });
  });

  it('GET /lab-ranges/ filters by query string, case-insensitively, and gives [] for unknown values', async () => {
    const rows = (await hale.get('/lab-ranges/?sex=M&vendor_name=QUEST')).json<unknown[]>();
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) {
      const parsed = LabRangeRowSchema.parse(row);
      expect(parsed.vendor_name).toBe('Quest Diagnostics');
      expect(['MALE', 'ALL']).toContain(parsed.gender_name);
    }
    const labcorp = await hale.get('/lab-ranges/?vendor_name=Labcorp');
    expect(new Set(labcorp.json<{ vendor_name: string }[]>().map((r) => r.vendor_name))).toEqual(new Set(['Labcorp']));
    const unknown = await hale.get('/lab-ranges/?sex=unknown');
    expect(unknown.status).toBe(200);
    expect(unknown.json()).toEqual([]);
  });

  it('GET /lab-ranges/ uses the concept ids of GET /reference-data/', async () => {
    const concepts = new Map((await hale.get('/reference-data/')).json<{ concept_code: string; concept_id: number }[]>().map((c) => [c.concept_code, c.concept_id]));
    const rows = (await hale.get('/lab-ranges/?one_sided=include')).json<{ concept_code: string; concept_id: number }[]>();
    for (const row of rows) expect(row.concept_id).toBe(concepts.get(row.concept_code));
  });
});
