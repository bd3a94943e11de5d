import model from '../../../data/models/ckd-epi-2021.json';
import type { Sex } from './types';

/** CKD-EPI 2021 race-free creatinine eGFR (Inker 2021), mL/min/1.73 m². */
export function ckdEpi2021(creatinineMgdl: number, age: number, sex: Sex): number {
  const s = model[sex];
  const ratio = creatinineMgdl / s.kappa;
  return (
    model.constant *
    Math.min(ratio, 1) ** s.alpha *
    Math.max(ratio, 1) ** model.exponent_above_kappa *
    model.age_base ** age *
    s.factor
  );
}

/** KDIGO GFR category (G1–G5). */
export function kdigoCategory(egfr: number): string {
  for (const [lower, category] of model.kdigo_categories.lower_bounds) {
    if (egfr >= (lower as number)) return category as string;
  }
  return 'G5';
}
