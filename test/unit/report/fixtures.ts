import { DiseaseScoreSchema, ScoringPredictorSchema } from '../../../functions/scoring/schemas';
import type { DiseaseScore, RangeLookup, ReportDocumentInput, ReportResult, ScoringPredictor } from '../../../functions/report/layout/types';

/**
 * Typed builders of scoring results for layout tests. The numbers are arbitrary test values (not
 * science); each builder validates against the scoring response schema so the renderer is tested
 * against the real contract.
 */

const DOMAINS = [
  ['all_cause', 'All-cause mortality (biological age)', 'phenoage', 'PhenoAge'],
  ['cardiovascular', 'Cardiovascular disease', 'prevent_cvd', 'PREVENT total CVD'],
  ['heart_failure', 'Heart failure', 'prevent_hf', 'PREVENT heart failure'],
  ['type2_diabetes', 'Type 2 diabetes', 'aric_t2d', 'ARIC diabetes risk'],
  ['kidney', 'Kidney disease', 'kfre_4', 'KFRE 4-variable'],
  ['liver', 'Liver fibrosis', 'fib4', 'FIB-4'],
] as const;

export function diseaseScore(index: number, age: number, seed: number): DiseaseScore {
  const [code, name, modelId, modelName] = DOMAINS[index % DOMAINS.length]!;
  const wobble = ((seed * 7 + index * 13) % 17) / 10;
  return DiseaseScoreSchema.parse({
    disease_code: code,
    disease_name: name,
    status: 'scored',
    health_score: 55 + index * 4.37 + wobble,
    health_score_max: 100,
    disease_age: age + 1.23 - index * 0.61 + wobble,
    disease_age_status: 'interpolated',
    chronological_age: age,
    risk_ratios: [
      { outcome: 'test_outcome', outcome_name: 'Test outcome', horizon_years: 10, risk: 0.0345 + index * 0.0111 + wobble / 100, peer_risk: 0.041, ratio: 0.84 + index * 0.071 + wobble / 10, reason: null },
      { outcome: 'test_outcome', outcome_name: 'Test outcome', horizon_years: 30, risk: null, peer_risk: null, ratio: null, reason: 'Test horizon not published for this age.' },
    ],
    score_percentile: 40 + index * 6 + seed,
    indices: index === 4 ? [{ name: 'eGFR', value: 88.4, unit: 'mL/min/{1.73_m2}', category: 'G2' }] : [],
    difference_from_peers: { disease_age_years: 1.23 - index * 0.61 + wobble, risk: 0.0345 + index * 0.0111 + wobble / 100 - 0.041 },
    attribution_residual: { disease_age_years: 0.13 - index * 0.61 + wobble, risk: 0.001 },
    predictor_attributions: [
      { predictor: 'glucose', name: 'Glucose', observation_codes: ['2345-7'], value: 105, peer_value: 97, unit: 'mg/dL', disease_age_years: 1.4, risk: 0.004 },
      { predictor: 'crp', name: 'C-reactive protein', observation_codes: ['30522-7'], value: 2.1, peer_value: 1.6, unit: 'mg/L', disease_age_years: 0.6, risk: 0.002 },
      { predictor: 'albumin', name: 'Albumin', observation_codes: ['1751-7'], value: 4.6, peer_value: 4.3, unit: 'g/dL', disease_age_years: -0.9, risk: -0.003 },
    ],
    not_measured: [
      {
        predictor: 'waist',
        name: 'Waist circumference',
        observation_codes: ['8280-0'],
        unit: 'cm',
        assumed_value: 97.5,
        if_low: { value: 82.1, disease_age: age - 0.4, risk: 0.031 },
        if_high: { value: 118.6, disease_age: age + 0.7, risk: 0.044 },
      },
    ],
    improvement_opportunities: [
      {
        predictor: 'glucose',
        name: 'Glucose',
        observation_codes: ['2345-7'],
        current_value: 105,
        target_value: 99,
        unit: 'mg/dL',
        optimal_min: 70,
        optimal_max: 99,
        disease_age: age,
        risk: 0.03,
        disease_age_change: -0.8,
        risk_change: -0.002,
      },
    ],
    model: { id: modelId, name: modelName, citation: `${modelName} original publication, Journal ${index + 1} (test citation).`, doi: `10.1000/test.${index}`, version: '1' },
    completeness: { measured: ['glucose'], carried_forward: [], derived: [], imputed: ['waist'], fraction_observed: 0.9 },
    notes: [],
  });
}

export function predictor(key: string, name: string, value: number | string, unit: string): ScoringPredictor {
  return ScoringPredictorSchema.parse({
    predictor: key,
    name,
    observation_code: '0000-0',
    value,
    unit,
    imputation_code: 'measured',
    source_date: null,
    age_days: null,
  });
}

export const BASE_PREDICTORS: ScoringPredictor[] = [
  predictor('sex', 'Sex assigned at birth', 'female', ''),
  predictor('age', 'Age', 50, 'a'),
  predictor('glucose', 'Glucose', 105, 'mg/dL'),
  predictor('crp', 'C-reactive protein', 2.1, 'mg/L'),
  predictor('albumin', 'Albumin', 4.6, 'g/dL'),
  predictor('creatinine', 'Creatinine', 88.4, 'umol/L'),
  predictor('wbc', 'White blood cells', 6.2, '10*3/uL'),
  predictor('sbp', 'Systolic blood pressure', 128, 'mm[Hg]'),
];

export function result(age: number, seed: number, domains = 6, predictors = BASE_PREDICTORS): ReportResult {
  return {
    scoring_event_date: null,
    scoring_event_age: age,
    disease_scores: Array.from({ length: domains }, (_, i) => diseaseScore(i, age, seed)),
    scoring_predictors: predictors,
  };
}

export const testRanges: RangeLookup = (p) =>
  p.predictor === 'glucose' ? { lab: { low: 70, high: 99 }, optimal: { low: 72, high: 90 }, populationMean: 101.2 } : { lab: { low: 1, high: null } };

export function documentInput(variant: 'full' | 'condensed', events: number, overrides: Partial<ReportDocumentInput> = {}): ReportDocumentInput {
  return {
    variant,
    uidExt: 'user-42',
    asOf: '2026-11-20T08:00:00Z',
    results: Array.from({ length: events }, (_, i) => result(40 + i * 1.5, i)),
    ranges: testRanges,
    scoringVersion: 'test-1',
    ...overrides,
  };
}
