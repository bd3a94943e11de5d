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
const HAZARD_FACTOR = (Math.exp(model.horizon_months * GAMMA) - 1) / GAMMA;
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

/** 10-year mortality probability M from the linear predictor. */
export function phenoAgeMortality(xb: number): number {
  return 1 - Math.exp(-Math.exp(xb) * HAZARD_FACTOR);
}

/** PhenoAge in years from the mortality probability (inverse of the age-only Gompertz model). */
export function phenoAgeFromMortality(mortality: number, divisor = PHENOAGE_DIVISOR): number {
  const t = model.phenoage_transform;
  return t.intercept + Math.log(t.log_coefficient * Math.log(1 - mortality)) / divisor;
}
