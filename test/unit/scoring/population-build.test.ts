import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AGE_BANDS } from '../../../functions/scoring/population-tables';
import { buildScoringData, meanAgeOver80, type Peer, predictorStrengths, REPOSITORY_ROOT } from '../../../scripts/build-scoring-data';

const POPULATION_DIR = path.join(REPOSITORY_ROOT, 'data/population');

describe('scripts/build-scoring-data.ts', () => {
  it('reproduces the committed data/population files and docs/accepted-ranges.md from data/sources and data/models (rerun it after changing a model)', () => {
    const built = buildScoringData();
    expect(Object.keys(built).sort()).toEqual(['data/population/peers.json', 'data/population/predictor-bounds.json', 'data/population/top-predictors.json', 'docs/accepted-ranges.md']);
    for (const [name, text] of Object.entries(built)) {
      expect([name, text]).toEqual([name, readFileSync(path.join(REPOSITORY_ROOT, name), 'utf8')]);
    }
  });

  it('places the top-coded 80+ peers at the mean age of the US population aged 80 and over (Census July 2018: 85.67 men, 86.52 women)', () => {
    const ages = meanAgeOver80();
    expect(ages.male).toBeCloseTo(85.67, 2);
    expect(ages.female).toBeCloseTo(86.52, 2);
    const peers = JSON.parse(readFileSync(path.join(POPULATION_DIR, 'peers.json'), 'utf8'));
    expect(peers.domains.kidney.male.at(-1)).toEqual(expect.objectContaining({ band: '80+', mean_age: ages.male }));
    expect(peers.domains.all_cause.female.at(-1)).toEqual(expect.objectContaining({ band: '80+', mean_age: ages.female }));
  });

  it('derives strengths from the model: |β| × SD of the term for a linear model, normalised to sum to 1', () => {
    // a ~ 0, 10 (SD 5); b ~ 1, 3 (SD 1): with β_a = 0.2 and β_b = -3, |β|·SD = 1 and 3.
    const people: Peer[] = [0, 10].flatMap((a) =>
      [1, 3].map((b) => ({
        person: { age: 50, modelAge: 50, sex: 'female' as const, wtMec: 1, wtFasting: null, prevalentCvd: 0, dialysis: 0, values: {} },
        weight: 1,
        inputs: { a, b },
      })),
    );
    const strengths = predictorStrengths((x) => 0.2 * x.a! - 3 * x.b!, people, ['a', 'b']);
    expect(strengths).toEqual([
      { key: 'b', strength: 0.75 },
      { key: 'a', strength: 0.25 },
    ]);
  });

  it('writes one row per age band the model covers, with 101 increasing quantiles and medians rising with age', () => {
    const peers = JSON.parse(readFileSync(path.join(POPULATION_DIR, 'peers.json'), 'utf8'));
    expect(peers.domains.cardiovascular.male.map((b: { band: string }) => b.band)).toEqual(AGE_BANDS.slice(2, 12).map((b) => b.label));
    expect(peers.domains.type2_diabetes.female.map((b: { band: string }) => b.band)).toEqual(['45-49', '50-54', '55-59', '60-64']);
    for (const code of Object.keys(peers.domains)) {
      for (const sex of ['male', 'female']) {
        const bands = peers.domains[code][sex] as { quantiles: number[]; mean_age: number }[];
        for (const band of bands) {
          expect(band.quantiles).toHaveLength(101);
          expect([...band.quantiles].sort((x, y) => x - y)).toEqual(band.quantiles);
        }
        const medians = bands.map((b) => b.quantiles[50]!);
        expect([...medians].sort((x, y) => x - y)).toEqual(medians);
        expect(bands.map((b) => b.mean_age)).toEqual([...bands.map((b) => b.mean_age)].sort((x, y) => x - y));
      }
    }
  });

  it('tabulates peer medians of every further outcome: 30-year PREVENT risks only for the bands of ages 30–59', () => {
    const peers = JSON.parse(readFileSync(path.join(POPULATION_DIR, 'peers.json'), 'utf8'));
    const keys = (band: { outcome_medians: Record<string, number> }) => Object.keys(band.outcome_medians).sort();
    const cardiovascular = peers.domains.cardiovascular.female;
    expect(keys(cardiovascular[0])).toEqual(['ascvd_10', 'ascvd_30', 'total_cvd_30']);
    expect(keys(cardiovascular.at(-1))).toEqual(['ascvd_10']);
    expect(keys(peers.domains.heart_failure.male[5])).toEqual(['heart_failure_30']);
  });
});
