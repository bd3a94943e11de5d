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

export const ReferenceDataEntrySchema = object({
  /** Stable id: see `conceptId` (functions/reference/concept-id.ts). */
  concept_id: number().int().positive(),
  concept_name: string().min(1),
  concept_code: string().min(1),
  pref_ucum_unit: string().min(1).nullable(),
  lookup_type_concept_id: number().int().nullable(),
  vocabulary_id: zenum(['LOINC', 'SNOMED']),
  /** OMOP CDM vocabulary concept id of `vocabulary_id` (LOINC 44819102, SNOMED 44819097). */
  vocabulary_concept_id: number().int(),
  concept_class_id: string().min(1),
  domain_id: string().min(1),
  standard_concept: literal('S'),
  start_dtutc: UtcSecondsSchema,
  end_dtutc: UtcSecondsSchema,
  created_dtutc: UtcFractionalSchema,
  updated_dtutc: UtcFractionalSchema.nullable(),
}).meta({ id: 'ReferenceDataEntry' });
export type ReferenceDataEntry = Infer<typeof ReferenceDataEntrySchema>;
export const ReferenceDataResponseSchema = array(ReferenceDataEntrySchema);

export const SexSchema = zenum(['male', 'female']);
export type Sex = Infer<typeof SexSchema>;

export const PredictorStatisticsRequestSchema = object({
  header: object({
    event_id: string().min(1).max(128),
    /** ISO 8601 date-time; with Z or an offset, or without a zone (then read as UTC, as the name says). */
    event_asof_dtutc: iso.datetime({ offset: true, local: true }),
  }),
  sex: SexSchema,
  age: number().min(0).max(120),
}).meta({ id: 'PredictorStatisticsRequest' });
export type PredictorStatisticsRequest = Infer<typeof PredictorStatisticsRequestSchema>;

export const VendorLabRangeSchema = zenum(['range', 'GT', 'GTE', 'LT', 'LTE']);
export type VendorLabRange = Infer<typeof VendorLabRangeSchema>;

const PredictorStatisticBase = object({
  name: string(),
  observation_codes: array(string()).nullable(),
  mean: number(),
  optimal_min: number(),
  optimal_max: number(),
  absolute_min: number(),
  absolute_max: number(),
  /** Additive: catalogue key, unit (UCUM) of every number, and where each number came from. */
  predictor: string(),
  unit: string(),
  source: object({
    population: string(),
    dataset: string(),
    age_band: string(),
    age_rule: zenum(['in_band', 'top_coded_80_plus', 'nearest_adult_band']),
    n: number().int(),
    optimal: string(),
    optimal_rule: zenum(['guideline', 'vendor_reference_range', 'population_central_90']),
    vendor_lab: string().nullable(),
  }),
});

/** GT/GTE carry only min, LT/LTE only max, range both, none all three null (spec §2.12). */
export const PredictorStatisticSchema = discriminatedUnion('vendor_lab_range', [
  PredictorStatisticBase.extend({ vendor_lab_range: literal('range'), vendor_lab_min: number(), vendor_lab_max: number() }),
  PredictorStatisticBase.extend({ vendor_lab_range: zenum(['GT', 'GTE']), vendor_lab_min: number(), vendor_lab_max: znull() }),
  PredictorStatisticBase.extend({ vendor_lab_range: zenum(['LT', 'LTE']), vendor_lab_min: znull(), vendor_lab_max: number() }),
  PredictorStatisticBase.extend({ vendor_lab_range: znull(), vendor_lab_min: znull(), vendor_lab_max: znull() }),
]).meta({ id: 'PredictorStatistic' });
export type PredictorStatistic = Infer<typeof PredictorStatisticSchema>;

export const PredictorStatisticsResponseSchema = object({
  header: object({ event_id: string(), event_asof_dtutc: string(), scoring_version: string() }),
  predictor_statistics: array(PredictorStatisticSchema),
}).meta({ id: 'PredictorStatisticsResponse' });
export type PredictorStatisticsResponse = Infer<typeof PredictorStatisticsResponseSchema>;

/** §2.14 row; every served row has both bounds (one-sided printed ranges: see `LabRangeOneSidedRowSchema`). */
export const LabRangeRowSchema = object({
  lab_range_id: number().int().positive(),
  concept_id: number().int().positive(),
  concept_code: string(),
  concept_name: string(),
  vendor_name: string(),
  /** MALE, FEMALE, or ALL where the printed range is not sex-specific. */
  gender_name: zenum(['MALE', 'FEMALE', 'ALL']),
  min_value_display: string(),
  min_value: number(),
  min_value_operator: zenum(['>', '>=']),
  max_value_display: string(),
  max_value: number(),
  max_value_operator: zenum(['<', '<=']),
  bmi_min: number().nullable(),
  bmi_max: number().nullable(),
  menstrual_cycle: string().nullable(),
  /** Additive: the test name and unit as the lab printed them, the unit in UCUM, and the transcription source. */
  vendor_test_name: string(),
  unit: string(),
  ucum_unit: string().nullable(),
  source: string(),
}).meta({ id: 'LabRangeRow' });
export type LabRangeRow = Infer<typeof LabRangeRowSchema>;

/**
 * A printed range with one bound only ("< 200", ">= 40"): served only on request (`one_sided=include`),
 * with the open side's three fields null instead of a made-up sentinel.
 */
export const LabRangeOneSidedRowSchema = union([
  LabRangeRowSchema.extend({ max_value_display: znull(), max_value: znull(), max_value_operator: znull() }),
  LabRangeRowSchema.extend({ min_value_display: znull(), min_value: znull(), min_value_operator: znull() }),
]).meta({ id: 'LabRangeOneSidedRow' });
export type LabRangeOneSidedRow = Infer<typeof LabRangeOneSidedRowSchema>;

export const LabRangesQuerySchema = object({
  sex: string().max(32).optional(),
  vendor_name: string().max(64).optional(),
  one_sided: zenum(['include', 'exclude']).default('exclude'),
});
export type LabRangesQuery = Infer<typeof LabRangesQuerySchema>;

export const LabRangesResponseSchema = array(union([LabRangeRowSchema, LabRangeOneSidedRowSchema]));
