import model from '../../../data/models/phenoage.json';
import { molarPerMass } from '../molar';

/**
 * PhenoAge (Levine 2018): 10-year mortality from nine blood markers and age, and the age at which an
 * average NHANES III person has that mortality. Coefficients, units and the disputed final divisor
 * live in data/models/phenoage.json.
 */

export interface PhenoAgeInputs {
  albuminGdl: number;
  creatinineMgdl: number;
  glucoseMgdl: number;
  crpMgl: number;
  lymphocytePct: number;
  mcvFl: number;
  rdwPct: number;
  alpUl: number;
  wbcThousandPerUl: number;
  age: number;
}

/** The PhenoAge divisor: the original 0.090165 by default; 0.09165 is the PLOS Medicine correction's value. */
export const PHENOAGE_DIVISOR = model.phenoage_transform.divisor;
export const PHENOAGE_DISPUTED_DIVISOR = model.phenoage_transform.disputed_divisor;

const c = model.coefficients;
const GAMMA = model.gompertz_gamma;
/** ln H, H = (e^(120·γ) − 1)/γ: the cumulative baseline hazard over the 120-month horizon. */
const LOG_HAZARD_FACTOR = Math.log((Math.exp(model.horizon_months * GAMMA) - 1) / GAMMA);
// Model units: albumin g/L, creatinine µmol/L, glucose mmol/L (molecular weights from the catalogue).
const ALBUMIN_G_L_PER_G_DL = model.conversions.albumin_g_dL_to_g_L.value;
const CRP_MG_DL_PER_MG_L = model.conversions.crp_mg_L_to_mg_dL.value;
const CRP_FLOOR_MG_DL = model.crp_floor_mg_dL.value;

const CREATININE_UMOL_L_PER_MG_DL = molarPerMass('creatinine') * 1000;
const GLUCOSE_MMOL_L_PER_MG_DL = molarPerMass('glucose');

/** Linear predictor xb of the Gompertz mortality model. */
export function phenoAgeLinearPredictor(x: PhenoAgeInputs): number {
  const lnCrp = Math.log(Math.max(x.crpMgl * CRP_MG_DL_PER_MG_L, CRP_FLOOR_MG_DL));
  return (
    c.intercept +
    c.albumin * x.albuminGdl * ALBUMIN_G_L_PER_G_DL +
    c.creatinine * x.creatinineMgdl * CREATININE_UMOL_L_PER_MG_DL +
    c.glucose * x.glucoseMgdl * GLUCOSE_MMOL_L_PER_MG_DL +
    c.crp * lnCrp +
    c.lymphocyte_pct * x.lymphocytePct +
    c.mcv * x.mcvFl +
    c.rdw * x.rdwPct +
    c.alp * x.alpUl +
    c.wbc * x.wbcThousandPerUl +
    c.age * x.age
  );
}

/** ln(−ln(1 − M)) = xb + ln(H): the log cumulative hazard over the horizon, finite where M rounds to 1. */
export function phenoAgeLogHazard(xb: number): number {
  return xb + LOG_HAZARD_FACTOR;
}

/** 10-year mortality probability M from the log cumulative hazard (`phenoAgeLogHazard`). */
export function phenoAgeMortality(logHazard: number): number {
  return -Math.expm1(-Math.exp(logHazard));
}

/**
 * PhenoAge in years from the log cumulative hazard: the inverse of the age-only Gompertz model,
 * 141.50225 + ln(−0.0055305 · ln(1 − M)) / 0.090165, in the closed form
 * 141.50225 + (ln 0.0055305 + ln(−ln(1 − M))) / 0.090165, which stays finite when M rounds to 1.
 */
export function phenoAgeOfLogHazard(logHazard: number, divisor = PHENOAGE_DIVISOR): number {
  const t = model.phenoage_transform;
  return t.intercept + (Math.log(-t.log_coefficient) + logHazard) / divisor;
}
