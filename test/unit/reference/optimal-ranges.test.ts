import { readFileSync } from 'node:fs';
import path from 'node:path';
import { optimalRange } from '../../../functions/reference/optimal-ranges';
import { SCORING_PREDICTORS } from '../../../functions/scoring/catalogue';

const stats = JSON.parse(readFileSync(path.resolve(__dirname, '../../../data/sources/nhanes-biomarker-stats.json'), 'utf8')) as {
  datasets: Record<string, Record<string, { strata: { sex: string; age_band: string; p01: number; p99: number }[] }>>;
};
const guidelines = JSON.parse(readFileSync(path.resolve(__dirname, '../../../data/optimal-ranges.json'), 'utf8')) as {
  ranges: { predictor: string; sex: string; min: number | null; max: number | null; source: string }[];
};

function allAdult(dataset: string, variable: string, sex: string) {
  return stats.datasets[dataset]![variable]!.strata.find((s) => s.sex === sex && s.age_band.endsWith('+') && s.age_band !== '80+')!;
}

describe('optimalRange', () => {
  it('returns the cited guideline bounds', () => {
    expect(optimalRange('fasting_glucose', 'male')).toMatchObject({ min: 70, max: 100 });
    expect(optimalRange('hba1c', 'female')?.max).toBe(5.7);
    expect(optimalRange('bmi', 'female')).toMatchObject({ min: 18.5, max: 24.9 });
    expect(optimalRange('hdl', 'male')?.min).toBe(60);
    expect(optimalRange('waist', 'male')?.max).toBe(102);
    expect(optimalRange('waist', 'female')?.max).toBe(88);
    expect(optimalRange('alt', 'female')?.max).toBe(25);
    expect(optimalRange('egfr', 'female')).toMatchObject({ min: 90, max: 140 });
    expect(optimalRange('bmi', 'male')?.source).toMatch(/WHO/);
  });

  it('closes a side the guideline leaves open with the all-adult 1st/99th percentile of the same sex', () => {
    const hdl = optimalRange('hdl', 'female')!;
    expect(hdl.max).toBe(allAdult('nhanes_2017_2020_prepandemic_weighted', 'hdl', 'female').p99);
    expect(hdl.source).toMatch(/99th percentile of NHANES/);
    const sbp = optimalRange('sbp', 'male')!;
    expect(sbp.max).toBe(120);
    expect(sbp.min).toBe(allAdult('nhanes_1999_2018_bioage_unweighted', 'systolic_bp', 'male').p01);
  });

  it('has no range for a predictor without a citable one', () => {
    expect(optimalRange('mcv', 'male')).toBeUndefined();
    expect(optimalRange('platelets', 'female')).toBeUndefined();
    expect(optimalRange('not_a_predictor', 'female')).toBeUndefined();
  });

  it('gives every cited range to both sexes it names, ordered and sourced, for catalogue predictors only', () => {
    const keys = new Set(SCORING_PREDICTORS.map((p) => p.key));
    for (const range of guidelines.ranges) {
      expect(keys.has(range.predictor)).toBe(true);
      expect(range.source.length).toBeGreaterThan(20);
      for (const sex of range.sex === 'both' ? (['male', 'female'] as const) : [range.sex as 'male' | 'female']) {
        const resolved = optimalRange(range.predictor, sex)!;
        expect(resolved.min).toBeLessThan(resolved.max);
        if (range.min !== null) expect(resolved.min).toBe(range.min);
        if (range.max !== null) expect(resolved.max).toBe(range.max);
      }
    }
  });
});
