import { z } from 'zod';

/**
 * Request and response schemas of the reference routes (spec §2.11, §2.12, §2.14, §4.9, §4.10, §4.12).
 * Fields beyond the spec are additive and say where a number came from.
 */

const SECONDS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const FRACTIONAL = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{1,9}$/;

/** UTC `YYYY-MM-DD HH:MM:SS`. */
export const UtcSecondsSchema = z.string().regex(SECONDS, 'expected YYYY-MM-DD HH:MM:SS');
/** UTC `YYYY-MM-DD HH:MM:SS.ffffff`. */
export const UtcFractionalSchema = z.string().regex(FRACTIONAL, 'expected YYYY-MM-DD HH:MM:SS.ffffff');

export const ReferenceDataEntrySchema = z.object({
  /** Stable id: see `conceptId` (functions/reference/concept-id.ts). */
  concept_id: z.number().int().positive(),
  concept_name: z.string().min(1),
  concept_code: z.string().min(1),
  pref_ucum_unit: z.string().min(1).nullable(),
  lookup_type_concept_id: z.number().int().nullable(),
  vocabulary_id: z.enum(['LOINC', 'SNOMED']),
  /** OMOP CDM vocabulary concept id of `vocabulary_id` (LOINC 44819102, SNOMED 44819097). */
  vocabulary_concept_id: z.number().int(),
  concept_class_id: z.string().min(1),
  domain_id: z.string().min(1),
  standard_concept: z.literal('S'),
  start_dtutc: UtcSecondsSchema,
  end_dtutc: UtcSecondsSchema,
  created_dtutc: UtcFractionalSchema,
  updated_dtutc: UtcFractionalSchema.nullable(),
}).meta({ id: 'ReferenceDataEntry' });
export type ReferenceDataEntry = z.infer<typeof ReferenceDataEntrySchema>;
export const ReferenceDataResponseSchema = z.array(ReferenceDataEntrySchema);

export const SexSchema = z.enum(['male', 'female']);
export type Sex = z.infer<typeof SexSchema>;

export const PredictorStatisticsRequestSchema = z.object({
  header: z.object({
    event_id: z.string().min(1).max(128),
    event_asof_dtutc: z.iso.datetime({ offset: true }),
  }),
  sex: SexSchema,
  age: z.number().min(0).max(120),
}).meta({ id: 'PredictorStatisticsRequest' });
export type PredictorStatisticsRequest = z.infer<typeof PredictorStatisticsRequestSchema>;

export const VendorLabRangeSchema = z.enum(['range', 'GT', 'GTE', 'LT', 'LTE']);
export type VendorLabRange = z.infer<typeof VendorLabRangeSchema>;

const PredictorStatisticBase = z.object({
  name: z.string(),
  observation_codes: z.array(z.string()).nullable(),
  mean: z.number(),
  optimal_min: z.number(),
  optimal_max: z.number(),
  absolute_min: z.number(),
  absolute_max: z.number(),
  /** Additive: catalogue key, unit (UCUM) of every number, and where each number came from. */
  predictor: z.string(),
  unit: z.string(),
  source: z.object({
    population: z.string(),
    dataset: z.string(),
    age_band: z.string(),
    age_rule: z.enum(['in_band', 'top_coded_80_plus', 'nearest_adult_band']),
    n: z.number().int(),
    optimal: z.string(),
    optimal_rule: z.enum(['guideline', 'vendor_reference_range', 'population_central_90']),
    vendor_lab: z.string().nullable(),
  }),
});

/** GT/GTE carry only min, LT/LTE only max, range both, none all three null (spec §2.12). */
export const PredictorStatisticSchema = z.discriminatedUnion('vendor_lab_range', [
  PredictorStatisticBase.extend({ vendor_lab_range: z.literal('range'), vendor_lab_min: z.number(), vendor_lab_max: z.number() }),
  PredictorStatisticBase.extend({ vendor_lab_range: z.enum(['GT', 'GTE']), vendor_lab_min: z.number(), vendor_lab_max: z.null() }),
  PredictorStatisticBase.extend({ vendor_lab_range: z.enum(['LT', 'LTE']), vendor_lab_min: z.null(), vendor_lab_max: z.number() }),
  PredictorStatisticBase.extend({ vendor_lab_range: z.null(), vendor_lab_min: z.null(), vendor_lab_max: z.null() }),
]).meta({ id: 'PredictorStatistic' });
export type PredictorStatistic = z.infer<typeof PredictorStatisticSchema>;

export const PredictorStatisticsResponseSchema = z.object({
  header: z.object({ event_id: z.string(), event_asof_dtutc: z.string(), scoring_version: z.string() }),
  predictor_statistics: z.array(PredictorStatisticSchema),
}).meta({ id: 'PredictorStatisticsResponse' });
export type PredictorStatisticsResponse = z.infer<typeof PredictorStatisticsResponseSchema>;

export const LabRangeOperatorSchema = z.enum(['>', '>=', '<', '<=']);

/** §2.14 row; every served row has both bounds (one-sided printed ranges: see `LabRangeOneSidedRowSchema`). */
export const LabRangeRowSchema = z.object({
  lab_range_id: z.number().int().positive(),
  concept_id: z.number().int().positive(),
  concept_code: z.string(),
  concept_name: z.string(),
  vendor_name: z.string(),
  /** MALE, FEMALE, or ALL where the printed range is not sex-specific. */
  gender_name: z.enum(['MALE', 'FEMALE', 'ALL']),
  min_value_display: z.string(),
  min_value: z.number(),
  min_value_operator: z.enum(['>', '>=']),
  max_value_display: z.string(),
  max_value: z.number(),
  max_value_operator: z.enum(['<', '<=']),
  bmi_min: z.number().nullable(),
  bmi_max: z.number().nullable(),
  menstrual_cycle: z.string().nullable(),
  /** Additive: the test name and unit as the lab printed them, the unit in UCUM, and the transcription source. */
  vendor_test_name: z.string(),
  unit: z.string(),
  ucum_unit: z.string().nullable(),
  source: z.string(),
}).meta({ id: 'LabRangeRow' });
export type LabRangeRow = z.infer<typeof LabRangeRowSchema>;

/**
 * A printed range with one bound only ("< 200", ">= 40"): served only on request (`one_sided=include`),
 * with the open side's three fields null instead of a made-up sentinel.
 */
export const LabRangeOneSidedRowSchema = z.union([
  LabRangeRowSchema.extend({ max_value_display: z.null(), max_value: z.null(), max_value_operator: z.null() }),
  LabRangeRowSchema.extend({ min_value_display: z.null(), min_value: z.null(), min_value_operator: z.null() }),
]).meta({ id: 'LabRangeOneSidedRow' });
export type LabRangeOneSidedRow = z.infer<typeof LabRangeOneSidedRowSchema>;

export const LabRangesQuerySchema = z.object({
  sex: z.string().max(32).optional(),
  vendor_name: z.string().max(64).optional(),
  one_sided: z.enum(['include', 'exclude']).default('exclude'),
});
export type LabRangesQuery = z.infer<typeof LabRangesQuerySchema>;

export const LabRangesResponseSchema = z.array(z.union([LabRangeRowSchema, LabRangeOneSidedRowSchema]));
