// Named imports, not the `z` namespace: esbuild can then leave out zod's unused parts (all locales but
// English), which takes ~360 KB and tens of milliseconds off these handlers' cold start (bench/reference.bench.ts).
import { array, discriminatedUnion, enum as zenum, iso, literal, null as znull, number, object, string, union, type infer as Infer } from 'zod';

/**
 * Request and response schemas of the reference routes (spec §2.11, §2.12, §2.14, §4.9, §4.10, §4.12).
 * Fields beyond the spec are additive and say where a number came from.
 */

const SECONDS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const FRACTIONAL = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{1,9}$/;

/** UTC `YYYY-MM-DD HH:MM:SS`. */
export const UtcSecondsSchema = string().regex(SECONDS, 'expected YYYY-MM-DD HH:MM:SS');
/** UTC `YYYY-MM-DD HH:MM:SS.ffffff`. */
export const UtcFractionalSchema = string().regex(FRACTIONAL, 'expected YYYY-MM-DD HH:MM:SS.ffffff');

const CONCEPT_ID = 'Hale\'s id of the concept: the first 48 bits of SHA-256 over `<vocabulary_id>|<concept_code>` (below 2^48), the same in every release';

export const ReferenceDataEntrySchema = object({
  // Stable id: see `conceptId` (functions/reference/concept-id.ts).
  concept_id: number().int().positive().describe(CONCEPT_ID),
  concept_name: string().min(1).describe('Name of the concept (the LOINC long common name, or the SNOMED CT preferred term)'),
  concept_code: string().min(1).describe('Code in its vocabulary (e.g. LOINC 2093-3); what scoring requests send as observation_code'),
  pref_ucum_unit: string().min(1).nullable().describe('Preferred UCUM unit of values of this concept (e.g. mg/dL); null where none applies'),
  lookup_type_concept_id: number().int().nullable().describe('OMOP concept id of a lookup (answer list) type; null for every concept Hale serves today'),
  vocabulary_id: zenum(['LOINC', 'SNOMED']).describe('Vocabulary of concept_code: LOINC or SNOMED (SNOMED CT)'),
  vocabulary_concept_id: number().int().describe('OMOP CDM concept id of the vocabulary (LOINC 44819102, SNOMED 44819097)'),
  concept_class_id: string().min(1).describe('OMOP concept class (e.g. Lab Test, Clinical Observation, Disorder)'),
  domain_id: string().min(1).describe('OMOP domain (e.g. Measurement, Observation, Condition)'),
  standard_concept: literal('S').describe('Always S: every served concept is an OMOP standard concept'),
  start_dtutc: UtcSecondsSchema.describe('Start of validity, UTC, `YYYY-MM-DD HH:MM:SS`'),
  end_dtutc: UtcSecondsSchema.describe('End of validity, UTC, `YYYY-MM-DD HH:MM:SS` (2099-12-31 23:59:59 while valid)'),
  created_dtutc: UtcFractionalSchema.describe('When the entry was created, UTC, `YYYY-MM-DD HH:MM:SS.ffffff`'),
  updated_dtutc: UtcFractionalSchema.nullable().describe('When the entry was last changed, UTC, `YYYY-MM-DD HH:MM:SS.ffffff`; null if never'),
}).meta({ id: 'ReferenceDataEntry', description: 'A biomarker or scoring-input concept (LOINC or SNOMED CT)' });
export type ReferenceDataEntry = Infer<typeof ReferenceDataEntrySchema>;
export const ReferenceDataResponseSchema = array(ReferenceDataEntrySchema);

export const SexSchema = zenum(['male', 'female']).describe('Sex the statistics are for: male or female');
export type Sex = Infer<typeof SexSchema>;

export const PredictorStatisticsRequestSchema = object({
  header: object({
    event_id: string().min(1).max(128).describe('Caller\'s id of this request (1–128 characters; a UUID is recommended), echoed in the response'),
    event_asof_dtutc: iso
      .datetime({ offset: true, local: true })
      .describe('As-of time, ISO 8601 date-time with Z or an offset, or without a zone (then read as UTC); echoed in the response'),
  }).describe('About this request, echoed in the response'),
  sex: SexSchema,
  age: number().min(0).max(120).describe('Age in years, 0–120, fractional; picks the 5-year NHANES age band'),
}).meta({ id: 'PredictorStatisticsRequest', description: 'The sex and age to give statistics for' });
export type PredictorStatisticsRequest = Infer<typeof PredictorStatisticsRequestSchema>;

export const VendorLabRangeSchema = zenum(['range', 'GT', 'GTE', 'LT', 'LTE']);
const VENDOR_LAB_RANGE = 'Shape of the lab reference range: range (both bounds), GT/GTE (> or ≥ vendor_lab_min only), LT/LTE (< or ≤ vendor_lab_max only), or null when no lab range applies';
const VENDOR_LAB_MIN = 'Lower bound of the lab reference range, in `unit`; null for LT/LTE and when no lab range applies';
const VENDOR_LAB_MAX = 'Upper bound of the lab reference range, in `unit`; null for GT/GTE and when no lab range applies';
export type VendorLabRange = Infer<typeof VendorLabRangeSchema>;

const PredictorStatisticBase = object({
  name: string().describe('Name of the scoring predictor, for display'),
  observation_codes: array(string()).nullable().describe('LOINC or SNOMED CT codes that supply the predictor, the preferred one first; null when none'),
  mean: number().describe('Survey-weighted NHANES mean for the sex and age band, in `unit`'),
  optimal_min: number().describe('Lower bound of the optimal range, in `unit` (source.optimal_rule says where the range comes from)'),
  optimal_max: number().describe('Upper bound of the optimal range, in `unit`'),
  absolute_min: number().describe('1st percentile of the sex and age band, in `unit`'),
  absolute_max: number().describe('99th percentile of the sex and age band, in `unit`'),
  // Additive: catalogue key, unit (UCUM) of every number, and where each number came from.
  predictor: string().describe('Hale\'s key of the scoring predictor (as in scoring responses)'),
  unit: string().describe('UCUM unit of every number of this entry'),
  source: object({
    population: string().describe('The survey, variable, sex, age band and sample size behind mean, absolute_min and absolute_max, in words'),
    dataset: string().describe('Identifier of the survey data set (e.g. nhanes_2017_2020_prepandemic_weighted)'),
    age_band: string().describe('The age band used, in years (e.g. 40-44, 80+; 18+ or 20+ for predictors with one adult band)'),
    age_rule: zenum(['in_band', 'top_coded_80_plus', 'nearest_adult_band']).describe(
      'How the band was chosen: in_band (the age falls in it), top_coded_80_plus (ages 80 and over), nearest_adult_band (ages under the youngest band)',
    ),
    n: number().int().describe('Number of survey participants in the band with a measured value'),
    optimal: string().describe('Where the optimal range comes from (a guideline citation, the lab range or the population band), in words'),
    optimal_rule: zenum(['guideline', 'vendor_reference_range', 'population_central_90']).describe(
      'How the optimal range was chosen: guideline (a cited guideline), vendor_reference_range (a two-sided lab reference range) or population_central_90 (the band\'s 5th–95th percentile)',
    ),
    vendor_lab: string().nullable().describe('Where the lab reference range in vendor_lab_* was transcribed from; null when none applies'),
  }).describe('Where each number came from'),
});

/** GT/GTE carry only min, LT/LTE only max, range both, none all three null (spec §2.12). */
export const PredictorStatisticSchema = discriminatedUnion('vendor_lab_range', [
  PredictorStatisticBase.extend({
    vendor_lab_range: literal('range').describe(VENDOR_LAB_RANGE),
    vendor_lab_min: number().describe(VENDOR_LAB_MIN),
    vendor_lab_max: number().describe(VENDOR_LAB_MAX),
  }),
  PredictorStatisticBase.extend({
    vendor_lab_range: zenum(['GT', 'GTE']).describe(VENDOR_LAB_RANGE),
    vendor_lab_min: number().describe(VENDOR_LAB_MIN),
    vendor_lab_max: znull().describe(VENDOR_LAB_MAX),
  }),
  PredictorStatisticBase.extend({
    vendor_lab_range: zenum(['LT', 'LTE']).describe(VENDOR_LAB_RANGE),
    vendor_lab_min: znull().describe(VENDOR_LAB_MIN),
    vendor_lab_max: number().describe(VENDOR_LAB_MAX),
  }),
  PredictorStatisticBase.extend({
    vendor_lab_range: znull().describe(VENDOR_LAB_RANGE),
    vendor_lab_min: znull().describe(VENDOR_LAB_MIN),
    vendor_lab_max: znull().describe(VENDOR_LAB_MAX),
  }),
]).meta({ id: 'PredictorStatistic', description: 'Population, optimal and lab ranges of one scoring predictor for a sex and age' });
export type PredictorStatistic = Infer<typeof PredictorStatisticSchema>;

export const PredictorStatisticsResponseSchema = object({
  header: object({
    event_id: string().describe('event_id of the request'),
    event_asof_dtutc: string().describe('event_asof_dtutc of the request, as sent'),
    scoring_version: string().describe('Version of the scoring engine and its model set (as in scoring responses)'),
  }).describe('The request\'s header, echoed, and the scoring version'),
  predictor_statistics: array(PredictorStatisticSchema).describe('One entry per scoring predictor'),
}).meta({ id: 'PredictorStatisticsResponse', description: 'Statistics of every scoring predictor for the sex and age asked' });
export type PredictorStatisticsResponse = Infer<typeof PredictorStatisticsResponseSchema>;

/** §2.14 row; every served row has both bounds (one-sided printed ranges: see `LabRangeOneSidedRowSchema`). */
const MIN_DISPLAY = 'The lower bound as the lab printed it';
const MIN_VALUE = 'The lower bound as a number, in `unit`';
const MIN_OPERATOR = 'How a value compares with the lower bound to be in range: > or >=';
const MAX_DISPLAY = 'The upper bound as the lab printed it';
const MAX_VALUE = 'The upper bound as a number, in `unit`';
const MAX_OPERATOR = 'How a value compares with the upper bound to be in range: < or <=';

export const LabRangeRowSchema = object({
  lab_range_id: number().int().positive().describe('Hale\'s id of the range, stable across releases (48 bits of SHA-256 over vendor, code, sex and printed test name)'),
  concept_id: number().int().positive().describe('The concept_id of the test in GET /reference-data/'),
  concept_code: string().describe('LOINC code of the test'),
  concept_name: string().describe('LOINC long common name of the test'),
  vendor_name: string().describe('The lab that prints the range: Quest Diagnostics or Labcorp'),
  gender_name: zenum(['MALE', 'FEMALE', 'ALL']).describe('Sex the range applies to: MALE, FEMALE, or ALL where the printed range is not sex-specific'),
  min_value_display: string().describe(MIN_DISPLAY),
  min_value: number().describe(MIN_VALUE),
  min_value_operator: zenum(['>', '>=']).describe(MIN_OPERATOR),
  max_value_display: string().describe(MAX_DISPLAY),
  max_value: number().describe(MAX_VALUE),
  max_value_operator: zenum(['<', '<=']).describe(MAX_OPERATOR),
  bmi_min: number().nullable().describe('Lowest body-mass index (kg/m2) the range applies to; null when it does not depend on BMI'),
  bmi_max: number().nullable().describe('Highest body-mass index (kg/m2) the range applies to; null when it does not depend on BMI'),
  menstrual_cycle: string().nullable().describe('Phase the range applies to (follicular_phase, mid_cycle, luteal_phase, postmenopausal); null when it does not depend on one'),
  // Additive: the test name and unit as the lab printed them, the unit in UCUM, and the transcription source.
  vendor_test_name: string().describe('The test name as the lab prints it'),
  unit: string().describe('The unit as the lab prints it (e.g. x10E3/uL)'),
  ucum_unit: string().nullable().describe('The same unit in UCUM (e.g. 10*3/uL); null when it has no UCUM form'),
  source: string().describe('Where the range was transcribed from'),
}).meta({ id: 'LabRangeRow', description: 'A lab\'s reference range for one test, as printed, with both bounds' });
export type LabRangeRow = Infer<typeof LabRangeRowSchema>;

/**
 * A printed range with one bound only ("< 200", ">= 40"): served only on request (`one_sided=include`),
 * with the open side's three fields null instead of a made-up sentinel.
 */
export const LabRangeOneSidedRowSchema = union([
  LabRangeRowSchema.extend({
    max_value_display: znull().describe(`${MAX_DISPLAY}; null: no upper bound`),
    max_value: znull().describe(`${MAX_VALUE}; null: no upper bound`),
    max_value_operator: znull().describe(`${MAX_OPERATOR}; null: no upper bound`),
  }),
  LabRangeRowSchema.extend({
    min_value_display: znull().describe(`${MIN_DISPLAY}; null: no lower bound`),
    min_value: znull().describe(`${MIN_VALUE}; null: no lower bound`),
    min_value_operator: znull().describe(`${MIN_OPERATOR}; null: no lower bound`),
  }),
]).meta({ id: 'LabRangeOneSidedRow', description: 'A range printed with one bound only ("< 200", ">= 40"), the open side null; served with one_sided=include' });
export type LabRangeOneSidedRow = Infer<typeof LabRangeOneSidedRowSchema>;

export const LabRangesQuerySchema = object({
  sex: string().max(32).optional().describe('male/M, female/F or all, any case: that sex\'s ranges and those printed for both sexes; another value gives an empty array'),
  vendor_name: string().max(64).optional().describe('Quest, Quest Diagnostics or Labcorp, any case: that lab\'s ranges; another value gives an empty array'),
  one_sided: zenum(['include', 'exclude']).default('exclude').describe('include: also ranges printed with one bound only (the open side null); default exclude'),
});
export type LabRangesQuery = Infer<typeof LabRangesQuerySchema>;

export const LabRangesResponseSchema = array(union([LabRangeRowSchema, LabRangeOneSidedRowSchema]));
