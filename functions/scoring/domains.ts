import aricModel from '../../data/models/aric-diabetes.json';
import ckdEpiModel from '../../data/models/ckd-epi-2021.json';
import fib4Model from '../../data/models/fib4.json';
import kfreModel from '../../data/models/kfre-4var.json';
import nfsModel from '../../data/models/nafld-fibrosis-score.json';
import phenoAgeModel from '../../data/models/phenoage.json';
import { aricRisk } from './models/aric';
import { kdigoCategory } from './models/ckd-epi';
import { fib4, fib4Category } from './models/fib4';
import { KFRE_EGFR_LIMIT, KFRE_HORIZON_YEARS, kfreRisk } from './models/kfre';
import { NFS_IFG_GLUCOSE_MG_DL, nafldFibrosisScore, nfsCategory } from './models/nfs';
import { phenoAgeFromMortality, phenoAgeLinearPredictor, phenoAgeMortality } from './models/phenoage';
import { PREVENT_MODEL, type PreventOutcome, preventRisk } from './models/prevent';
import type { DomainModel, Evaluation, IndexValue, Inputs, Sex } from './models/types';
import type { DiseaseCode } from './schemas';

/**
 * The six health domains, each one published model (issue 4's table). Inputs are catalogue keys in
 * catalogue units; `optional` inputs are used only when observed (never imputed), because a model
 * that is only defined with them (KFRE, NFS) must not run on a population median.
 */
export interface Domain extends DomainModel {
  optional: readonly string[];
  /** A binary input that, when 1, makes the model inapplicable (e.g. ARIC predicts incident diabetes). */
  exclusion: { input: string; reason: string } | null;
}

/** Input value; NaN when absent (only optional inputs may be absent). */
function v(inputs: Inputs, key: string): number {
  return inputs[key] ?? Number.NaN;
}

function reference(m: { id: string; name: string; citation: string; doi: string; version: string }) {
  return { id: m.id, name: m.name, citation: m.citation, doi: m.doi, version: m.version };
}

/** PhenoAge's linear predictor (xb) from catalogue inputs; exported for the population build's rankings. */
export const phenoAgeXb = (x: Inputs, age: number) =>
  phenoAgeLinearPredictor({
    albuminGdl: v(x, 'albumin'),
    creatinineMgdl: v(x, 'creatinine'),
    glucoseMgdl: v(x, 'glucose'),
    crpMgl: v(x, 'crp'),
    lymphocytePct: v(x, 'lymphocyte_pct'),
    mcvFl: v(x, 'mcv'),
    rdwPct: v(x, 'rdw'),
    alpUl: v(x, 'alp'),
    wbcThousandPerUl: v(x, 'wbc'),
    age,
  });

const allCause: Domain = {
  code: 'all_cause',
  name: 'All-cause mortality (biological age)',
  model: reference(phenoAgeModel),
  inputs: ['albumin', 'creatinine', 'glucose', 'crp', 'lymphocyte_pct', 'mcv', 'rdw', 'alp', 'wbc'],
  optional: [],
  required: [],
  exclusion: null,
  ageRange: { min: phenoAgeModel.validity.age_min, max: phenoAgeModel.validity.age_max },
  horizonYears: phenoAgeModel.horizon_years,
  higherIsWorse: true,
  noRiskReason: null,
  value: (x, age) => phenoAgeMortality(phenoAgeXb(x, age)),
  risk: (x, age) => phenoAgeMortality(phenoAgeXb(x, age)),
  biologicalAge: (mortality) => phenoAgeFromMortality(mortality),
  evaluate(x, age): Evaluation {
    const mortality = phenoAgeMortality(phenoAgeXb(x, age));
    return {
      value: mortality,
      risk: mortality,
      indices: [{ name: 'PhenoAge', value: phenoAgeFromMortality(mortality), unit: 'a', category: null }],
      notes: [],
    };
  },
};

function preventInputs(x: Inputs, age: number) {
  return {
    age,
    totalCholesterolMgdl: v(x, 'total_cholesterol'),
    hdlMgdl: v(x, 'hdl'),
    sbpMmHg: v(x, 'sbp'),
    // BMI enters only the heart-failure equation and statin only ASCVD; zero coefficients ignore them.
    bmi: v(x, 'bmi'),
    egfr: v(x, 'egfr'),
    diabetes: v(x, 'diabetes'),
    smoking: v(x, 'smoking'),
    bpTreatment: v(x, 'bp_treatment'),
    statin: v(x, 'statin'),
  };
}

const PREVENT_RANGES: readonly { key: string; label: string; range: number[] }[] = [
  { key: 'total_cholesterol', label: 'total cholesterol', range: PREVENT_MODEL.validity.total_cholesterol },
  { key: 'hdl', label: 'HDL cholesterol', range: PREVENT_MODEL.validity.hdl },
  { key: 'sbp', label: 'systolic blood pressure', range: PREVENT_MODEL.validity.sbp },
  { key: 'egfr', label: 'eGFR', range: PREVENT_MODEL.validity.egfr },
  { key: 'bmi', label: 'BMI', range: PREVENT_MODEL.validity.bmi },
];

function preventDomain(code: DiseaseCode, name: string, outcome: PreventOutcome, inputs: string[]): Domain {
  const value = (x: Inputs, age: number, sex: Sex) => preventRisk(outcome, sex, preventInputs(x, age));
  const ranges = PREVENT_RANGES.filter((r) => inputs.includes(r.key));
  return {
    code,
    name,
    model: { ...reference(PREVENT_MODEL), version: `${PREVENT_MODEL.version}, ${outcome}` },
    inputs,
    optional: [],
    required: [],
    exclusion: null,
    ageRange: { min: PREVENT_MODEL.validity.age_min, max: PREVENT_MODEL.validity.age_max },
    horizonYears: PREVENT_MODEL.horizon_years,
    higherIsWorse: true,
    noRiskReason: null,
    value,
    risk: value,
    evaluate(x, age, sex) {
      const risk = value(x, age, sex);
      const notes: string[] = [];
      for (const { key, label, range } of ranges) {
        const [min, max] = range as [number, number];
        const input = x[key];
        if (input !== undefined && (input < min || input > max)) {
          notes.push(`${label} ${round(input)} is outside the PREVENT validation range ${min}–${max}; the estimate extrapolates`);
        }
      }
      return { value: risk, risk, indices: [], notes };
    },
  };
}

const aricInputs = (x: Inputs, age: number) => ({
  age,
  parentalDiabetes: v(x, 'parental_diabetes'),
  fastingGlucoseMgdl: v(x, 'fasting_glucose'),
  sbpMmHg: v(x, 'sbp'),
  waistCm: v(x, 'waist'),
  heightCm: v(x, 'height'),
  hdlMgdl: v(x, 'hdl'),
  triglyceridesMgdl: v(x, 'triglycerides'),
});

const type2Diabetes: Domain = {
  code: 'type2_diabetes',
  name: 'Type 2 diabetes',
  model: reference(aricModel),
  inputs: ['fasting_glucose', 'hdl', 'triglycerides', 'sbp', 'waist', 'height', 'parental_diabetes'],
  optional: [],
  required: [],
  exclusion: { input: 'diabetes', reason: 'diabetes is already present; ARIC predicts incident diabetes in people without it' },
  ageRange: { min: aricModel.validity.age_min, max: aricModel.validity.age_max },
  horizonYears: aricModel.horizon_years,
  higherIsWorse: true,
  noRiskReason: null,
  value: (x, age) => aricRisk(aricInputs(x, age)),
  risk: (x, age) => aricRisk(aricInputs(x, age)),
  evaluate(x, age) {
    const risk = aricRisk(aricInputs(x, age));
    return {
      value: risk,
      risk,
      indices: [],
      notes: ['ARIC predicts diabetes over 9 years (horizon_years 9); its race term is held at 0 (race-free policy)'],
    };
  },
};

const KFRE_NOTE = `KFRE 4-variable (${kfreModel.citation.split(';')[0]}), North American baseline, ${KFRE_HORIZON_YEARS}-year horizon`;

/** KFRE only inside its validity: eGFR < 60 and an observed UACR (an optional input, never imputed). */
function kfreWhenValid(x: Inputs, age: number, sex: Sex): number | null {
  const egfr = v(x, 'egfr');
  const uacr = x.uacr;
  return egfr < KFRE_EGFR_LIMIT && uacr !== undefined && uacr > 0 ? kfreRisk(age, sex, egfr, uacr, KFRE_HORIZON_YEARS as 5) : null;
}

const kidney: Domain = {
  code: 'kidney',
  name: 'Kidney',
  model: reference(ckdEpiModel),
  inputs: ['egfr'],
  optional: ['uacr'],
  required: ['egfr'],
  exclusion: null,
  ageRange: { min: ckdEpiModel.validity.age_min, max: ckdEpiModel.validity.age_max },
  horizonYears: null,
  higherIsWorse: false,
  noRiskReason: `eGFR is a measure of kidney function, not a probability; the KFRE ${KFRE_HORIZON_YEARS}-year risk applies only when eGFR < ${KFRE_EGFR_LIMIT} and a urine albumin/creatinine ratio is available`,
  value: (x) => v(x, 'egfr'),
  risk: kfreWhenValid,
  evaluate(x, age, sex) {
    const egfr = v(x, 'egfr');
    const indices: IndexValue[] = [{ name: 'eGFR (CKD-EPI 2021)', value: egfr, unit: 'mL/min/{1.73_m2}', category: kdigoCategory(egfr) }];
    const risk = kfreWhenValid(x, age, sex);
    if (risk === null) return { value: egfr, risk: null, indices, notes: [] };
    indices.push({ name: `KFRE ${KFRE_HORIZON_YEARS}-year kidney failure risk`, value: risk, unit: null, category: null });
    return { value: egfr, risk, horizonYears: KFRE_HORIZON_YEARS, indices, notes: [KFRE_NOTE] };
  },
};

const NFS_NOTE = `NAFLD fibrosis score (${nfsModel.citation.split(',')[0]} 2007) computed from the observed BMI and albumin`;

const liver: Domain = {
  code: 'liver',
  name: 'Liver',
  model: reference(fib4Model),
  inputs: ['ast', 'alt', 'platelets'],
  optional: ['bmi', 'albumin', 'diabetes', 'fasting_glucose'],
  required: ['ast', 'alt', 'platelets'],
  exclusion: null,
  ageRange: { min: fib4Model.validity.age_min, max: fib4Model.validity.age_max },
  horizonYears: null,
  higherIsWorse: true,
  noRiskReason: 'FIB-4 and the NAFLD fibrosis score are indices, not probabilities; no risk is invented',
  value: (x, age) => fib4(age, v(x, 'ast'), v(x, 'alt'), v(x, 'platelets')),
  risk: () => null,
  evaluate(x, age) {
    const index = fib4(age, v(x, 'ast'), v(x, 'alt'), v(x, 'platelets'));
    const indices: IndexValue[] = [{ name: 'FIB-4', value: index, unit: null, category: fib4Category(index, age) }];
    const notes: string[] = [];
    if (age < fib4Model.validity.less_reliable_below_age) {
      notes.push(`FIB-4 is less reliable below age ${fib4Model.validity.less_reliable_below_age}`);
    }
    if (x.bmi !== undefined && x.albumin !== undefined) {
      const glucose = x.fasting_glucose;
      const ifgOrDiabetes = x.diabetes === 1 || (glucose !== undefined && glucose >= NFS_IFG_GLUCOSE_MG_DL) ? 1 : 0;
      const nfs = nafldFibrosisScore({
        age,
        bmi: x.bmi,
        ifgOrDiabetes,
        astUl: v(x, 'ast'),
        altUl: v(x, 'alt'),
        plateletsThousandPerUl: v(x, 'platelets'),
        albuminGdl: x.albumin,
      });
      indices.push({ name: 'NAFLD fibrosis score', value: nfs, unit: null, category: nfsCategory(nfs) });
      notes.push(NFS_NOTE);
    }
    return { value: index, risk: null, indices, notes };
  },
};

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

export const DOMAINS: readonly Domain[] = [
  allCause,
  preventDomain('cardiovascular', 'Cardiovascular (ASCVD)', 'ascvd', [
    'total_cholesterol',
    'hdl',
    'sbp',
    'egfr',
    'diabetes',
    'smoking',
    'bp_treatment',
    'statin',
  ]),
  preventDomain('heart_failure', 'Heart failure', 'heart_failure', ['sbp', 'bmi', 'egfr', 'diabetes', 'smoking', 'bp_treatment']),
  type2Diabetes,
  kidney,
  liver,
];

export function domainByCode(code: DiseaseCode): Domain {
  const found = DOMAINS.find((d) => d.code === code);
  if (!found) throw new Error(`Unknown domain ${code}`);
  return found;
}
