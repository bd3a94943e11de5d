import model from '../../../data/models/nafld-fibrosis-score.json';

/** NAFLD fibrosis score (Angulo 2007); an index, not a probability. */

export interface NfsInputs {
  age: number;
  bmi: number;
  ifgOrDiabetes: number;
  astUl: number;
  altUl: number;
  plateletsThousandPerUl: number;
  albuminGdl: number;
}

export const NFS_IFG_GLUCOSE_MG_DL = model.ifg_fasting_glucose_mg_dL.value;

export function nafldFibrosisScore(x: NfsInputs): number {
  const c = model.coefficients;
  return (
    c.intercept +
    c.age * x.age +
    c.bmi * x.bmi +
    c.ifg_or_diabetes * x.ifgOrDiabetes +
    c.ast_alt_ratio * (x.astUl / x.altUl) +
    c.platelets * x.plateletsThousandPerUl +
    c.albumin * x.albuminGdl
  );
}

export function nfsCategory(value: number): 'low' | 'indeterminate' | 'high' {
  if (value < model.categories.low_below) return 'low';
  if (value > model.categories.high_above) return 'high';
  return 'indeterminate';
}
