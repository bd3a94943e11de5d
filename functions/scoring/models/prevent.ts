import model from '../../../data/models/prevent-base.json';
import type { Sex } from './types';

/**
 * AHA PREVENT base model (Khan 2024): 10- and 30-year risk of total CVD, ASCVD and heart failure,
 * logistic with the published term transformations. Coefficients in data/models/prevent-base.json.
 */

export type PreventHorizon = keyof typeof model.horizons;
export type PreventOutcome = keyof (typeof model.horizons)['10'];
type Coefficients = (typeof model.horizons)['10']['ascvd']['female'];

export interface PreventInputs {
  age: number;
  totalCholesterolMgdl: number;
  hdlMgdl: number;
  sbpMmHg: number;
  bmi: number;
  egfr: number;
  diabetes: number;
  smoking: number;
  bpTreatment: number;
  statin: number;
}

const MMOL_PER_MG = model.cholesterol_mg_dL_to_mmol_L.value;

/** A zero coefficient contributes nothing, even when its input was not collected (NaN). */
function term(coefficient: number, value: number): number {
  return coefficient === 0 ? 0 : coefficient * value;
}

/** Log-odds of the outcome over the horizon. */
export function preventLogOdds(horizon: PreventHorizon, outcome: PreventOutcome, sex: Sex, x: PreventInputs): number {
  const b: Coefficients = model.horizons[horizon][outcome][sex];
  const age = (x.age - 55) / 10;
  const nonHdl = (x.totalCholesterolMgdl - x.hdlMgdl) * MMOL_PER_MG - 3.5;
  const hdl = (x.hdlMgdl * MMOL_PER_MG - 1.3) / 0.3;
  const sbpLow = (Math.min(x.sbpMmHg, 110) - 110) / 20;
  const sbpHigh = (Math.max(x.sbpMmHg, 110) - 130) / 20;
  const bmiLow = (Math.min(x.bmi, 30) - 25) / 5;
  const bmiHigh = (Math.max(x.bmi, 30) - 30) / 5;
  const egfrLow = (Math.min(x.egfr, 60) - 60) / -15;
  const egfrHigh = (Math.max(x.egfr, 60) - 90) / -15;
  return (
    b.intercept +
    term(b.age, age) +
    term(b.age_squared, age * age) +
    term(b.non_hdl, nonHdl) +
    term(b.hdl, hdl) +
    term(b.sbp_lt_110, sbpLow) +
    term(b.sbp_ge_110, sbpHigh) +
    term(b.diabetes, x.diabetes) +
    term(b.smoking, x.smoking) +
    term(b.bmi_lt_30, bmiLow) +
    term(b.bmi_ge_30, bmiHigh) +
    term(b.egfr_lt_60, egfrLow) +
    term(b.egfr_ge_60, egfrHigh) +
    term(b.bp_treatment, x.bpTreatment) +
    term(b.statin, x.statin) +
    term(b.bp_treatment_x_sbp_ge_110, x.bpTreatment * sbpHigh) +
    term(b.statin_x_non_hdl, x.statin * nonHdl) +
    term(b.age_x_non_hdl, age * nonHdl) +
    term(b.age_x_hdl, age * hdl) +
    term(b.age_x_sbp_ge_110, age * sbpHigh) +
    term(b.age_x_diabetes, age * x.diabetes) +
    term(b.age_x_smoking, age * x.smoking) +
    term(b.age_x_bmi_ge_30, age * bmiHigh) +
    term(b.age_x_egfr_lt_60, age * egfrLow)
  );
}

/** Probability (0–1) of a log-odds value. */
export function logistic(logOdds: number): number {
  return 1 / (1 + Math.exp(-logOdds));
}

/** Risk (0–1) of the outcome over the horizon. */
export function preventRisk(horizon: PreventHorizon, outcome: PreventOutcome, sex: Sex, x: PreventInputs): number {
  return logistic(preventLogOdds(horizon, outcome, sex, x));
}

export const PREVENT_MODEL = model;
