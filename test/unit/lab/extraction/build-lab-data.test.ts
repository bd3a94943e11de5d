import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildLabData } from '../../../../scripts/build-lab-data';

const DATA = path.resolve(__dirname, '../../../../data/lab');

describe('data/lab', () => {
  it('matches what scripts/build-lab-data.ts builds from data/sources (rerun the script after changing an input)', () => {
    for (const [name, text] of Object.entries(buildLabData())) {
      expect(readFileSync(path.join(DATA, name), 'utf8')).toBe(text);
    }
  });

  it('holds every LOINC row and printed unit of the research tables', () => {
    const loinc = JSON.parse(readFileSync(path.join(DATA, 'loinc-common-labs.json'), 'utf8')) as unknown[];
    const units = JSON.parse(readFileSync(path.join(DATA, 'unit-to-ucum.json'), 'utf8')) as unknown[];
    expect(loinc).toHaveLength(187);
    expect(units).toHaveLength(65);
  });
});
