import { predictorByKey } from './catalogue';

/** mmol/L per mg/dL of a predictor, from its molecular weight in the catalogue (mg/dL → mg/L is ×10). */
export function molarPerMass(predictorKey: string): number {
  const weight = predictorByKey(predictorKey).molecularWeight;
  if (!weight) throw new Error(`${predictorKey} has no molecular weight in the catalogue`);
  return 10 / weight.value;
}
