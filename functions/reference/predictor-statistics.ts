import predictorLabRanges from '../../data/reference/predictor-lab-ranges.json';
import populationStats from '../../data/reference/population-stats.json';
import { SCORING_PREDICTORS } from '../scoring/catalogue';
import type { PredictorLabRange, PredictorLabRangesFile } from './build/predictor-lab-ranges';
import { optimalRange } from './optimal-ranges';
import { chooseStratum, type PopulationStatsFile } from './population-stats';
import { SCORING_VERSION } from '../scoring/version';
import type { PredictorStatistic, PredictorStatisticsRequest, Sex } from './schemas';

const POPULATION = populationStats as PopulationStatsFile;
const LAB_RANGES = predictorLabRanges as PredictorLabRangesFile;

/**
 * The predictors that get a statistic: every continuous catalogue input with a population
 * distribution (age is the request itself; binary and categorical inputs have no range to show).
 */
export const STATISTIC_PREDICTORS = SCORING_PREDICTORS.filter((p) => p.kind === 'continuous' && POPULATION[p.key] !== undefined);

type VendorFields = Pick<PredictorStatistic, 'vendor_lab_range' | 'vendor_lab_min' | 'vendor_lab_max'>;

/** Spec §2.12: GT/GTE carry only the minimum, LT/LTE only the maximum, range both, none all null. */
export function vendorFields(range: PredictorLabRange | null): VendorFields {
  if (!range) return { vendor_lab_range: null, vendor_lab_min: null, vendor_lab_max: null };
  switch (range.vendor_lab_range) {
    case 'range':
      return { vendor_lab_range: 'range', vendor_lab_min: range.min!, vendor_lab_max: range.max! };
    case 'GT':
    case 'GTE':
      return { vendor_lab_range: range.vendor_lab_range, vendor_lab_min: range.min!, vendor_lab_max: null };
    case 'LT':
    case 'LTE':
      return { vendor_lab_range: range.vendor_lab_range, vendor_lab_min: null, vendor_lab_max: range.max! };
  }
}

function statisticOf(key: string, name: string, codes: string[], sex: Sex, age: number): PredictorStatistic | undefined {
  const population = POPULATION[key]!;
  const choice = chooseStratum(population.strata, sex, age);
  if (!choice) return undefined;
  const { stratum, rule } = choice;
  const labRanges = LAB_RANGES[key];
  const guideline = optimalRange(key, sex);
  const reference = labRanges?.vendor_reference[sex] ?? null;
  const optimal = guideline
    ? { min: guideline.min, max: guideline.max, source: guideline.source, rule: 'guideline' as const }
    : reference
      ? { min: reference.min!, max: reference.max!, source: `reference range of ${reference.source}`, rule: 'vendor_reference_range' as const }
      : {
          min: stratum.p05,
          max: stratum.p95,
          source: 'no guideline or two-sided lab reference range: 5th-95th percentile of the same population band',
          rule: 'population_central_90' as const,
        };
  const vendor = labRanges?.vendor_lab[sex] ?? null;
  return {
    name,
    observation_codes: codes,
    mean: stratum.mean,
    optimal_min: optimal.min,
    optimal_max: optimal.max,
    absolute_min: stratum.p01,
    absolute_max: stratum.p99,
    ...vendorFields(vendor),
    predictor: key,
    unit: population.unit,
    source: {
      population: `${population.dataset_name}; ${population.variable}; ${sex} ${stratum.age_band} (n=${stratum.n}); mean, 1st and 99th percentile`,
      dataset: population.dataset,
      age_band: stratum.age_band,
      age_rule: rule,
      n: stratum.n,
      optimal: optimal.source,
      optimal_rule: optimal.rule,
      vendor_lab: vendor?.source ?? null,
    },
  } as PredictorStatistic;
}

/** Every band starts on a whole year, so the whole-year age (capped at the open 80+ band) picks them all. */
const cache = new Map<string, string>();

/** The predictor statistics for a sex and age, serialised; computed once per sex and whole year of age. */
export function predictorStatisticsJson(sex: Sex, age: number): string {
  const key = `${sex}:${Math.min(80, Math.floor(age))}`;
  let json = cache.get(key);
  if (json === undefined) {
    json = JSON.stringify(predictorStatistics(sex, age));
    cache.set(key, json);
  }
  return json;
}

/** The POST /predictor-statistics/ response to `request`, serialised (the request's header echoed). */
export function predictorStatisticsResponseJson(request: PredictorStatisticsRequest): string {
  const header = JSON.stringify({
    event_id: request.header.event_id,
    event_asof_dtutc: request.header.event_asof_dtutc,
    scoring_version: SCORING_VERSION,
  });
  return `{"header":${header},"predictor_statistics":${predictorStatisticsJson(request.sex, request.age)}}`;
}

export function predictorStatistics(sex: Sex, age: number): PredictorStatistic[] {
  return STATISTIC_PREDICTORS.flatMap((p) => statisticOf(p.key, p.name, p.observationCodes, sex, age) ?? []);
}
