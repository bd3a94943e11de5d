import { readFileSync } from 'node:fs';
import path from 'node:path';
import { conceptId } from '../../../functions/reference/concept-id';
import { ucum } from '../../../functions/reference/build/ucum';
import { isValidLoincCode, loincCheckDigit } from '../../../functions/reference/loinc';
import { handler } from '../../../functions/reference/reference-data-handler';
import { type ReferenceDataEntry, ReferenceDataResponseSchema } from '../../../functions/reference/schemas';
import { SCORING_PREDICTORS } from '../../../functions/scoring/catalogue';
import { apiEvent, invoke } from './api-event';

const SOURCES = path.resolve(__dirname, '../../../data/sources');
const get = (headers: Record<string, string> = {}, apiKeyId?: string | null) =>
  invoke(handler, apiEvent({ method: 'GET', path: '/reference-data/', headers, apiKeyId }));

function csvCodes(file: string): string[] {
  return readFileSync(path.join(SOURCES, file), 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => line.split(',')[0]!);
}

describe('GET /reference-data/', () => {
  let entries: ReferenceDataEntry[];
  beforeAll(async () => {
    const response = await get();
    expect(response.statusCode).toBe(200);
    entries = ReferenceDataResponseSchema.parse(response.json);
  });

  it('answers with every field of spec §2.11, typed and formatted as specified', async () => {
    const response = await get();
    const raw = response.json as Record<string, unknown>[];
    for (const entry of raw) {
      expect(Object.keys(entry).sort()).toEqual(
        [
          'concept_class_id', 'concept_code', 'concept_id', 'concept_name', 'created_dtutc', 'domain_id', 'end_dtutc',
          'lookup_type_concept_id', 'pref_ucum_unit', 'standard_concept', 'start_dtutc', 'updated_dtutc',
          'vocabulary_concept_id', 'vocabulary_id',
        ].sort(),
      );
    }
    const hba1c = entries.find((e) => e.concept_code === '4548-4')!;
    expect(hba1c.start_dtutc).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(hba1c.created_dtutc).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d+$/);
    expect(Number.isInteger(hba1c.concept_id)).toBe(true);
  });

  it('lists every row of loinc-common-labs.csv and loinc-scoring-inputs.csv and every scoring code', () => {
    const codes = new Set(entries.map((e) => e.concept_code));
    const labs = csvCodes('loinc-common-labs.csv');
    expect(labs).toHaveLength(187);
    for (const code of [...labs, ...csvCodes('loinc-scoring-inputs.csv')]) expect(codes.has(code)).toBe(true);
    for (const predictor of SCORING_PREDICTORS) for (const code of predictor.observationCodes) expect(codes.has(code)).toBe(true);
    expect(entries.find((e) => e.concept_code === '96302009')).toMatchObject({ vocabulary_id: 'SNOMED', vocabulary_concept_id: 44819097 });
    expect(entries.find((e) => e.concept_code === '2345-7')).toMatchObject({
      vocabulary_id: 'LOINC',
      vocabulary_concept_id: 44819102,
      concept_name: 'Glucose [Mass/volume] in Serum or Plasma',
      pref_ucum_unit: 'mg/dL',
      domain_id: 'Measurement',
      concept_class_id: 'Lab Test',
    });
  });

  it('gives every LOINC code a correct mod-10 check digit', () => {
    expect(loincCheckDigit('2345')).toBe(7);
    expect(loincCheckDigit('33863')).toBe(2);
    expect(isValidLoincCode('33863-3')).toBe(false);
    const loinc = entries.filter((e) => e.vocabulary_id === 'LOINC');
    expect(loinc.length).toBeGreaterThanOrEqual(187);
    for (const entry of loinc) expect([entry.concept_code, isValidLoincCode(entry.concept_code)]).toEqual([entry.concept_code, true]);
  });

  it('gives a valid UCUM code (per @lhncbc/ucum-lhc) wherever a preferred unit is set', () => {
    const units = entries.flatMap((e) => (e.pref_ucum_unit === null ? [] : [e.pref_ucum_unit]));
    expect(units.length).toBeGreaterThan(150);
    for (const unit of new Set(units)) expect([unit, ucum.validateUnitString(unit).status]).toEqual([unit, 'valid']);
  });

  it('derives concept_id from vocabulary and code only, so it never changes between releases', () => {
    for (const entry of entries) expect(entry.concept_id).toBe(conceptId(entry.vocabulary_id, entry.concept_code));
    expect(new Set(entries.map((e) => e.concept_id)).size).toBe(entries.length);
    // Pinned: a change of this number means every client's stored concept ids broke.
    expect(conceptId('LOINC', '2345-7')).toBe(45674886385118);
  });

  it('answers 304 to If-None-Match with the current strong ETag, and 200 to a stale one', async () => {
    const first = await get();
    const etag = first.headers!['etag'] as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers!['cache-control']).toMatch(/max-age=\d+/);
    const again = await get({ 'If-None-Match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers!['etag']).toBe(etag);
    const stale = await get({ 'If-None-Match': '"something-else"' });
    expect(stale.statusCode).toBe(200);
  });

  it('answers 401 {detail} without an API key', async () => {
    const response = await get({}, null);
    expect(response.statusCode).toBe(401);
    expect(response.json).toEqual({ detail: expect.any(String) });
  });
});
