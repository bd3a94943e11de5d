import { readFileSync } from 'node:fs';
import path from 'node:path';
import { handler } from '../../../functions/reference/predictor-statistics-handler';
import { STATISTIC_PREDICTORS, vendorFields } from '../../../functions/reference/predictor-statistics';
import { type PredictorStatistic, PredictorStatisticSchema, PredictorStatisticsResponseSchema } from '../../../functions/reference/schemas';
import { SCORING_VERSION } from '../../../functions/scoring/version';
import { apiEvent, invoke } from './api-event';

interface Stratum {
  sex: string;
  age_band: string;
  n: number;
  mean: number;
  p01: number;
  p05: number;
  p95: number;
  p99: number;
}
const stats = JSON.parse(readFileSync(path.resolve(__dirname, '../../../data/sources/nhanes-biomarker-stats.json'), 'utf8')) as {
  datasets: Record<string, Record<string, { strata: Stratum[] }>>;
};
const WEIGHTED = 'nhanes_2017_2020_prepandemic_weighted';
const UNWEIGHTED = 'nhanes_1999_2018_bioage_unweighted';
const stratum = (dataset: string, variable: string, sex: string, band: string) =>
  stats.datasets[dataset]![variable]!.strata.find((s) => s.sex === sex && s.age_band === band)!;

const header = { event_id: '3f1c2b9e-6a57-4d1e-9a43-0c1f2e3d4b5a', event_asof_dtutc: '2026-11-22T10:00:00Z' };

async function post(body: unknown, raw?: string) {
  return invoke(handler, apiEvent({ method: 'POST', path: '/predictor-statistics/', body: raw ?? JSON.stringify(body) }));
}

async function statistics(sex: 'male' | 'female', age: number): Promise<Map<string, PredictorStatistic>> {
  const response = await post({ header, sex, age });
  expect(response.statusCode).toBe(200);
  const parsed = PredictorStatisticsResponseSchema.parse(response.json);
  return new Map(parsed.predictor_statistics.map((s) => [s.predictor, s]));
}

describe('POST /predictor-statistics/', () => {
  it('echoes the header and adds the scoring engine version', async () => {
    const response = await post({ header, sex: 'female', age: 42 });
    expect((response.json as { header: unknown }).header).toEqual({ ...header, scoring_version: SCORING_VERSION });
  });

  it('returns one statistic per continuous scoring predictor with population data', async () => {
    const result = await statistics('male', 50);
    expect([...result.keys()].sort()).toEqual(STATISTIC_PREDICTORS.map((p) => p.key).sort());
    expect(result.size).toBeGreaterThanOrEqual(20);
    expect(result.get('hdl')).toMatchObject({ name: 'HDL cholesterol', observation_codes: ['2085-9'], unit: 'mg/dL' });
  });

  it('takes mean and 1st/99th percentiles from the stats file: HDL, women 40-44', async () => {
    const hdl = (await statistics('female', 42.3)).get('hdl')!;
    const expected = stratum(WEIGHTED, 'hdl', 'female', '40-44');
    expect(hdl.mean).toBe(expected.mean);
    expect(hdl.absolute_min).toBe(expected.p01);
    expect(hdl.absolute_max).toBe(expected.p99);
    expect(hdl.source).toMatchObject({ dataset: WEIGHTED, age_band: '40-44', age_rule: 'in_band', n: expected.n });
  });

  it('uses the unweighted 1999-2018 set where the weighted one lacks the predictor (systolic blood pressure)', async () => {
    const sbp = (await statistics('male', 61)).get('sbp')!;
    expect(sbp.mean).toBe(stratum(UNWEIGHTED, 'systolic_bp', 'male', '60-64').mean);
    expect(sbp.source.dataset).toBe(UNWEIGHTED);
  });

  it('computes predictors the stats file lacks (eGFR, lymphocyte count, non-HDL) from the participant-level reference population', async () => {
    const male = await statistics('male', 52);
    for (const key of ['egfr', 'lymphocyte_count', 'non_hdl']) {
      const statistic = male.get(key)!;
      expect(statistic.source).toMatchObject({ dataset: 'nhanes_2017_2020_reference_population_derived', age_band: '50-54' });
      expect(statistic.absolute_min).toBeLessThan(statistic.mean);
      expect(statistic.mean).toBeLessThan(statistic.absolute_max);
    }
    expect(male.get('egfr')).toMatchObject({ optimal_min: 90, optimal_max: 140, source: { optimal_rule: 'guideline' } });
    expect(male.get('egfr')!.mean).toBeGreaterThan(70);
    expect(male.get('egfr')!.mean).toBeLessThan(110);
  });

  it.each([
    [39.99, '35-39', 'in_band'],
    [40, '40-44', 'in_band'],
    [44.99, '40-44', 'in_band'],
    [79.99, '75-79', 'in_band'],
    [80, '80+', 'top_coded_80_plus'],
    [120, '80+', 'top_coded_80_plus'],
    [5, '18-24', 'nearest_adult_band'],
    [0, '18-24', 'nearest_adult_band'],
    [18, '18-24', 'in_band'],
  ])('age %p uses band %s (%s)', async (age, band, rule) => {
    const hdl = (await statistics('female', age)).get('hdl')!;
    expect(hdl.source).toMatchObject({ age_band: band, age_rule: rule });
    expect(hdl.mean).toBe(stratum(WEIGHTED, 'hdl', 'female', band).mean);
  });

  it('starts the unweighted set at 20: ages 18-19.99 take its nearest adult band 20-24', async () => {
    const sbp = (await statistics('female', 19.5)).get('sbp')!;
    expect(sbp.source).toMatchObject({ age_band: '20-24', age_rule: 'nearest_adult_band' });
  });

  it('follows the GT/GTE/LT/LTE/range rules with Quest ranges matched by LOINC and sex', async () => {
    const male = await statistics('male', 35);
    expect(male.get('hdl')).toMatchObject({ vendor_lab_range: 'GTE', vendor_lab_min: 40, vendor_lab_max: null });
    expect(male.get('total_cholesterol')).toMatchObject({ vendor_lab_range: 'LT', vendor_lab_min: null, vendor_lab_max: 200 });
    expect(male.get('albumin')).toMatchObject({ vendor_lab_range: 'range', vendor_lab_min: 3.6, vendor_lab_max: 5.1 });
    expect(male.get('egfr')).toMatchObject({ vendor_lab_range: 'GTE', vendor_lab_min: 60, vendor_lab_max: null });
    // Quest prints absolute lymphocytes in cells/uL; the statistic is in the engine's 10*3/uL.
    expect(male.get('lymphocyte_count')).toMatchObject({ unit: '10*3/uL', vendor_lab_range: 'range', vendor_lab_min: 0.85, vendor_lab_max: 3.9 });
    const female = await statistics('female', 35);
    expect(female.get('hba1c')).toMatchObject({ vendor_lab_range: 'LT', vendor_lab_min: null, vendor_lab_max: 5.7 });
    expect(female.get('alt')).toMatchObject({ vendor_lab_range: 'range', vendor_lab_min: 6, vendor_lab_max: 29 });
    // Quest printed no female HDL range in the sources: all three null.
    expect(female.get('hdl')).toMatchObject({ vendor_lab_range: null, vendor_lab_min: null, vendor_lab_max: null });
    for (const statistic of [...male.values(), ...female.values()]) PredictorStatisticSchema.parse(statistic);
  });

  it('maps each vendor range type to the fields the spec allows', () => {
    const base = { lab_range_id: 1, source: 'x' };
    expect(vendorFields({ ...base, vendor_lab_range: 'GT', min: 39, max: null })).toEqual({ vendor_lab_range: 'GT', vendor_lab_min: 39, vendor_lab_max: null });
    expect(vendorFields({ ...base, vendor_lab_range: 'LTE', min: null, max: 13.5 })).toEqual({ vendor_lab_range: 'LTE', vendor_lab_min: null, vendor_lab_max: 13.5 });
    expect(vendorFields({ ...base, vendor_lab_range: 'range', min: 1, max: 2 })).toEqual({ vendor_lab_range: 'range', vendor_lab_min: 1, vendor_lab_max: 2 });
    expect(vendorFields(null)).toEqual({ vendor_lab_range: null, vendor_lab_min: null, vendor_lab_max: null });
  });

  it('rejects statistics that break the vendor rules (contract)', () => {
    const valid = { name: 'x', observation_codes: null, mean: 1, optimal_min: 0, optimal_max: 2, absolute_min: 0, absolute_max: 3, predictor: 'x', unit: '', source: { population: '', dataset: '', age_band: '', age_rule: 'in_band', n: 1, optimal: '', optimal_rule: 'guideline', vendor_lab: null } };
    expect(PredictorStatisticSchema.safeParse({ ...valid, vendor_lab_range: 'GT', vendor_lab_min: 1, vendor_lab_max: 2 }).success).toBe(false);
    expect(PredictorStatisticSchema.safeParse({ ...valid, vendor_lab_range: 'LT', vendor_lab_min: 1, vendor_lab_max: 2 }).success).toBe(false);
    expect(PredictorStatisticSchema.safeParse({ ...valid, vendor_lab_range: 'range', vendor_lab_min: 1, vendor_lab_max: null }).success).toBe(false);
    expect(PredictorStatisticSchema.safeParse({ ...valid, vendor_lab_range: null, vendor_lab_min: 1, vendor_lab_max: null }).success).toBe(false);
    expect(PredictorStatisticSchema.safeParse({ ...valid, mean: null, vendor_lab_range: null, vendor_lab_min: null, vendor_lab_max: null }).success).toBe(false);
    expect(PredictorStatisticSchema.safeParse({ ...valid, vendor_lab_range: null, vendor_lab_min: null, vendor_lab_max: null }).success).toBe(true);
  });

  it('takes optimal ranges from a guideline, else a two-sided lab reference range, else the central 90% of the band', async () => {
    const female = await statistics('female', 42);
    expect(female.get('hdl')).toMatchObject({ optimal_min: 60, source: { optimal_rule: 'guideline' } });
    expect(female.get('bmi')).toMatchObject({ optimal_min: 18.5, optimal_max: 24.9 });
    expect(female.get('albumin')).toMatchObject({ optimal_min: 3.5, optimal_max: 5.5, source: { optimal_rule: 'vendor_reference_range' } });
    const lymph = female.get('lymphocyte_pct')!;
    const band = stratum(WEIGHTED, 'lymphocyte_pct', 'female', '40-44');
    expect(lymph).toMatchObject({ optimal_min: band.p05, optimal_max: band.p95, source: { optimal_rule: 'population_central_90' } });
    for (const statistic of female.values()) expect(statistic.optimal_min).toBeLessThan(statistic.optimal_max);
  });

  it.each([
    [{ header, sex: 'female', age: -1 }, ['body.age']],
    [{ header, sex: 'female', age: 120.5 }, ['body.age']],
    [{ header, sex: 'female', age: '42' }, ['body.age']],
    [{ header, sex: 'M', age: 42 }, ['body.sex']],
    [{ header: { event_asof_dtutc: 'yesterday' }, sex: 'male', age: 42 }, ['body.header.event_id', 'body.header.event_asof_dtutc']],
    [{ sex: 'male' }, ['body.header', 'body.age']],
  ])('answers 422 {detail} naming each failing field: %j', async (body, fields) => {
    const response = await post(body);
    expect(response.statusCode).toBe(422);
    const json = response.json as { detail: string; errors: { path: string }[] };
    expect(json.errors.map((e) => e.path).sort()).toEqual([...fields].sort());
    for (const field of fields) expect(json.detail).toContain(field);
  });

  it.each(['2026-11-22T10:00:00Z', '2026-11-22T10:00:00.123+05:30', '2026-11-22T10:00:00'])('accepts the ISO 8601 date-time %p and echoes it', async (asOf) => {
    const response = await post({ header: { event_id: 'e-1', event_asof_dtutc: asOf }, sex: 'male', age: 30 });
    expect(response.statusCode).toBe(200);
    expect((response.json as { header: { event_asof_dtutc: string } }).header.event_asof_dtutc).toBe(asOf);
  });

  it.each(['2026-11-22', 'yesterday', '22/11/2026 10:00'])('rejects %p as event_asof_dtutc', async (asOf) => {
    const response = await post({ header: { event_id: 'e-1', event_asof_dtutc: asOf }, sex: 'male', age: 30 });
    expect(response.statusCode).toBe(422);
    expect((response.json as { detail: string }).detail).toContain('body.header.event_asof_dtutc');
  });

  it('answers 400 {detail} to malformed JSON', async () => {
    const response = await post(undefined, '{"sex": "male",');
    expect(response.statusCode).toBe(400);
    expect(response.json).toEqual({ detail: expect.any(String) });
  });
});
