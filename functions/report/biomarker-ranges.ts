import { predictorStatistics } from '../reference/predictor-statistics';
import type { PredictorStatistic, Sex } from '../reference/schemas';
import type { BiomarkerRanges, RangeLookup, ReportResult } from './layout/types';

/**
 * Range context of each biomarker from the reference area (the same numbers POST /predictor-statistics/
 * serves): the vendor lab range, the guideline optimal range (`optimalRange()`; a population-derived
 * stand-in is not called optimal here), and the mean of same-sex, same-age-band NHANES peers. A
 * statistic in another unit than the scored value is left out rather than drawn on a wrong scale.
 */
export function referenceRangeLookup(): RangeLookup {
  const cache = new Map<string, Map<string, PredictorStatistic>>();
  const statisticsFor = (sex: Sex, age: number) => {
    const key = `${sex}:${Math.floor(age)}`;
    let byPredictor = cache.get(key);
    if (!byPredictor) {
      byPredictor = new Map(predictorStatistics(sex, age).map((s) => [s.predictor, s]));
      cache.set(key, byPredictor);
    }
    return byPredictor;
  };
  return (predictor, result) => {
    const sex = sexOf(result);
    if (!sex) return {};
    const statistic = statisticsFor(sex, result.scoring_event_age).get(predictor.predictor);
    if (!statistic || statistic.unit !== predictor.unit) return {};
    return rangesOf(statistic);
  };
}

export function rangesOf(statistic: PredictorStatistic): BiomarkerRanges {
  const ranges: BiomarkerRanges = { populationMean: statistic.mean };
  if (statistic.vendor_lab_range !== null) ranges.lab = { low: statistic.vendor_lab_min, high: statistic.vendor_lab_max };
  if (statistic.source.optimal_rule === 'guideline') ranges.optimal = { low: statistic.optimal_min, high: statistic.optimal_max };
  return ranges;
}

function sexOf(result: ReportResult): Sex | undefined {
  const value = result.scoring_predictors.find((p) => p.predictor === 'sex')?.value;
  return value === 'male' || value === 'female' ? value : undefined;
}
