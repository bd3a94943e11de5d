import { aricLogOdds, aricRisk } from '../../../functions/scoring/models/aric';
import { ckdEpi2021, kdigoCategory } from '../../../functions/scoring/models/ckd-epi';
import { fib4, fib4Category } from '../../../functions/scoring/models/fib4';
import { kfreRisk } from '../../../functions/scoring/models/kfre';
import { nafldFibrosisScore } from '../../../functions/scoring/models/nfs';
import preventModel from '../../../data/models/prevent-base.json';
import {
  PHENOAGE_DISPUTED_DIVISOR,
  PHENOAGE_DIVISOR,
  phenoAgeLinearPredictor,
  phenoAgeLogHazard,
  phenoAgeMortality,
  phenoAgeOfLogHazard,
} from '../../../functions/scoring/models/phenoage';
import { type PreventHorizon, type PreventOutcome, preventRisk } from '../../../functions/scoring/models/prevent';

/** Published worked examples (sources in docs/research/scoring-models.md and data/models/*.json). */

describe('PhenoAge (Levine 2018)', () => {
  // bio-learn/biolearn PR #202 worked example, given in SI units with ln(CRP) = -4.20:
  // linear combination -10.4638, mortality 0.005615, PhenoAge 26.41 (divisor 0.090165) / 28.28 (0.09165).
  const si = { albuminGL: 50, creatinineUmolL: 75.14, glucoseMmolL: 4.44, lnCrpMgdl: -4.2 };
  const inputs = {
    albuminGdl: si.albuminGL / 10,
    creatinineMgdl: si.creatinineUmolL / (10_000 / 113.12),
    glucoseMgdl: si.glucoseMmolL / (10 / 180.156),
    crpMgl: Math.exp(si.lnCrpMgdl) * 10,
    lymphocytePct: 40,
    mcvFl: 88,
    rdwPct: 12,
    alpUl: 45,
    wbcThousandPerUl: 4.2,
    age: 47,
  };

  it('reproduces the linear combination and mortality score', () => {
    const xb = phenoAgeLinearPredictor(inputs);
    expect(xb).toBeCloseTo(-10.4638, 3);
    expect(phenoAgeMortality(phenoAgeLogHazard(xb))).toBeCloseTo(0.005615, 5);
  });

  it('reproduces PhenoAge under both published divisors within 0.1 y', () => {
    const logHazard = phenoAgeLogHazard(phenoAgeLinearPredictor(inputs));
    expect(PHENOAGE_DIVISOR).toBe(0.090165);
    expect(Math.abs(phenoAgeOfLogHazard(logHazard) - 26.41)).toBeLessThan(0.1);
    expect(Math.abs(phenoAgeOfLogHazard(logHazard, PHENOAGE_DISPUTED_DIVISOR) - 28.28)).toBeLessThan(0.1);
  });

  it('is the published formula 141.50225 + ln(−0.0055305 · ln(1 − M)) / 0.090165 wherever M is representable', () => {
    const logHazard = phenoAgeLogHazard(phenoAgeLinearPredictor(inputs));
    const mortality = phenoAgeMortality(logHazard);
    expect(phenoAgeOfLogHazard(logHazard)).toBeCloseTo(141.50225 + Math.log(-0.0055305 * Math.log(1 - mortality)) / 0.090165, 9);
  });

  it('enters CRP as ln(mg/dL) with the 0.0954 coefficient, floored at the assay detection limit', () => {
    const at = (crpMgl: number) => phenoAgeLinearPredictor({ ...inputs, crpMgl });
    expect(at(15) - at(1.5)).toBeCloseTo(0.0954 * Math.log(10), 6);
    expect(at(0.01)).toBe(at(0.11));
  });
});

describe('PREVENT base (Khan 2024), Table S25 example', () => {
  // Expected values: martingmayer/preventr tests 'Base model works, female/male' (3 decimals) and
  // bcjaeger/PooledCohort tests (Khan supplemental table S12), recorded in data/models/prevent-base.json.
  // 50 y, TC 200, HDL 45, SBP 160 treated, diabetic, non-smoker, eGFR 90, BMI 35, no statin.
  const example = {
    age: 50,
    totalCholesterolMgdl: 200,
    hdlMgdl: 45,
    sbpMmHg: 160,
    bmi: 35,
    egfr: 90,
    diabetes: 1,
    smoking: 0,
    bpTreatment: 1,
    statin: 0,
  };
  const cases = (['female', 'male'] as const).flatMap((sex) =>
    (['10', '30'] as const).flatMap((horizon) =>
      (['total_cvd', 'ascvd', 'heart_failure'] as const).map((outcome) => [sex, horizon, outcome, preventModel.worked_examples[sex][horizon][outcome]] as const),
    ),
  );
  it.each(cases)('%s, %s-year %s = %s', (sex, horizon, outcome, expected) => {
    // The published figures are rounded to 3 decimals.
    expect(Math.abs(preventRisk(horizon as PreventHorizon, outcome as PreventOutcome, sex, example) - expected)).toBeLessThanOrEqual(0.0005 + 1e-12);
  });

  it('reproduces the 4-decimal figures of the Khan supplement as bcjaeger/PooledCohort tests them', () => {
    expect(preventRisk('10', 'total_cvd', 'female', example)).toBeCloseTo(0.1468, 4);
    expect(preventRisk('10', 'total_cvd', 'male', example)).toBeCloseTo(0.1632, 4);
    expect(preventRisk('30', 'ascvd', 'female', example)).toBeCloseTo(0.354, 3);
    expect(preventRisk('30', 'ascvd', 'male', example)).toBeCloseTo(0.349, 3);
  });
});

describe('CKD-EPI 2021 creatinine (Inker 2021)', () => {
  // CRAN package egfr vignette: egfr_ckdepi_cr_2021 examples.
  it.each([
    [1.0, 50, 'female', 68.6335],
    [0.8, 40, 'female', 95.46369],
    [1.2, 65, 'male', 67.11141],
    [1.5, 72, 'female', 36.79633],
  ] as const)('creatinine %s mg/dL, age %s, %s → %s', (creatinine, age, sex, expected) => {
    expect(ckdEpi2021(creatinine, age, sex)).toBeCloseTo(expected, 3);
  });

  // kidney.epi (Bikbov, CRAN) egfr.ckdepi.cr.2021 documentation example: 1.4 mg/dL, 60 y, male → 57.54.
  // (Its 83.97 example is the creatinine–cystatin C equation, which Hale does not use: no cystatin peers.)
  it('reproduces the kidney.epi example', () => {
    expect(ckdEpi2021(1.4, 60, 'male')).toBeCloseTo(57.54, 2);
  });

  it('maps eGFR to KDIGO categories', () => {
    expect([95, 75, 50, 35, 20, 10].map(kdigoCategory)).toEqual(['G1', 'G2', 'G3a', 'G3b', 'G4', 'G5']);
  });
});

describe('KFRE 4-variable (Tangri 2011/2016)', () => {
  // lshpaner/kfre README / py_scripts/single_patient.py: female, 57.28 y, eGFR 15, UACR 1762.00184 mg/g,
  // non-North America → 44.66 % (2-year), 89.89 % (5-year).
  it('reproduces the kfre example', () => {
    expect(kfreRisk(57.28, 'female', 15, 1762.00184, 2, 'non_north_america') * 100).toBeCloseTo(44.66, 2);
    expect(kfreRisk(57.28, 'female', 15, 1762.00184, 5, 'non_north_america') * 100).toBeCloseTo(89.89, 2);
  });
  it('uses the North American 5-year baseline survival (0.924) by default', () => {
    expect(kfreRisk(57.28, 'female', 15, 1762.00184)).toBeCloseTo(1 - 0.924 ** (Math.log(1 - 0.8988555) / Math.log(0.9365)), 4);
  });
});

describe('FIB-4 (Sterling 2006)', () => {
  it('reproduces the formula example 50 y, AST 40, ALT 36, platelets 200 → 1.67', () => {
    expect(fib4(50, 40, 36, 200)).toBeCloseTo(1.6667, 4);
    expect(fib4Category(1.67, 50)).toBe('indeterminate');
    expect(fib4Category(1.67, 70)).toBe('low');
    expect(fib4Category(3, 50)).toBe('high');
  });
});

describe('NAFLD fibrosis score (Angulo 2007)', () => {
  it('is the published linear score', () => {
    const nfs = nafldFibrosisScore({ age: 50, bmi: 30, ifgOrDiabetes: 1, astUl: 40, altUl: 40, plateletsThousandPerUl: 200, albuminGdl: 4 });
    expect(nfs).toBeCloseTo(-1.675 + 0.037 * 50 + 0.094 * 30 + 1.13 + 0.99 - 0.013 * 200 - 0.66 * 4, 10);
  });
});

describe('ARIC diabetes (Schmidt 2005)', () => {
  // No worked example is published; the SI coefficients of public implementations are the US ones
  // times the unit factor (FPG 1.5849 per mmol/L = 0.0880 × 18.01), which pins the glucose term.
  const base = { age: 55, parentalDiabetes: 0, fastingGlucoseMgdl: 100, sbpMmHg: 120, waistCm: 95, heightCm: 170, hdlMgdl: 50, triglyceridesMgdl: 150 };
  it('matches the SI glucose coefficient', () => {
    const perMmol = aricLogOdds({ ...base, fastingGlucoseMgdl: 100 + 18.01 }) - aricLogOdds(base);
    expect(perMmol).toBeCloseTo(1.5849, 3);
  });
  it('is a logistic risk', () => {
    const x = aricLogOdds(base);
    expect(aricRisk(base)).toBeCloseTo(1 / (1 + Math.exp(-x)), 12);
    expect(x).toBeCloseTo(-9.9808 + 0.0173 * 55 + 0.088 * 100 + 0.0111 * 120 + 0.0273 * 95 - 0.0326 * 170 - 0.0122 * 50 + 0.00271 * 150, 10);
  });
});
