import { referenceRangeLookup } from '../../../functions/report/biomarker-ranges';
import { predictorStatistics } from '../../../functions/reference/predictor-statistics';
import { predictor, result } from './fixtures';

describe('biomarker ranges from the reference data', () => {
  const statistics = new Map(predictorStatistics('male', 51).map((s) => [s.predictor, s]));
  const lookup = referenceRangeLookup('male');
  const at51 = result(51.2, 0);

  it('prints the same lab range and peer mean as POST /predictor-statistics/ serves', () => {
    const glucose = statistics.get('glucose')!;
    const ranges = lookup(predictor('glucose', 'Glucose', 108, glucose.unit), at51);
    expect(ranges.populationMean).toBe(glucose.mean);
    expect(ranges.lab).toEqual({ low: glucose.vendor_lab_min, high: glucose.vendor_lab_max });
  });

  it('calls a range optimal only when a guideline gives it', () => {
    for (const [key, statistic] of statistics) {
      const ranges = lookup(predictor(key, key, 1, statistic.unit), at51);
      if (statistic.source.optimal_rule === 'guideline') expect(ranges.optimal).toEqual({ low: statistic.optimal_min, high: statistic.optimal_max });
      else expect(ranges.optimal).toBeUndefined();
    }
  });

  it('draws nothing for a value in another unit or an unknown predictor', () => {
    expect(lookup(predictor('glucose', 'Glucose', 6, 'mmol/L'), at51)).toEqual({});
    expect(lookup(predictor('not_a_predictor', 'X', 6, 'mg/dL'), at51)).toEqual({});
  });
});
