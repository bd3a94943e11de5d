import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AGE_BANDS } from '../../../functions/scoring/population-tables';
import { buildScoringData, type Peer, POPULATION_DIR, predictorStrengths } from '../../../scripts/build-scoring-data';

describe('scripts/build-scoring-data.ts', () => {
  it('reproduces the committed data/population files from data/sources and data/models (rerun it after changing a model)', () => {
    for (const [name, text] of Object.entries(buildScoringData())) {
      expect([name, text]).toEqual([name, readFileSync(path.join(POPULATION_DIR, name), 'utf8')]);
    }
  });

  it('derives strengths from the model: |β| × SD of the term for a linear model, normalised to sum to 1', () => {
    // a ~ 0, 10 (SD 5); b ~ 1, 3 (SD 1): with β_a = 0.2 and β_b = -3, |β|·SD = 1 and 3.
    const people: Peer[] = [0, 10].flatMap((a) =>
      [1, 3].map((b) => ({
        person: { age: 50, sex: 'female' as const, wtMec: 1, wtFasting: null, prevalentCvd: 0, dialysis: 0, values: {} },
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

  it('writes one row per age band the model covers, with 101 increasing quantiles', () => {
    const peers = JSON.parse(readFileSync(path.join(POPULATION_DIR, 'peers.json'), 'utf8'));
    expect(peers.domains.cardiovascular.male.map((b: { band: string }) => b.band)).toEqual(AGE_BANDS.slice(2, 12).map((b) => b.label));
    expect(peers.domains.type2_diabetes.female.map((b: { band: string }) => b.band)).toEqual(['45-49', '50-54', '55-59', '60-64']);
    for (const band of peers.domains.all_cause.female) {
      expect(band.quantiles).toHaveLength(101);
      expect([...band.quantiles].sort((x: number, y: number) => x - y)).toEqual(band.quantiles);
    }
  });
});
