import { z } from 'zod';

/**
 * Request and response schemas of POST /health-score/timeseries (spec §2.1, §2.8, §4.1). The report
 * requests (functions/report) reuse `PredictorInputSchema`; the widget and the PDF report draw
 * `TimeseriesResponseSchema` as it is.
 */

export const IsoDateSchema = z.iso.date();

export const PredictorInputSchema = z.object({
  id: z.string().min(1).max(64),
  /** LOINC (or documented Hale) code of the input, see GET /reference-data/. */
  observation_code: z.string().min(1).max(64),
  /** Numeric text, or text such as `male` for a sex predictor. */
  value: z.string().max(64),
  /** Printed unit; empty string where none applies. */
  unit: z.string().max(64),
  lab_panel: z.string().max(256).optional(),
});
export type PredictorInput = z.infer<typeof PredictorInputSchema>;

export const TimeseriesEventSchema = z.object({
  health_event_id: z.string().min(1).max(128),
  health_event_date: IsoDateSchema,
  predictors: z.array(PredictorInputSchema).max(500),
});

export const ScoringModeSchema = z.enum(['validate_and_score', 'score', 'validate']);
export type ScoringMode = z.infer<typeof ScoringModeSchema>;

export const TimeseriesRequestSchema = z.object({
  scoring_event_metadata: z.object({
    event_id: z.uuid(),
    event_asof_dtutc: z.iso.datetime({ offset: true }),
    mode: ScoringModeSchema,
  }),
  uid_ext: z.string().min(1).max(256),
  dates_to_score: z.array(IsoDateSchema).min(1).max(100),
  date_of_birth: IsoDateSchema,
  health_events: z.array(TimeseriesEventSchema).min(1).max(200),
}).meta({ id: 'TimeseriesRequest' });
export type TimeseriesRequest = z.infer<typeof TimeseriesRequestSchema>;

export const DiseaseCodeSchema = z.enum(['all_cause', 'cardiovascular', 'heart_failure', 'type2_diabetes', 'kidney', 'liver']);
export type DiseaseCode = z.infer<typeof DiseaseCodeSchema>;

export const ImputationCodeSchema = z.enum(['measured', 'carried_forward', 'derived', 'population_median', 'default']);
export type ImputationCode = z.infer<typeof ImputationCodeSchema>;

export const RiskRatiosSchema = z.object({
  /** Horizon of `risk` and `peer_risk` as the model defines it (10 for PhenoAge/PREVENT, 9 for ARIC, 5 for KFRE). */
  horizon_years: z.number().nullable(),
  /** Model probability for the person (0–1); null when the model yields no probability. */
  risk: z.number().nullable(),
  /** Mean model probability of same-sex, same-age-band NHANES 2017–2020 peers (survey-weighted). */
  peer_risk: z.number().nullable(),
  ratio: z.number().nullable(),
  /** Why the three above are null, when they are. */
  reason: z.string().nullable(),
});

export const PredictorAttributionSchema = z.object({
  predictor: z.string(),
  name: z.string(),
  observation_codes: z.array(z.string()),
  value: z.number().nullable(),
  peer_value: z.number().nullable(),
  unit: z.string(),
  /** Change in disease_age (years) from moving this input from its peer value to the person's value. */
  disease_age_years: z.number().nullable(),
  /** Change in risk (probability points, 0–1 scale) from the same move; null where the model has no probability. */
  risk: z.number().nullable(),
});

export const ImprovementOpportunitySchema = z.object({
  predictor: z.string(),
  name: z.string(),
  observation_codes: z.array(z.string()),
  current_value: z.number(),
  target_value: z.number(),
  unit: z.string(),
  optimal_min: z.number().nullable(),
  optimal_max: z.number().nullable(),
  /** disease_age and risk if this input moved to the nearest edge of its optimal range. */
  disease_age: z.number().nullable(),
  risk: z.number().nullable(),
  disease_age_change: z.number().nullable(),
  risk_change: z.number().nullable(),
});

export const ModelReferenceSchema = z.object({
  id: z.string(),
  name: z.string(),
  citation: z.string(),
  doi: z.string().nullable(),
  version: z.string(),
});

export const DomainIndexSchema = z.object({
  name: z.string(),
  value: z.number(),
  unit: z.string().nullable(),
  category: z.string().nullable(),
});

export const CompletenessSchema = z.object({
  measured: z.array(z.string()),
  carried_forward: z.array(z.string()),
  derived: z.array(z.string()),
  imputed: z.array(z.string()),
  /** Share of the model's inputs measured, carried forward or derived from those (0–1). */
  fraction_observed: z.number(),
});

export const DiseaseScoreSchema = z.object({
  disease_code: DiseaseCodeSchema,
  disease_name: z.string(),
  /** `scored`, or `not_scored` with `notes` saying why (e.g. age outside the model's validity). */
  status: z.enum(['scored', 'not_scored']),
  health_score: z.number().min(0).max(100).nullable(),
  health_score_max: z.literal(100),
  disease_age: z.number().nullable(),
  chronological_age: z.number(),
  risk_ratios: RiskRatiosSchema,
  /** Position among same-sex, same-age-band peers, 0–100, higher = healthier. */
  score_percentile: z.number().min(0).max(100).nullable(),
  /** Index-type outputs (eGFR, FIB-4, NFS) with their guideline category. */
  indices: z.array(DomainIndexSchema),
  predictor_attributions: z.array(PredictorAttributionSchema),
  /**
   * Total effect (all inputs at their peer values) minus the sum of the one-at-a-time attributions:
   * the part due to interactions and the model's non-linearity.
   */
  attribution_residual: z.object({ disease_age_years: z.number(), risk: z.number().nullable() }).optional(),
  improvement_opportunities: z.array(ImprovementOpportunitySchema),
  model: ModelReferenceSchema,
  completeness: CompletenessSchema,
  notes: z.array(z.string()),
});
export type DiseaseScore = z.infer<typeof DiseaseScoreSchema>;

export const ScoringPredictorSchema = z.object({
  predictor: z.string(),
  name: z.string(),
  observation_code: z.string(),
  value: z.union([z.number(), z.string()]),
  /** UCUM code of `value`; empty for unitless inputs. */
  unit: z.string(),
  imputation_code: ImputationCodeSchema,
  /** Date of the event the value came from (measured / carried_forward); null otherwise. */
  source_date: IsoDateSchema.nullable(),
  /** Days between source_date and the scored date (carried_forward). */
  age_days: z.number().int().nullable(),
});

export const ScoringResultSchema = z.object({
  scoring_event_date: IsoDateSchema,
  scoring_event_age: z.number(),
  disease_scores: z.array(DiseaseScoreSchema),
  scoring_predictors: z.array(ScoringPredictorSchema),
});
export type ScoringResult = z.infer<typeof ScoringResultSchema>;

export const ScoringWarningSchema = z.object({
  code: z.string(),
  message: z.string(),
  health_event_id: z.string().nullable(),
  observation_code: z.string().nullable(),
});

export const TimeseriesResponseSchema = z.object({
  scoring_event_metadata: z.object({
    event_id: z.string(),
    event_asof_dtutc: z.string(),
    mode: ScoringModeSchema,
  }),
  uid_ext: z.string(),
  scoring_version: z.string(),
  warnings: z.array(ScoringWarningSchema),
  scoring_results: z.array(ScoringResultSchema),
}).meta({ id: 'TimeseriesResponse' });
export type TimeseriesResponse = z.infer<typeof TimeseriesResponseSchema>;

export const TopDiseasePredictorSchema = z.object({
  observation_codes: z.array(z.string()),
  /** 1 = most important. */
  rank: z.number().int().min(1),
  /** Relative importance within the domain; the domain's strengths sum to 1. */
  strength: z.number().min(0).max(1),
  predictor: z.string(),
  name: z.string(),
});

export const TopDiseasePredictorsResponseSchema = z
  .object({
    top_disease_predictors: z.array(
      z.object({
        /** Health domain (the `disease_code` of scoring responses). */
        disease: DiseaseCodeSchema,
        disease_name: z.string(),
        predictors: z.array(TopDiseasePredictorSchema),
      }),
    ),
    /** How strength is derived from the models. */
    method: z.string(),
    scoring_version: z.string(),
  })
  .meta({ id: 'TopDiseasePredictors' });
export type TopDiseasePredictorsResponse = z.infer<typeof TopDiseasePredictorsResponseSchema>;
