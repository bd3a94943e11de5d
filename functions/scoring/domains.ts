import aricModel from '../../data/models/aric-diabetes.json';
import ckdEpiModel from '../../data/models/ckd-epi-2021.json';
import fib4Model from '../../data/models/fib4.json';
import kfreModel from '../../data/models/kfre-4var.json';
import nfsModel from '../../data/models/nafld-fibrosis-score.json';
import phenoAgeModel from '../../data/models/phenoage.json';
import { aricLogOdds } from './models/aric';
import { kdigoCategory } from './models/ckd-epi';
import { fib4, fib4Category } from './models/fib4';
import { KFRE_EGFR_LIMIT, kfreLinearPredictor, kfreRiskOfLinearPredictor } from './models/kfre';
import { NFS_IFG_GLUCOSE_MG_DL, nafldFibrosisScore, nfsCategory } from './models/nfs';
import { phenoAgeLinearPredictor, phenoAgeLogHazard, phenoAgeMortality, phenoAgeOfLogHazard } from './models/phenoage';
import { logistic, PREVENT_MODEL, type PreventHorizon, type PreventOutcome, preventLogOdds } from './models/prevent';
import type { DomainModel, Evaluation, IndexValue, Inputs, RiskOutcome, Sex } from './models/types';
import type { DiseaseCode } from './schemas';

/**
 * The six health domains, each one published model (issue 4's table). Inputs are catalogue keys in
 * catalogue units; `optional` inputs are used only when observed (never imputed), because a model
 * that is only defined with them (KFRE, NFS) must not run on a peer value.
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
// Inputs are read by name (x.albumin), not through v(x, key): a named load stays fast in the attribution loops.
export const phenoAgeXb = (x: Inputs, age: number) =>
  phenoAgeLinearPredictor({
    albuminGdl: x.albumin ?? Number.NaN,
    creatinineMgdl: x.creatinine ?? Number.NaN,
    glucoseMgdl: x.glucose ?? Number.NaN,
    crpMgl: x.crp ?? Number.NaN,
    lymphocytePct: x.lymphocyte_pct ?? Number.NaN,
    mcvFl: x.mcv ?? Number.NaN,
    rdwPct: x.rdw ?? Number.NaN,
    alpUl: x.alp ?? Number.NaN,
    wbcThousandPerUl: x.wbc ?? Number.NaN,
    age,
  });

const phenoAgeSeverity = (x: Inputs, age: number) => phenoAgeLogHazard(phenoAgeXb(x, age));

const allCause: Domain = {
  code: 'all_cause',
  name: 'All-cause mortality (biological age)',
  model: reference(phenoAgeModel),
  inputs: ['albumin', 'creatinine', 'glucose', 'crp', 'lymphocyte_pct', 'mcv', 'rdw', 'alp', 'wbc'],
  optional: [],
  required: [],
  exclusion: null,
  ageRange: { min: phenoAgeModel.validity.age_min, max: phenoAgeModel.validity.age_max },
  severity: phenoAgeSeverity,
  riskOfSeverity: phenoAgeMortality,
  outcomes: [
    {
      key: `death_${phenoAgeModel.horizon_years}`,
      outcome: 'death',
      name: 'Death from any cause',
      horizonYears: phenoAgeModel.horizon_years,
      link: phenoAgeSeverity,
      toRisk: phenoAgeMortality,
      noPeerReason: null,
    },
  ],
  noRiskReason: null,
  biologicalAge: { of: (severity) => phenoAgeOfLogHazard(severity), fittedAges: { min: phenoAgeModel.validity.age_min, max: phenoAgeModel.validity.age_max } },
  evaluate(x, age): Evaluation {
    return { indices: [{ name: 'PhenoAge', value: phenoAgeOfLogHazard(phenoAgeSeverity(x, age)), unit: 'a', category: null }], notes: [] };
  },
};

function preventInputs(x: Inputs, age: number) {
  return {
    age,
    totalCholesterolMgdl: x.total_cholesterol ?? Number.NaN,
    hdlMgdl: x.hdl ?? Number.NaN,
    sbpMmHg: x.sbp ?? Number.NaN,
    // BMI enters only the heart-failure equations and statin only the others; zero coefficients ignore them.
    bmi: x.bmi ?? Number.NaN,
    egfr: x.egfr ?? Number.NaN,
    diabetes: x.diabetes ?? Number.NaN,
    smoking: x.smoking ?? Number.NaN,
    bpTreatment: x.bp_treatment ?? Number.NaN,
    statin: x.statin ?? Number.NaN,
  };
}

const PREVENT_RANGES: readonly { key: string; label: string; range: number[] }[] = [
  { key: 'total_cholesterol', label: 'Total cholesterol', range: PREVENT_MODEL.validity.total_cholesterol },
  { key: 'hdl', label: 'HDL cholesterol', range: PREVENT_MODEL.validity.hdl },
  { key: 'sbp', label: 'Systolic blood pressure', range: PREVENT_MODEL.validity.sbp },
  { key: 'egfr', label: 'eGFR', range: PREVENT_MODEL.validity.egfr },
  { key: 'bmi', label: 'BMI', range: PREVENT_MODEL.validity.bmi },
];

const PREVENT_OUTCOME_NAMES: Record<PreventOutcome, string> = {
  total_cvd: 'Cardiovascular disease (ASCVD or heart failure)',
  ascvd: 'Atherosclerotic cardiovascular disease',
  heart_failure: 'Heart failure',
};

const THIRTY_YEAR = PREVENT_MODEL.thirty_year_validity;

function preventOutcome(outcome: PreventOutcome, horizon: PreventHorizon): RiskOutcome {
  return {
    key: `${outcome}_${horizon}`,
    outcome,
    name: PREVENT_OUTCOME_NAMES[outcome],
    horizonYears: Number(horizon),
    ages:
      horizon === '30'
        ? {
            min: THIRTY_YEAR.age_min,
            max: THIRTY_YEAR.age_max,
            reason: `PREVENT's 30-year equations were developed for ages ${THIRTY_YEAR.age_min}–${THIRTY_YEAR.age_max}.`,
          }
        : undefined,
    link: (x, age, sex) => preventLogOdds(horizon, outcome, sex, preventInputs(x, age)),
    toRisk: logistic,
    noPeerReason: null,
  };
}

function preventDomain(code: DiseaseCode, name: string, outcomes: readonly [PreventOutcome, PreventHorizon][], inputs: string[]): Domain {
  const [primary, ...others] = outcomes.map(([outcome, horizon]) => preventOutcome(outcome, horizon));
  const ranges = PREVENT_RANGES.filter((r) => inputs.includes(r.key));
  return {
    code,
    name,
    model: { ...reference(PREVENT_MODEL), version: `${PREVENT_MODEL.version}; ${outcomes.map(([o, h]) => `${o} ${h}-year`).join(', ')}` },
    inputs,
    optional: [],
    required: [],
    exclusion: null,
    ageRange: { min: PREVENT_MODEL.validity.age_min, max: PREVENT_MODEL.validity.age_max },
    severity: (x, age, sex) => primary!.link(x, age, sex)!,
    riskOfSeverity: logistic,
    outcomes: [primary!, ...others],
    noRiskReason: null,
    evaluate(x) {
      const notes: string[] = [];
      for (const { key, label, range } of ranges) {
        const [min, max] = range as [number, number];
        const input = x[key];
        if (input !== undefined && (input < min || input > max)) {
          notes.push(`${label} ${round(input)} is outside the PREVENT validation range ${min}–${max}; the estimate extrapolates.`);
        }
      }
      return { indices: [], notes };
    },
  };
}

const aricInputs = (x: Inputs, age: number) => ({
  age,
  parentalDiabetes: x.parental_diabetes ?? Number.NaN,
  fastingGlucoseMgdl: x.fasting_glucose ?? Number.NaN,
  sbpMmHg: x.sbp ?? Number.NaN,
  waistCm: x.waist ?? Number.NaN,
  heightCm: x.height ?? Number.NaN,
  hdlMgdl: x.hdl ?? Number.NaN,
  triglyceridesMgdl: x.triglycerides ?? Number.NaN,
});

const aricSeverity = (x: Inputs, age: number) => aricLogOdds(aricInputs(x, age));

const type2Diabetes: Domain = {
  code: 'type2_diabetes',
  name: 'Type 2 diabetes',
  model: reference(aricModel),
  inputs: ['fasting_glucose', 'hdl', 'triglycerides', 'sbp', 'waist', 'height', 'parental_diabetes'],
  optional: [],
  required: [],
  exclusion: { input: 'diabetes', reason: 'Diabetes is already present; ARIC predicts incident diabetes in people without it.' },
  ageRange: { min: aricModel.validity.age_min, max: aricModel.validity.age_max },
  severity: aricSeverity,
  riskOfSeverity: logistic,
  outcomes: [
    {
      key: `type2_diabetes_${aricModel.horizon_years}`,
      outcome: 'type2_diabetes',
      name: 'Type 2 diabetes',
      horizonYears: aricModel.horizon_years,
      link: aricSeverity,
      toRisk: logistic,
      noPeerReason: null,
    },
  ],
  noRiskReason: null,
  evaluate() {
    return { indices: [], notes: ['ARIC predicts diabetes over 9 years; its race term is held at 0 (race-free policy).'] };
  },
};

const KFRE_NOTE = `KFRE 4-variable (${kfreModel.citation.split(';')[0]}), North American baseline.`;
const KFRE_NO_PEERS = `The KFRE is defined only for eGFR < ${KFRE_EGFR_LIMIT}; there is no general-population peer risk to compare with.`;

/** KFRE's linear predictor inside its validity only: eGFR < 60 and an observed UACR (an optional input, never imputed). */
function kfreWhenValid(x: Inputs, age: number, sex: Sex): number | null {
  const egfr = v(x, 'egfr');
  const uacr = x.uacr;
  return egfr < KFRE_EGFR_LIMIT && uacr !== undefined && uacr > 0 ? kfreLinearPredictor(age, sex, egfr, uacr) : null;
}

function kfreOutcome(years: 2 | 5): RiskOutcome {
  return {
    key: `kidney_failure_${years}`,
    outcome: 'kidney_failure',
    name: 'Kidney failure (KFRE)',
    horizonYears: years,
    link: kfreWhenValid,
    toRisk: (lp) => kfreRiskOfLinearPredictor(lp, years),
    noPeerReason: KFRE_NO_PEERS,
  };
}

const KIDNEY_OUTCOMES = [kfreOutcome(5), kfreOutcome(2)];

const kidney: Domain = {
  code: 'kidney',
  name: 'Kidney',
  model: reference(ckdEpiModel),
  inputs: ['egfr'],
  optional: ['uacr'],
  required: ['egfr'],
  exclusion: null,
  ageRange: { min: ckdEpiModel.validity.age_min, max: ckdEpiModel.validity.age_max },
  severity: (x) => -Math.log(v(x, 'egfr')),
  riskOfSeverity: null,
  outcomes: KIDNEY_OUTCOMES,
  noRiskReason: `eGFR is a measure of kidney function, not a probability; the KFRE kidney-failure risk applies only when eGFR < ${KFRE_EGFR_LIMIT} and a urine albumin/creatinine ratio is measured.`,
  evaluate(x, age, sex) {
    const egfr = v(x, 'egfr');
    const indices: IndexValue[] = [{ name: 'eGFR (CKD-EPI 2021)', value: egfr, unit: 'mL/min/{1.73_m2}', category: kdigoCategory(egfr) }];
    const lp = kfreWhenValid(x, age, sex);
    if (lp === null) return { indices, notes: [] };
    for (const outcome of KIDNEY_OUTCOMES) {
      indices.push({ name: `KFRE ${outcome.horizonYears}-year kidney failure risk`, value: outcome.toRisk(lp), unit: null, category: null });
    }
    return { indices, notes: [KFRE_NOTE] };
  },
};

const NFS_NOTE = `NAFLD fibrosis score (${nfsModel.citation.split(',')[0]} 2007) computed from the observed BMI and albumin.`;

const LIVER_NO_RISK = 'FIB-4 and the NAFLD fibrosis score are indices, not probabilities; no risk is invented.';

const liver: Domain = {
  code: 'liver',
  name: 'Liver',
  model: reference(fib4Model),
  inputs: ['ast', 'alt', 'platelets'],
  optional: ['bmi', 'albumin', 'diabetes', 'fasting_glucose'],
  required: ['ast', 'alt', 'platelets'],
  exclusion: null,
  ageRange: { min: fib4Model.validity.age_min, max: fib4Model.validity.age_max },
  severity: (x, age) => Math.log(fib4(age, v(x, 'ast'), v(x, 'alt'), v(x, 'platelets'))),
  riskOfSeverity: null,
  outcomes: [
    {
      key: 'liver_fibrosis',
      outcome: 'liver_fibrosis',
      name: 'Advanced liver fibrosis',
      horizonYears: null,
      link: () => null,
      toRisk: () => {
        throw new Error('FIB-4 has no probability scale');
      },
      noPeerReason: LIVER_NO_RISK,
    },
  ],
  noRiskReason: LIVER_NO_RISK,
  evaluate(x, age) {
    const index = fib4(age, v(x, 'ast'), v(x, 'alt'), v(x, 'platelets'));
    const indices: IndexValue[] = [{ name: 'FIB-4', value: index, unit: null, category: fib4Category(index, age) }];
    const notes: string[] = [];
    if (age < fib4Model.validity.less_reliable_below_age) {
      notes.push(`FIB-4 is less reliable below age ${fib4Model.validity.less_reliable_below_age}.`);
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
    return { indices, notes };
  },
};

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

export const DOMAINS: readonly Domain[] = [
  allCause,
  preventDomain(
    'cardiovascular',
    'Cardiovascular disease',
    [
      ['total_cvd', '10'],
      ['ascvd', '10'],
      ['total_cvd', '30'],
      ['ascvd', '30'],
    ],
    ['total_cholesterol', 'hdl', 'sbp', 'egfr', 'diabetes', 'smoking', 'bp_treatment', 'statin'],
  ),
  preventDomain(
    'heart_failure',
    'Heart failure',
    [
      ['heart_failure', '10'],
      ['heart_failure', '30'],
    ],
    ['sbp', 'bmi', 'egfr', 'diabetes', 'smoking', 'bp_treatment'],
  ),
  type2Diabetes,
  kidney,
  liver,
];

export function domainByCode(code: DiseaseCode): Domain {
  const found = DOMAINS.find((d) => d.code === code);
  if (!found) throw new Error(`Unknown domain ${code}`);
  return found;
}
