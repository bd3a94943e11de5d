import fc from 'fast-check';
import populationStats from '../../../data/reference/population-stats.json';
import { chooseStratum, type PopulationStatsFile } from '../../../functions/reference/population-stats';
import { predictorStatistics, predictorStatisticsJson } from '../../../functions/reference/predictor-statistics';

const POPULATION = populationStats as PopulationStatsFile;
const sex = fc.constantFrom('male' as const, 'female' as const);
const age = fc.double({ min: 0, max: 120, noNaN: true });

describe('chooseStratum', () => {
  it('picks the band that holds the age, the 80+ band from 80, and the youngest band below it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(POPULATION)), sex, age, (key, s, a) => {
        const { stratum, rule } = chooseStratum(POPULATION[key]!.strata, s, a)!;
        expect(stratum.sex).toBe(s);
        if (rule === 'in_band') expect(a >= stratum.age_from && a < stratum.age_to!).toBe(true);
        if (rule === 'top_coded_80_plus') expect([a >= 80, stratum.age_band]).toEqual([true, '80+']);
        if (rule === 'nearest_adult_band') {
          const youngest = Math.min(...POPULATION[key]!.strata.map((x) => x.age_from));
          expect([a < youngest, stratum.age_from]).toEqual([true, youngest]);
        }
        // The all-adult rows (18+, 20+) summarise every band and are never a person's band.
        expect(stratum.age_to === null && stratum.age_from < 80).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('predictorStatisticsJson', () => {
  it('serves from its per-year cache exactly what computing for the exact age gives', () => {
    fc.assert(
      fc.property(sex, age, (s, a) => {
        expect(predictorStatisticsJson(s, a)).toBe(JSON.stringify(predictorStatistics(s, a)));
      }),
      { numRuns: 200 },
    );
  });
});
