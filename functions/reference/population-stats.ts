import type { PredictorDefinition } from '../scoring/catalogue';

/** One sex × age-band stratum of a predictor, in the predictor's unit (data/reference/population-stats.json). */
export interface PopulationStratum {
  sex: 'male' | 'female';
  /** As in the source: "18-24", "40-44", "80+", or the all-adult rows "18+" / "20+". */
  age_band: string;
  /** Inclusive lower age of the band. */
  age_from: number;
  /** Exclusive upper age; null for open bands ("80+", "18+"). */
  age_to: number | null;
  n: number;
  mean: number;
  p01: number;
  p05: number;
  p95: number;
  p99: number;
}

/** Predictors computed per participant of data/sources/nhanes-reference-population.csv.gz (eGFR, counts, non-HDL). */
export const DERIVED_DATASET = 'nhanes_2017_2020_reference_population_derived';

/** A predictor's NHANES distribution by sex and age band (the dataset and variable the catalogue names). */
export interface PredictorPopulation {
  /** UCUM unit of every number below (the scoring engine's unit). */
  unit: string;
  dataset: NonNullable<PredictorDefinition['nhanes']>['dataset'] | typeof DERIVED_DATASET;
  dataset_name: string;
  /** Key in the stats file and NHANES variable name, e.g. "hdl (LBDHDD)". */
  variable: string;
  source_unit: string;
  strata: PopulationStratum[];
}

export type PopulationStatsFile = Record<string, PredictorPopulation>;

/**
 * How an age was matched to a band:
 * - `in_band`: the age lies inside a 5-year band of the data;
 * - `top_coded_80_plus`: NHANES top-codes age at 80, so every age ≥ 80 is the "80+" band;
 * - `nearest_adult_band`: the age is below the youngest band (children; 18 in the weighted set, 20 in the
 *   unweighted one), so the youngest adult band serves. Adult values are not child norms; the response says so.
 */
export type AgeRule = 'in_band' | 'top_coded_80_plus' | 'nearest_adult_band';

export interface StratumChoice {
  stratum: PopulationStratum;
  rule: AgeRule;
}

/** The 5-year band of `age` for `sex`, by the rules of `AgeRule`; all-adult rows are never chosen. */
export function chooseStratum(strata: readonly PopulationStratum[], sex: 'male' | 'female', age: number): StratumChoice | undefined {
  const bands = strata
    .filter((s) => s.sex === sex && !(s.age_to === null && s.age_from < 80))
    .sort((a, b) => a.age_from - b.age_from);
  const youngest = bands[0];
  if (!youngest) return undefined;
  if (age < youngest.age_from) return { stratum: youngest, rule: 'nearest_adult_band' };
  const band = bands.find((s) => age >= s.age_from && (s.age_to === null || age < s.age_to));
  if (!band) return undefined;
  return { stratum: band, rule: band.age_to === null ? 'top_coded_80_plus' : 'in_band' };
}
