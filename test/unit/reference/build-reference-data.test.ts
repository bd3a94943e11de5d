import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildConcepts } from '../../../functions/reference/build/concepts';
import type { ReferenceDataEntry } from '../../../functions/reference/schemas';
import { buildReferenceData, CONCEPTS_FILE } from '../../../scripts/build-reference-data';

const OUT = path.resolve(__dirname, '../../../data/reference');
const read = (name: string) => JSON.parse(readFileSync(path.join(OUT, name), 'utf8')) as unknown;

const release = { release: 'test', released_dtutc: '2027-01-02 03:04:05.678901' };
const lab = (code: string, name: string, unit = 'mg/dL') => ({ loinc_code: code, long_common_name: name, example_ucum_unit: unit });
const curated = { snomed: [], loinc_non_lab: [] };

describe('scripts/build-reference-data.ts', () => {
  it('reproduces the committed data/reference files from data/sources (rerun the script after changing an input)', () => {
    const built = buildReferenceData(JSON.parse(readFileSync(CONCEPTS_FILE, 'utf8')) as ReferenceDataEntry[]);
    for (const [name, value] of Object.entries(built)) expect([name, JSON.parse(JSON.stringify(value))]).toEqual([name, read(name)]);
  });

  it('stamps new concepts with the release time and keeps them unchanged on a rebuild', () => {
    const first = buildConcepts([lab('2345-7', 'Glucose')], [], curated, release, []);
    expect(first[0]).toMatchObject({
      start_dtutc: '2027-01-02 03:04:05',
      end_dtutc: '2099-12-31 23:59:59',
      created_dtutc: '2027-01-02 03:04:05.678901',
      updated_dtutc: null,
    });
    const later = { release: 'later', released_dtutc: '2028-01-01 00:00:00.000000' };
    expect(buildConcepts([lab('2345-7', 'Glucose')], [], curated, later, first)).toEqual(first);
  });

  it('keeps created/start of a changed concept and stamps updated_dtutc', () => {
    const first = buildConcepts([lab('2345-7', 'Glucose')], [], curated, release, []);
    const later = { release: 'later', released_dtutc: '2028-01-01 00:00:00.000000' };
    const [changed] = buildConcepts([lab('2345-7', 'Glucose [Mass/volume] in Serum or Plasma')], [], curated, later, first);
    expect(changed).toMatchObject({
      concept_id: first[0]!.concept_id,
      created_dtutc: first[0]!.created_dtutc,
      start_dtutc: first[0]!.start_dtutc,
      updated_dtutc: '2028-01-01 00:00:00.000000',
    });
  });

  it('retires a concept that left the inputs by closing its validity instead of dropping it', () => {
    const first = buildConcepts([lab('2345-7', 'Glucose'), lab('2160-0', 'Creatinine')], [], curated, release, []);
    const later = { release: 'later', released_dtutc: '2028-01-01 00:00:00.000000' };
    const next = buildConcepts([lab('2345-7', 'Glucose')], [], curated, later, first);
    expect(next.find((c) => c.concept_code === '2160-0')).toMatchObject({ end_dtutc: '2028-01-01 00:00:00', updated_dtutc: '2028-01-01 00:00:00.000000' });
  });

  it('refuses a LOINC code with a wrong check digit or a unit that is not UCUM', () => {
    expect(() => buildConcepts([lab('33863-3', 'Cystatin C')], [], curated, release, [])).toThrow(/check digit/);
    expect(() => buildConcepts([lab('2345-7', 'Glucose', 'x10E3/uL')], [], curated, release, [])).toThrow(/not UCUM/);
  });
});
