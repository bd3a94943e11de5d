import { predictorStatistics } from '../reference/predictor-statistics';
import type { PredictorStatistic, Sex } from '../reference/schemas';
import type { BiomarkerRanges, RangeLookup } from './layout/types';

/**
 * Range context of each biomarker from the reference area (the same numbers POST /predictor-statistics/
 * serves): the vendor lab range, the guideline optimal range (`optimalRange()`; a population-derived
 * stand-in is not called optimal here, nor in the widget), the mean and the 1st–99th percentile of
 * same-sex, same-age-band NHANES peers. A
 * statistic in another unit than the scored value is left out rather than drawn on a wrong scale.
 */
export function referenceRangeLookup(sex: Sex): RangeLookup {
  const cache = new Map<number, Map<string, PredictorStatistic>>();
  const statisticsAt = (age: number) => {
    const year = Math.floor(age);
    let byPredictor = cache.get(year);
    if (!byPredictor) {
      byPredictor = new Map(predictorStatistics(sex, age).map((s) => [s.predictor, s]));
      cache.set(year, byPredictor);
    }
    return byPredictor;
  };
  return (predictor, result) => {
    const statistic = statisticsAt(result.scoring_event_age).get(predictor.predictor);
    if (!statistic || statistic.unit !== predictor.unit) return {};
    return rangesOf(statistic);
  };
}

export function rangesOf(statistic: PredictorStatistic): BiomarkerRanges {
  const ranges: BiomarkerRanges = { populationMean: statistic.mean, population: { low: statistic.absolute_min, high: statistic.absolute_max } };
  if (statistic.vendor_lab_range !== null) ranges.lab = { low: statistic.vendor_lab_min, high: statistic.vendor_lab_max };
  if (statistic.source.optimal_rule === 'guideline') ranges.optimal = { low: statistic.optimal_min, high: statistic.optimal_max };
  return ranges;
}
