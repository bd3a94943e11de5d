import { readFileSync } from 'node:fs';
import path from 'node:path';
import { conceptId } from '../../../functions/reference/concept-id';
import { handler } from '../../../functions/reference/lab-ranges-handler';
import { LabRangeOneSidedRowSchema, LabRangeRowSchema } from '../../../functions/reference/schemas';
import { apiEvent, invoke } from './api-event';

type Row = Record<string, unknown> & { gender_name: string; vendor_name: string; concept_code: string };

async function get(query: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const response = await invoke(handler, apiEvent({ method: 'GET', path: '/lab-ranges/', query, headers }));
  return { ...response, rows: response.json as Row[] };
}

const printed = readFileSync(path.resolve(__dirname, '../../../data/sources/lab-reference-ranges.csv'), 'utf8')
  .split('\n')
  .slice(1)
  .filter((l) => l.trim() !== '');

describe('GET /lab-ranges/', () => {
  it('serves every two-sided printed range in the §2.14 shape, both bounds non-null', async () => {
    const { statusCode, rows } = await get();
    expect(statusCode).toBe(200);
    for (const row of rows) LabRangeRowSchema.parse(row);
    const twoSided = printed.filter((line) => /,>=?,[^,]+,<=?,/.test(line));
    expect(rows).toHaveLength(twoSided.length);
    expect(new Set(rows.map((r) => r.vendor_name))).toEqual(new Set(['Quest Diagnostics', 'Labcorp']));
    const questMaleGlucose = rows.find((r) => r.vendor_name === 'Quest Diagnostics' && r.concept_code === '2345-7' && r.gender_name === 'MALE');
    expect(questMaleGlucose).toMatchObject({
      concept_id: conceptId('LOINC', '2345-7'),
      concept_name: 'Glucose [Mass/volume] in Serum or Plasma',
      min_value: 65,
      min_value_operator: '>=',
      min_value_display: '65',
      max_value: 99,
      max_value_operator: '<=',
      vendor_test_name: 'GLUCOSE',
      unit: 'mg/dL',
      ucum_unit: 'mg/dL',
    });
  });

  it('keeps printed digits in the display strings and labels estradiol cycle phases', async () => {
    const { rows } = await get({ one_sided: 'include' });
    const hct = rows.find((r) => r.vendor_name === 'Quest Diagnostics' && r.concept_code === '4544-3' && r.gender_name === 'FEMALE');
    expect(hct).toMatchObject({ min_value_display: '35.0', min_value: 35, max_value_display: '45.0' });
    const phases = rows.filter((r) => r.concept_code === '2243-4' && r.gender_name === 'FEMALE').map((r) => r.menstrual_cycle);
    expect(phases.sort()).toEqual(['follicular_phase', 'luteal_phase', 'mid_cycle', 'postmenopausal']);
  });

  it('serves one-sided printed ranges only on request, with the open side null rather than a sentinel', async () => {
    const { rows } = await get({ one_sided: 'include' });
    expect(rows).toHaveLength(printed.length);
    const oneSided = rows.filter((r) => r.min_value === null || r.max_value === null);
    expect(oneSided.length).toBeGreaterThan(10);
    for (const row of oneSided) LabRangeOneSidedRowSchema.parse(row);
    const hdl = rows.find((r) => r.vendor_name === 'Quest Diagnostics' && r.concept_code === '2085-9')!;
    expect(hdl).toMatchObject({ min_value: 40, min_value_operator: '>=', max_value: null, max_value_operator: null, max_value_display: null });
    expect(LabRangeRowSchema.safeParse(hdl).success).toBe(false);
  });

  it.each(['male', 'M', 'MALE', ' m '])('filters sex=%p to male rows and rows printed for both sexes', async (sex) => {
    const { rows } = await get({ sex });
    expect(rows.length).toBeGreaterThan(50);
    expect(new Set(rows.map((r) => r.gender_name))).toEqual(new Set(['MALE', 'ALL']));
  });

  it('filters sex=female and sex=all', async () => {
    expect(new Set((await get({ sex: 'Female' })).rows.map((r) => r.gender_name))).toEqual(new Set(['FEMALE', 'ALL']));
    expect(new Set((await get({ sex: 'all' })).rows.map((r) => r.gender_name))).toEqual(new Set(['ALL']));
  });

  it.each([
    ['quest', 'Quest Diagnostics'],
    ['Quest Diagnostics', 'Quest Diagnostics'],
    ['QUEST', 'Quest Diagnostics'],
    ['Labcorp', 'Labcorp'],
    ['LabCorp', 'Labcorp'],
    ['labcorp', 'Labcorp'],
  ])('filters vendor_name=%p case-insensitively', async (vendor, expected) => {
    const { rows } = await get({ vendor_name: vendor });
    expect(rows.length).toBeGreaterThan(10);
    expect(new Set(rows.map((r) => r.vendor_name))).toEqual(new Set([expected]));
  });

  it('combines filters', async () => {
    const { rows } = await get({ sex: 'f', vendor_name: 'labcorp' });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.vendor_name).toBe('Labcorp');
      expect(['FEMALE', 'ALL']).toContain(row.gender_name);
    }
  });

  it.each<Record<string, string>>([{ sex: 'unknown' }, { vendor_name: 'Sonic Healthcare' }, { vendor_name: '' }, { sex: 'x', vendor_name: 'quest' }])(
    'answers an empty array, not an error, to unknown filter values: %j',
    async (query) => {
      const { statusCode, rows } = await get(query);
      expect(statusCode).toBe(200);
      expect(rows).toEqual([]);
    },
  );

  it('answers 304 to If-None-Match per filtered representation', async () => {
    const quest = await get({ vendor_name: 'quest' });
    const labcorp = await get({ vendor_name: 'labcorp' });
    const etag = quest.headers!['etag'] as string;
    expect(etag).not.toBe(labcorp.headers!['etag']);
    expect((await get({ vendor_name: 'quest' }, { 'if-none-match': etag })).statusCode).toBe(304);
    expect((await get({ vendor_name: 'labcorp' }, { 'if-none-match': etag })).statusCode).toBe(200);
  });

  it('answers 422 {detail} to an unknown one_sided value', async () => {
    const response = await get({ one_sided: 'yes' });
    expect(response.statusCode).toBe(422);
    expect((response.json as { detail: string }).detail).toContain('query.one_sided');
  });
});
