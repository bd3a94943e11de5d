// Named imports, not `z`: any `z.…` access makes esbuild keep all of zod, locales included (+270 kB
// in the handler bundle, and module load time on every cold start).
import { array, iso, literal, number, object, string, union, uuid, enum as zenum, type infer as Infer } from 'zod';

/**
 * Request and response schemas of POST /health-score/timeseries (spec §2.1, §2.8, §4.1). The report
 * requests (functions/report) reuse `PredictorInputSchema`; the widget and the PDF report draw
 * `TimeseriesResponseSchema` as it is.
 */

export const IsoDateSchema = iso.date();

export const PredictorInputSchema = object({
  id: string().min(1).max(64),
  /** LOINC (or documented Hale) code of the input, see GET /reference-data/. */
  observation_code: string().min(1).max(64),
  /** Numeric text, or text such as `male` for a sex predictor. */
  value: string().max(64),
  /** Printed unit; empty string where none applies. */
  unit: string().max(64),
  lab_panel: string().max(256).optional(),
});
export type PredictorInput = Infer<typeof PredictorInputSchema>;

export const TimeseriesEventSchema = object({
  health_event_id: string().min(1).max(128),
  health_event_date: IsoDateSchema,
  predictors: array(PredictorInputSchema).max(500),
});

export const ScoringModeSchema = zenum(['validate_and_score', 'score', 'validate']);
export type ScoringMode = Infer<typeof ScoringModeSchema>;

export const TimeseriesRequestSchema = object({
  scoring_event_metadata: object({
    event_id: uuid(),
    event_asof_dtutc: iso.datetime({ offset: true }),
    mode: ScoringModeSchema,
  }),
  uid_ext: string().min(1).max(256),
  dates_to_score: array(IsoDateSchema).min(1).max(100),
  date_of_birth: IsoDateSchema,
  health_events: array(TimeseriesEventSchema).min(1).max(200),
}).meta({ id: 'TimeseriesRequest' });
export type TimeseriesRequest = Infer<typeof TimeseriesRequestSchema>;

export const DiseaseCodeSchema = zenum(['all_cause', 'cardiovascular', 'heart_failure', 'type2_diabetes', 'kidney', 'liver']);
export type DiseaseCode = Infer<typeof DiseaseCodeSchema>;

export const ImputationCodeSchema = zenum(['measured', 'carried_forward', 'derived', 'population_median', 'default']);
export type ImputationCode = Infer<typeof ImputationCodeSchema>;

export const RiskRatiosSchema = object({
  /** Horizon of `risk` and `peer_risk` as the model defines it (10 for PhenoAge/PREVENT, 9 for ARIC, 5 for KFRE). */
  horizon_years: number().nullable(),
  /** Model probability for the person (0–1); null when the model yields no probability. */
  risk: number().nullable(),
  /** Mean model probability of same-sex, same-age-band NHANES 2017–2020 peers (survey-weighted). */
  peer_risk: number().nullable(),
  ratio: number().nullable(),
  /** Why the three above are null, when they are. */
  reason: string().nullable(),
});

export const PredictorAttributionSchema = object({
  predictor: string(),
  name: string(),
  observation_codes: array(string()),
  value: number().nullable(),
  peer_value: number().nullable(),
  unit: string(),
  /** Change in disease_age (years) from moving this input from its peer value to the person's value. */
  disease_age_years: number().nullable(),
  /** Change in risk (probability points, 0–1 scale) from the same move; null where the model has no probability. */
  risk: number().nullable(),
});

export const ImprovementOpportunitySchema = object({
  predictor: string(),
  name: string(),
  observation_codes: array(string()),
  current_value: number(),
  target_value: number(),
  unit: string(),
  optimal_min: number().nullable(),
  optimal_max: number().nullable(),
  /** disease_age and risk if this input moved to the nearest edge of its optimal range. */
  disease_age: number().nullable(),
  risk: number().nullable(),
  disease_age_change: number().nullable(),
  risk_change: number().nullable(),
});

export const ModelReferenceSchema = object({
  id: string(),
  name: string(),
  citation: string(),
  doi: string().nullable(),
  version: string(),
});

export const DomainIndexSchema = object({
  name: string(),
  value: number(),
  unit: string().nullable(),
  category: string().nullable(),
});

export const CompletenessSchema = object({
  measured: array(string()),
  carried_forward: array(string()),
  derived: array(string()),
  imputed: array(string()),
  /** Share of the model's inputs measured, carried forward or derived from those (0–1). */
  fraction_observed: number(),
});

export const DiseaseScoreSchema = object({
  disease_code: DiseaseCodeSchema,
  disease_name: string(),
  /** `scored`, or `not_scored` with `notes` saying why (e.g. age outside the model's validity). */
  status: zenum(['scored', 'not_scored']),
  health_score: number().min(0).max(100).nullable(),
  health_score_max: literal(100),
  disease_age: number().nullable(),
  chronological_age: number(),
  risk_ratios: RiskRatiosSchema,
  /** Position among same-sex, same-age-band peers, 0–100, higher = healthier. */
  score_percentile: number().min(0).max(100).nullable(),
  /** Index-type outputs (eGFR, FIB-4, NFS) with their guideline category. */
  indices: array(DomainIndexSchema),
  predictor_attributions: array(PredictorAttributionSchema),
  /**
   * Total effect (all inputs at their peer values) minus the sum of the one-at-a-time attributions:
   * the part due to interactions and the model's non-linearity.
   */
  attribution_residual: object({ disease_age_years: number(), risk: number().nullable() }).optional(),
  improvement_opportunities: array(ImprovementOpportunitySchema),
  model: ModelReferenceSchema,
  completeness: CompletenessSchema,
  notes: array(string()),
});
export type DiseaseScore = Infer<typeof DiseaseScoreSchema>;

export const ScoringPredictorSchema = object({
  predictor: string(),
  name: string(),
  observation_code: string(),
  value: union([number(), string()]),
  /** UCUM code of `value`; empty for unitless inputs. */
  unit: string(),
  imputation_code: ImputationCodeSchema,
  /** Date of the event the value came from (measured / carried_forward); null otherwise. */
  source_date: IsoDateSchema.nullable(),
  /** Days between source_date and the scored date (carried_forward). */
  age_days: number().int().nullable(),
});

export const ScoringResultSchema = object({
  scoring_event_date: IsoDateSchema,
  scoring_event_age: number(),
  disease_scores: array(DiseaseScoreSchema),
  scoring_predictors: array(ScoringPredictorSchema),
});
export type ScoringResult = Infer<typeof ScoringResultSchema>;

export const ScoringWarningSchema = object({
  code: string(),
  message: string(),
  health_event_id: string().nullable(),
  observation_code: string().nullable(),
});

export const TimeseriesResponseSchema = object({
  scoring_event_metadata: object({
    event_id: string(),
    event_asof_dtutc: string(),
    mode: ScoringModeSchema,
  }),
  uid_ext: string(),
  scoring_version: string(),
  warnings: array(ScoringWarningSchema),
  scoring_results: array(ScoringResultSchema),
}).meta({ id: 'TimeseriesResponse' });
export type TimeseriesResponse = Infer<typeof TimeseriesResponseSchema>;

export const TopDiseasePredictorSchema = object({
  observation_codes: array(string()),
  /** 1 = most important. */
  rank: number().int().min(1),
  /** Relative importance within the domain; the domain's strengths sum to 1. */
  strength: number().min(0).max(1),
  predictor: string(),
  name: string(),
});

export const TopDiseasePredictorsResponseSchema = object({
    top_disease_predictors: array(
      object({
        /** Health domain (the `disease_code` of scoring responses). */
        disease: DiseaseCodeSchema,
        disease_name: string(),
        predictors: array(TopDiseasePredictorSchema),
      }),
    ),
    /** How strength is derived from the models. */
    method: string(),
    scoring_version: string(),
}).meta({ id: 'TopDiseasePredictors' });
export type TopDiseasePredictorsResponse = Infer<typeof TopDiseasePredictorsResponseSchema>;
