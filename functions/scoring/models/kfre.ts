import model from '../../../data/models/kfre-4var.json';
import type { Sex } from './types';

/** Kidney Failure Risk Equation, 4-variable (Tangri 2011/2016). Valid only for eGFR < 60. */

export type KfreRegion = keyof typeof model.baseline_survival;

export const KFRE_EGFR_LIMIT = model.validity.egfr_max_exclusive;

export function kfreLinearPredictor(age: number, sex: Sex, egfr: number, uacrMgG: number): number {
  const b = model.coefficients;
  const m = model.centres;
  return (
    b.age_per_10 * (age / 10 - m.age_per_10) +
    b.male * ((sex === 'male' ? 1 : 0) - m.male) +
    b.egfr_per_5 * (egfr / 5 - m.egfr_per_5) +
    b.ln_uacr * (Math.log(uacrMgG) - m.ln_uacr)
  );
}

/** Kidney-failure risk (0–1) over `years` (2 or 5) from the linear predictor. */
export function kfreRiskOfLinearPredictor(linearPredictor: number, years: 2 | 5, region: KfreRegion = model.region_used.value as KfreRegion): number {
  const s0 = model.baseline_survival[region][String(years) as '2' | '5'];
  return 1 - s0 ** Math.exp(linearPredictor);
}

/** Kidney-failure risk over `years` (2 or 5), 0–1. */
export function kfreRisk(age: number, sex: Sex, egfr: number, uacrMgG: number, years: 2 | 5 = 5, region?: KfreRegion): number {
  return kfreRiskOfLinearPredictor(kfreLinearPredictor(age, sex, egfr, uacrMgG), years, region);
}
