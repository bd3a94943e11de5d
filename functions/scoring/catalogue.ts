import hba1cUnits from '../../data/models/hba1c-units.json';
import predictorBounds from '../../data/population/predictor-bounds.json';

/**
 * Every input of Hale's scoring models: which observation codes a caller may send for it, the unit
 * the engine computes in, and where its population statistics come from. The reference-data routes
 * publish this list (GET /reference-data/, POST /predictor-statistics/); the engine reads inputs by it.
 * Codes and their sources are documented in data/models/README.md.
 */
export interface PredictorDefinition {
  key: string;
  name: string;
  /** Accepted observation codes, the preferred one first. Empty for age (it comes from date_of_birth). */
  observationCodes: string[];
  /** UCUM unit the engine computes in; '' for unitless inputs. */
  ucumUnit: string;
  kind: 'continuous' | 'binary' | 'categorical';
  /** Whether a person can change it (drives improvement_opportunities). */
  modifiable: boolean;
  /** Converts molar units (mmol/L, µmol/L) to mass units. */
  molecularWeight?: { value: number; source: string };
  /** Units whose conversion is not a factor: UCUM code → value × slope + intercept (HbA1c IFCC mmol/mol → NGSP %). */
  affineUnits?: Readonly<Record<string, { slope: number; intercept: number; source: string }>>;
  /** Accepted range in ucumUnit (data/population/predictor-bounds.json); a value outside is rejected as an entry or unit error. */
  bounds?: { min: number; max: number; source: string };
  /** Key of the predictor whose bounds this one shares: the same analyte (a fasting glucose is a glucose). */
  sameAnalyteAs?: string;
  /** Key in data/sources/nhanes-biomarker-stats.json holding its sex × age-band distribution. */
  nhanes?: {
    dataset: 'nhanes_2017_2020_prepandemic_weighted' | 'nhanes_1999_2018_bioage_unweighted';
    variable: string;
  };
}

const PUBCHEM = 'PubChem compound record, molecular weight';
const WEIGHTED = 'nhanes_2017_2020_prepandemic_weighted' as const;
const UNWEIGHTED = 'nhanes_1999_2018_bioage_unweighted' as const;

type Bounded = Record<string, { min: number; max: number; source: string }>;

/** Bounds come from the build script (scripts/build-scoring-data.ts) so no range is hand-typed here. */
function withBounds(definition: PredictorDefinition): PredictorDefinition {
  const bounds = (predictorBounds.bounds as Bounded)[definition.key];
  return bounds ? { ...definition, bounds } : definition;
}

const DEFINITIONS: PredictorDefinition[] = [
  { key: 'age', name: 'Age', observationCodes: [], ucumUnit: 'a', kind: 'continuous', modifiable: false },
  { key: 'sex', name: 'Sex assigned at birth', observationCodes: ['76689-9'], ucumUnit: '', kind: 'categorical', modifiable: false },
  {
    key: 'albumin',
    name: 'Albumin',
    observationCodes: ['1751-7'],
    ucumUnit: 'g/dL',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: WEIGHTED, variable: 'albumin' },
  },
  {
    key: 'creatinine',
    name: 'Creatinine',
    observationCodes: ['2160-0'],
    ucumUnit: 'mg/dL',
    kind: 'continuous',
    modifiable: true,
    molecularWeight: { value: 113.12, source: `${PUBCHEM} (creatinine, CID 588)` },
    nhanes: { dataset: WEIGHTED, variable: 'creatinine' },
  },
  {
    key: 'glucose',
    name: 'Glucose',
    observationCodes: ['2345-7', '1558-6'],
    ucumUnit: 'mg/dL',
    kind: 'continuous',
    modifiable: true,
    molecularWeight: { value: 180.156, source: `${PUBCHEM} (D-glucose, CID 5793)` },
    nhanes: { dataset: WEIGHTED, variable: 'glucose_serum_nonfasting' },
  },
  {
    key: 'fasting_glucose',
    name: 'Fasting glucose',
    observationCodes: ['1558-6', '2345-7'],
    ucumUnit: 'mg/dL',
    kind: 'continuous',
    modifiable: true,
    molecularWeight: { value: 180.156, source: `${PUBCHEM} (D-glucose, CID 5793)` },
    nhanes: { dataset: WEIGHTED, variable: 'glucose_fasting_plasma' },
    sameAnalyteAs: 'glucose',
  },
  {
    key: 'hba1c',
    name: 'Hemoglobin A1c',
    observationCodes: ['4548-4', '17856-6'],
    ucumUnit: '%',
    kind: 'continuous',
    modifiable: true,
    affineUnits: { 'mmol/mol': { ...hba1cUnits.ifcc_mmol_mol_to_ngsp_pct } },
    nhanes: { dataset: WEIGHTED, variable: 'hba1c' },
  },
  {
    key: 'crp',
    name: 'C-reactive protein',
    observationCodes: ['30522-7', '1988-5'],
    ucumUnit: 'mg/L',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: WEIGHTED, variable: 'crp_hs' },
  },
  {
    key: 'lymphocyte_pct',
    name: 'Lymphocytes',
    observationCodes: ['736-9'],
    ucumUnit: '%',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: WEIGHTED, variable: 'lymphocyte_pct' },
  },
  {
    key: 'lymphocyte_count',
    name: 'Lymphocytes (absolute count)',
    observationCodes: ['731-0'],
    ucumUnit: '10*3/uL',
    kind: 'continuous',
    modifiable: true,
  },
  {
    key: 'mcv',
    name: 'Mean corpuscular volume',
    observationCodes: ['787-2'],
    ucumUnit: 'fL',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: WEIGHTED, variable: 'mcv' },
  },
  {
    key: 'rdw',
    name: 'Red cell distribution width',
    observationCodes: ['788-0'],
    ucumUnit: '%',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: WEIGHTED, variable: 'rdw' },
  },
  {
    key: 'alp',
    name: 'Alkaline phosphatase',
    observationCodes: ['6768-6'],
    ucumUnit: 'U/L',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: WEIGHTED, variable: 'alkaline_phosphatase' },
  },
  {
    key: 'wbc',
    name: 'White blood cell count',
    observationCodes: ['6690-2', '26464-8'],
    ucumUnit: '10*3/uL',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: WEIGHTED, variable: 'wbc' },
  },
  {
    key: 'total_cholesterol',
    name: 'Total cholesterol',
    observationCodes: ['2093-3'],
    ucumUnit: 'mg/dL',
    kind: 'continuous',
    modifiable: true,
    molecularWeight: { value: 386.65, source: `${PUBCHEM} (cholesterol, CID 5997)` },
    nhanes: { dataset: WEIGHTED, variable: 'total_cholesterol' },
  },
  {
    key: 'hdl',
    name: 'HDL cholesterol',
    observationCodes: ['2085-9'],
    ucumUnit: 'mg/dL',
    kind: 'continuous',
    modifiable: true,
    molecularWeight: { value: 386.65, source: `${PUBCHEM} (cholesterol, CID 5997)` },
    nhanes: { dataset: WEIGHTED, variable: 'hdl' },
  },
  {
    key: 'non_hdl',
    name: 'Non-HDL cholesterol',
    observationCodes: ['43396-1'],
    ucumUnit: 'mg/dL',
    kind: 'continuous',
    modifiable: true,
    molecularWeight: { value: 386.65, source: `${PUBCHEM} (cholesterol, CID 5997)` },
  },
  {
    key: 'triglycerides',
    name: 'Triglycerides',
    observationCodes: ['2571-8'],
    ucumUnit: 'mg/dL',
    kind: 'continuous',
    modifiable: true,
    molecularWeight: {
      value: 885.7,
      source: 'triglyceride expressed as triolein, the basis of the clinical factor 1 mmol/L = 88.57 mg/dL',
    },
    nhanes: { dataset: WEIGHTED, variable: 'triglycerides_serum_nonfasting' },
  },
  {
    key: 'sbp',
    name: 'Systolic blood pressure',
    observationCodes: ['8480-6'],
    ucumUnit: 'mm[Hg]',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: UNWEIGHTED, variable: 'systolic_bp' },
  },
  {
    key: 'bmi',
    name: 'Body mass index',
    observationCodes: ['39156-5'],
    ucumUnit: 'kg/m2',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: WEIGHTED, variable: 'bmi' },
  },
  {
    key: 'height',
    name: 'Body height',
    observationCodes: ['8302-2'],
    ucumUnit: 'cm',
    kind: 'continuous',
    modifiable: false,
    nhanes: { dataset: WEIGHTED, variable: 'height' },
  },
  {
    key: 'weight',
    name: 'Body weight',
    observationCodes: ['29463-7'],
    ucumUnit: 'kg',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: WEIGHTED, variable: 'weight' },
  },
  {
    key: 'waist',
    name: 'Waist circumference',
    observationCodes: ['8280-0'],
    ucumUnit: 'cm',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: WEIGHTED, variable: 'waist' },
  },
  {
    key: 'egfr',
    name: 'eGFR (CKD-EPI 2021)',
    observationCodes: ['98979-8'],
    ucumUnit: 'mL/min/{1.73_m2}',
    kind: 'continuous',
    modifiable: false,
  },
  {
    key: 'uacr',
    name: 'Urine albumin/creatinine ratio',
    observationCodes: ['9318-7', '14959-1'],
    ucumUnit: 'mg/g',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: WEIGHTED, variable: 'urine_albumin_creatinine_ratio' },
  },
  {
    key: 'ast',
    name: 'Aspartate aminotransferase',
    observationCodes: ['1920-8'],
    ucumUnit: 'U/L',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: WEIGHTED, variable: 'ast' },
  },
  {
    key: 'alt',
    name: 'Alanine aminotransferase',
    observationCodes: ['1742-6'],
    ucumUnit: 'U/L',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: WEIGHTED, variable: 'alt' },
  },
  {
    key: 'platelets',
    name: 'Platelets',
    observationCodes: ['777-3', '26515-7'],
    ucumUnit: '10*3/uL',
    kind: 'continuous',
    modifiable: true,
    nhanes: { dataset: WEIGHTED, variable: 'platelets' },
  },
  { key: 'smoking', name: 'Current smoking', observationCodes: ['72166-2'], ucumUnit: '', kind: 'binary', modifiable: true },
  { key: 'diabetes', name: 'Diabetes', observationCodes: ['73211009', '44054006'], ucumUnit: '', kind: 'binary', modifiable: false },
  {
    key: 'bp_treatment',
    name: 'Blood-pressure treatment',
    observationCodes: ['308116003'],
    ucumUnit: '',
    kind: 'binary',
    modifiable: false,
  },
  { key: 'statin', name: 'Statin use', observationCodes: ['96302009'], ucumUnit: '', kind: 'binary', modifiable: false },
  {
    key: 'parental_diabetes',
    name: 'Parental history of diabetes',
    observationCodes: ['160303001'],
    ucumUnit: '',
    kind: 'binary',
    modifiable: false,
  },
];

export const SCORING_PREDICTORS: readonly PredictorDefinition[] = DEFINITIONS.map(withBounds);

const BY_KEY = new Map(SCORING_PREDICTORS.map((p) => [p.key, p]));

/** The catalogue entry of a predictor key; throws on a key the catalogue does not hold (a programming error). */
export function predictorByKey(key: string): PredictorDefinition {
  const found = BY_KEY.get(key);
  if (!found) throw new Error(`Unknown scoring predictor ${key}`);
  return found;
}

/** Observation code → predictor; a code listed by two predictors (fasting/serum glucose) maps to both. */
export const PREDICTORS_BY_CODE: ReadonlyMap<string, readonly PredictorDefinition[]> = (() => {
  const map = new Map<string, PredictorDefinition[]>();
  for (const predictor of SCORING_PREDICTORS) {
    for (const code of predictor.observationCodes) map.set(code, [...(map.get(code) ?? []), predictor]);
  }
  return map;
})();
