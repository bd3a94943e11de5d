import type { PopulationStatsFile, PopulationStratum, PredictorPopulation } from '../population-stats';
import { convert } from './population';

/** `data/optimal-ranges.json`: cited guideline bounds, null where the guideline leaves a side open. */
export interface OptimalRangeGuidelines {
  ranges: {
    predictor: string;
    unit: string;
    sex: 'male' | 'female' | 'both';
    min: number | null;
    max: number | null;
    source: string;
  }[];
}

export interface ResolvedRange {
  min: number;
  max: number;
  source: string;
}

export type ResolvedOptimalRanges = Record<string, { unit: string; male?: ResolvedRange; female?: ResolvedRange }>;

function allAdults(population: PredictorPopulation | undefined, sex: 'male' | 'female'): { stratum: PopulationStratum; label: string } | undefined {
  const stratum = population?.strata.find((s) => s.sex === sex && s.age_to === null && s.age_from < 80);
  if (!population || !stratum) return undefined;
  return { stratum, label: `${population.dataset_name}, ${population.variable}, ${sex} ${stratum.age_band} (n=${stratum.n})` };
}

/**
 * Closes each open side with the all-adult, same-sex 1st (lower) or 99th (upper) percentile of the
 * predictor's NHANES statistics, converting guideline bounds to the scoring unit.
 * A range whose open side has no population statistic is an error: fix the guideline file, never guess.
 */
export function resolveOptimalRanges(
  guidelines: OptimalRangeGuidelines,
  population: PopulationStatsFile,
  units: Readonly<Record<string, string>>,
): ResolvedOptimalRanges {
  const out: ResolvedOptimalRanges = {};
  const sorted = [...guidelines.ranges].sort((a, b) => a.predictor.localeCompare(b.predictor) || a.sex.localeCompare(b.sex));
  for (const range of sorted) {
    const unit = units[range.predictor];
    if (unit === undefined) throw new Error(`${range.predictor} in data/optimal-ranges.json is not a scoring predictor`);
    const sexes: ('male' | 'female')[] = range.sex === 'both' ? ['male', 'female'] : [range.sex];
    for (const sex of sexes) {
      const population_ = allAdults(population[range.predictor], sex);
      const notes: string[] = [];
      const bound = (value: number | null, percentile: 'p01' | 'p99'): number => {
        if (value !== null) return convert(value, range.unit, unit);
        if (!population_) throw new Error(`${range.predictor}: open ${percentile === 'p01' ? 'lower' : 'upper'} bound and no population statistic`);
        notes.push(
          `${percentile === 'p01' ? 'lower' : 'upper'} bound open in the guideline: ${percentile === 'p01' ? '1st' : '99th'} percentile of ${population_.label}`,
        );
        return population_.stratum[percentile];
      };
      const min = bound(range.min, 'p01');
      const max = bound(range.max, 'p99');
      out[range.predictor] ??= { unit };
      out[range.predictor]![sex] = { min, max, source: [range.source, ...notes].join('; ') };
    }
  }
  return out;
}
