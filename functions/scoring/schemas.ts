// Named imports, not `z`: any `z.…` access makes esbuild keep all of zod, locales included (+270 kB
// in the handler bundle, and module load time on every cold start).
import { array, iso, literal, number, object, string, union, uuid, enum as zenum, type infer as Infer } from 'zod';

/**
 * Request and response schemas of POST /health-score/timeseries (spec §2.1, §2.8, §4.1). The report
 * requests (functions/report) reuse `PredictorInputSchema`; the widget and the PDF report draw
 * `TimeseriesResponseSchema` as it is. Every field carries its meaning, unit and range in the OpenAPI
 * document (`meta({ description })`), so a client need not read this file.
 */

export const IsoDateSchema = iso.date();

export const PredictorInputSchema = object({
  id: string().min(1).max(64).meta({ description: 'Your id of this value, unique within the request.' }),
  observation_code: string()
    .min(1)
    .max(64)
    .meta({ description: 'LOINC (or SNOMED CT for yes/no inputs) code of the input; GET /reference-data/ lists the codes Hale scores. Unknown codes are ignored with a warning.' }),
  value: string()
    .max(64)
    .meta({
      description:
        'The value as text: a number (a leading `<` or `>` is scored at the limit with a warning), `true`/`false`/`yes`/`no`/`1`/`0` for yes/no inputs, `male`/`female` for 76689-9.',
    }),
  unit: string()
    .max(64)
    .meta({ description: 'Unit as printed on the report (`mg/dL`, `mmol/L`, `x10E3/uL`, `mmol/mol`, …); converted with UCUM. Empty where none applies.' }),
  lab_panel: string().max(256).optional().meta({ description: 'Name of the lab panel the value was printed in; informational.' }),
});
export type PredictorInput = Infer<typeof PredictorInputSchema>;

export const TimeseriesEventSchema = object({
  health_event_id: string().min(1).max(128).meta({ description: 'Your id of the event, unique within the request.' }),
  health_event_date: IsoDateSchema.meta({ description: 'Date of the measurements (YYYY-MM-DD); not before date_of_birth, not after event_asof_dtutc.' }),
  predictors: array(PredictorInputSchema).max(500).meta({ description: 'The values measured on that date.' }),
});

export const ScoringModeSchema = zenum(['validate_and_score', 'score', 'validate']).meta({
  description:
    '`validate_and_score` and `validate` answer 422 for any invalid value (`validate` returns no results); `score` drops an invalid value with a warning and scores the rest.',
});
export type ScoringMode = Infer<typeof ScoringModeSchema>;

const ScoringEventMetadataSchema = object({
  event_id: uuid().meta({ description: 'Your id of this scoring request (UUID), echoed in the response.' }),
  event_asof_dtutc: iso
    .datetime({ offset: true })
    .meta({ description: 'The moment the request speaks for (ISO 8601 with offset); no event or date to score may lie after its date.' }),
  mode: ScoringModeSchema,
}).meta({ description: 'Your id of the request, the moment it speaks for, and how invalid values are handled.' });

export const TimeseriesRequestSchema = object({
  scoring_event_metadata: ScoringEventMetadataSchema,
  uid_ext: string().min(1).max(256).meta({ description: 'Your reference of the person; echoed, never interpreted.' }),
  dates_to_score: array(IsoDateSchema)
    .min(1)
    .max(100)
    .meta({ description: 'Dates to score (YYYY-MM-DD), each once; each is scored from the events on or before it.' }),
  date_of_birth: IsoDateSchema.meta({ description: 'Date of birth (YYYY-MM-DD), at most 120 years before every date to score.' }),
  health_events: array(TimeseriesEventSchema).min(1).max(200).meta({ description: 'Dated measurements; ids unique, one value per code and date.' }),
}).meta({ id: 'TimeseriesRequest', description: 'One person’s measurements over time and the dates to score.' });
export type TimeseriesRequest = Infer<typeof TimeseriesRequestSchema>;

export const DiseaseCodeSchema = zenum(['all_cause', 'cardiovascular', 'heart_failure', 'type2_diabetes', 'kidney', 'liver']).meta({
  description:
    'Health domain: all_cause (PhenoAge), cardiovascular (PREVENT total CVD and ASCVD), heart_failure (PREVENT HF), type2_diabetes (ARIC), kidney (CKD-EPI 2021 eGFR, KFRE), liver (FIB-4, NAFLD fibrosis score).',
});
export type DiseaseCode = Infer<typeof DiseaseCodeSchema>;

export const ImputationCodeSchema = zenum(['measured', 'carried_forward', 'derived', 'imputed']).meta({
  description:
    'How the input was obtained: `measured` on the scored date; `carried_forward` from an earlier event (up to 365 days; height without limit); `derived` from other observed inputs (eGFR from creatinine, BMI, lymphocyte %, total cholesterol, diabetes); `imputed`: not measured, so each domain uses its same-sex, same-age peer value, which moves no result away from peers.',
});
export type ImputationCode = Infer<typeof ImputationCodeSchema>;

const PROBABILITY = 'Probability, 0–1';

export const RiskRatioSchema = object({
  outcome: string().meta({
    description: 'What the risk is of: `death`, `total_cvd`, `ascvd`, `heart_failure`, `type2_diabetes`, `kidney_failure`, `liver_fibrosis` (never a probability).',
  }),
  outcome_name: string().meta({ description: 'The outcome in words.' }),
  horizon_years: number().nullable().meta({ description: 'Years the risk is over, as the model publishes it (PhenoAge 10; PREVENT 10 and 30; ARIC 9; KFRE 2 and 5); null for an index.' }),
  risk: number().min(0).max(1).nullable().meta({ description: `${PROBABILITY}: the model's probability of the outcome within horizon_years; null with \`reason\` when the model gives none.` }),
  peer_risk: number()
    .min(0)
    .max(1)
    .nullable()
    .meta({ description: `${PROBABILITY}: the same probability for the median same-sex peer of the same age (NHANES 2017–2020, survey-weighted); null when there are no peers to compare with.` }),
  ratio: number().min(0).nullable().meta({ description: 'risk / peer_risk: below 1 is lower risk than the median peer. Unitless, ≥ 0.' }),
  reason: string().nullable().meta({ description: 'Why risk, peer_risk or ratio is null, when one is; otherwise null.' }),
}).meta({ id: 'RiskRatio', description: 'One outcome at one horizon.' });

const YEARS_EFFECT = 'Years of disease_age';
const RISK_EFFECT = 'Probability points (0–1 scale) of the first risk_ratios entry; null where it has no probability';

export const PredictorAttributionSchema = object({
  predictor: string().meta({ description: 'Catalogue key of the input (GET /reference-data/).' }),
  name: string().meta({ description: 'The input in words.' }),
  observation_codes: array(string()).meta({ description: 'Codes a caller may send for it, preferred first.' }),
  value: number().meta({ description: "The person's observed value, in `unit`; yes/no inputs 0 or 1." }),
  peer_value: number().meta({ description: 'Median of same-sex peers of the same age, in `unit`; for yes/no inputs the share of peers with it (0–1).' }),
  unit: string().meta({ description: 'UCUM unit of value and peer_value; empty for yes/no inputs.' }),
  disease_age_years: number().meta({ description: `${YEARS_EFFECT} this input adds: disease_age minus disease_age with this input at peer_value.` }),
  risk: number().nullable().meta({ description: `${RISK_EFFECT}: the same change in risk.` }),
}).meta({ id: 'PredictorAttribution', description: 'What one measured input adds to the difference from peers.' });

export const AttributionResidualSchema = object({
  disease_age_years: number().meta({ description: `${YEARS_EFFECT}: difference_from_peers.disease_age_years minus the sum of the attributions.` }),
  risk: number().nullable().meta({ description: `${RISK_EFFECT}: difference_from_peers.risk minus the sum of the attributions.` }),
}).meta({
  id: 'AttributionResidual',
  description:
    'The part of the difference from peers no single input explains: interactions between inputs, the curvature of the model, the edge of the peer data, and the gap between the median peer and a peer with every input at its median.',
});

export const DifferenceFromPeersSchema = object({
  disease_age_years: number().meta({ description: 'disease_age − chronological_age, years (unrounded); negative is younger than peers.' }),
  risk: number().nullable().meta({ description: 'risk − peer_risk of the first risk_ratios entry, probability points (0–1 scale); null when either is null.' }),
}).meta({ id: 'DifferenceFromPeers', description: 'The difference the attributions explain: attributions plus attribution_residual add up to it.' });

const IfMeasuredSchema = object({
  value: number().meta({ description: 'The input at this end of the peers’ range, in `unit` (yes/no: 0 or 1).' }),
  disease_age: number().meta({ description: 'disease_age (years) if the input had this value.' }),
  risk: number().min(0).max(1).nullable().meta({ description: `${PROBABILITY}: the first risk_ratios entry if the input had this value; null without a probability.` }),
});

export const NotMeasuredSchema = object({
  predictor: string().meta({ description: 'Catalogue key of the input.' }),
  name: string().meta({ description: 'The input in words.' }),
  observation_codes: array(string()).meta({ description: 'Codes to send it with, preferred first.' }),
  unit: string().meta({ description: 'UCUM unit of the values below; empty for yes/no inputs.' }),
  assumed_value: number().meta({
    description: 'Value used in its place: the same-sex peers’ median at this age (yes/no inputs: the share of peers with it, 0–1). It moves no result away from peers.',
  }),
  if_low: IfMeasuredSchema.meta({ description: 'The result if a measurement came out at the peers’ 10th percentile (yes/no inputs: absent).' }),
  if_high: IfMeasuredSchema.meta({ description: 'The result if a measurement came out at the peers’ 90th percentile (yes/no inputs: present).' }),
}).meta({ id: 'NotMeasured', description: 'A model input the caller did not send: no attribution, and what measuring it could change.' });

export const ImprovementOpportunitySchema = object({
  predictor: string().meta({ description: 'Catalogue key of the input.' }),
  name: string().meta({ description: 'The input in words.' }),
  observation_codes: array(string()).meta({ description: 'Codes a caller may send for it, preferred first.' }),
  current_value: number().meta({ description: 'The observed value, in `unit` (yes/no: 1).' }),
  target_value: number().meta({ description: 'The nearest edge of its guideline optimal range, in `unit` (yes/no: 0).' }),
  unit: string().meta({ description: 'UCUM unit; empty for yes/no inputs.' }),
  optimal_min: number().nullable().meta({ description: 'Lower edge of the guideline optimal range, in `unit`; null when open or for yes/no inputs.' }),
  optimal_max: number().nullable().meta({ description: 'Upper edge of the guideline optimal range, in `unit`; null when open or for yes/no inputs.' }),
  disease_age: number().meta({ description: 'disease_age (years) if this input alone reached target_value.' }),
  risk: number().min(0).max(1).nullable().meta({ description: `${PROBABILITY}: the first risk_ratios entry at target_value; null without a probability.` }),
  disease_age_change: number().meta({ description: 'disease_age at target − disease_age now, years (negative = younger).' }),
  risk_change: number().nullable().meta({ description: 'Risk at target − risk now, probability points; null without a probability.' }),
}).meta({ id: 'ImprovementOpportunity', description: 'A measured, modifiable input outside its optimal range and what reaching the range would change.' });

export const ModelReferenceSchema = object({
  id: string().meta({ description: 'Hale’s id of the published model.' }),
  name: string().meta({ description: 'Model name.' }),
  citation: string().meta({ description: 'Publication the coefficients come from.' }),
  doi: string().nullable().meta({ description: 'DOI of that publication.' }),
  version: string().meta({ description: 'Variant and outcomes used.' }),
}).meta({ id: 'ModelReference', description: 'The published model behind the domain.' });

export const DomainIndexSchema = object({
  name: string().meta({ description: 'Index name (PhenoAge, eGFR, KFRE, FIB-4, NAFLD fibrosis score).' }),
  value: number().meta({ description: 'Index value, in `unit`.' }),
  unit: string().nullable().meta({ description: 'UCUM unit (`a` years, `mL/min/{1.73_m2}`); null for unitless indices and probabilities (0–1).' }),
  category: string().nullable().meta({ description: 'Guideline category (KDIGO G1–G5; FIB-4 and NFS low / indeterminate / high); null where none applies.' }),
}).meta({ id: 'DomainIndex', description: 'An index the domain’s model computes.' });

export const CompletenessSchema = object({
  measured: array(string()).meta({ description: 'Inputs measured on the scored date (catalogue keys).' }),
  carried_forward: array(string()).meta({ description: 'Inputs carried forward from an earlier event.' }),
  derived: array(string()).meta({ description: 'Inputs derived from other observed inputs.' }),
  imputed: array(string()).meta({ description: 'Inputs not measured: set to the peer value and listed in not_measured.' }),
  fraction_observed: number().min(0).max(1).meta({ description: 'Share of the model’s inputs measured, carried forward or derived, 0–1.' }),
}).meta({ id: 'Completeness', description: 'Which of the domain’s inputs were observed.' });

export const DiseaseAgeStatusSchema = zenum(['model', 'extrapolated', 'interpolated', 'below_peer_data', 'above_peer_data']).meta({
  description:
    '`model`: the model’s own age (PhenoAge) within the ages it was fitted on; `extrapolated`: the same outside them (reported as computed, never clamped); `interpolated`: the age at which the median peer has the person’s value; `below_peer_data` / `above_peer_data`: healthier than the youngest or worse than the oldest peers’ median, so disease_age is the age of that edge of the peer data (read it as “at most” / “at least”).',
});

export const DiseaseScoreSchema = object({
  disease_code: DiseaseCodeSchema,
  disease_name: string().meta({ description: 'The domain in words.' }),
  status: zenum(['scored', 'not_scored']).meta({ description: '`scored`, or `not_scored` with `notes` saying why (age outside the model’s ages, a required input not measured, …).' }),
  health_score: number()
    .min(0)
    .max(100)
    .nullable()
    .meta({
      description:
        'Health score, 0–100, higher is healthier: 50 · (1 − z / (1 + |z|)) with z = (s − m) / k, where s is the domain’s value on its model’s additive scale (log-odds, log hazard, −ln eGFR, ln FIB-4), m the same-sex peers’ median at this age and k half their interquartile range. 50 = the median peer, 75 and 25 = the peers’ quartiles; continuous and strictly decreasing in risk, never flat at 0 or 100. Null when not scored.',
    }),
  health_score_max: literal(100).meta({ description: 'Upper end of health_score: 100.' }),
  disease_age: number().nullable().meta({ description: 'Biological age for the domain, years (see disease_age_status). Null when not scored.' }),
  disease_age_status: DiseaseAgeStatusSchema.nullable(),
  chronological_age: number().meta({ description: 'Age on the scored date, years.' }),
  risk_ratios: array(RiskRatioSchema).meta({
    description: 'Every outcome and horizon the model publishes, the domain’s primary one first (cardiovascular: total CVD 10-year, ASCVD 10-year, total CVD 30-year, ASCVD 30-year).',
  }),
  score_percentile: number()
    .min(0)
    .max(100)
    .nullable()
    .meta({ description: 'Percent of same-sex peers of the same age the person is healthier than, 0–100 (50 = median peer). Null when not scored.' }),
  indices: array(DomainIndexSchema).meta({ description: 'Index outputs of the model (PhenoAge, eGFR, KFRE, FIB-4, NFS).' }),
  difference_from_peers: DifferenceFromPeersSchema.nullable(),
  predictor_attributions: array(PredictorAttributionSchema).meta({
    description: 'Measured, carried-forward or derived inputs only, largest effect first: each input moved to its peer value alone.',
  }),
  attribution_residual: AttributionResidualSchema.nullable(),
  not_measured: array(NotMeasuredSchema).meta({ description: 'Model inputs not measured; they get no attribution.' }),
  improvement_opportunities: array(ImprovementOpportunitySchema).meta({ description: 'Largest improvement first.' }),
  model: ModelReferenceSchema,
  completeness: CompletenessSchema,
  notes: array(string()).meta({ description: 'Caveats, each one sentence: extrapolation, edges of the peer data, inputs outside a model’s validation range.' }),
}).meta({ id: 'DiseaseScore', description: 'One health domain at one scored date.' });
export type DiseaseScore = Infer<typeof DiseaseScoreSchema>;

export const ScoringPredictorSchema = object({
  predictor: string().meta({ description: 'Catalogue key of the input.' }),
  name: string().meta({ description: 'The input in words.' }),
  observation_code: string().meta({ description: 'Code the value came with (derived and imputed inputs: the preferred code).' }),
  value: union([number(), string()])
    .nullable()
    .meta({ description: 'Value in `unit` (yes/no inputs 0 or 1); null when imputed (each domain then uses its own peer value, see not_measured).' }),
  unit: string().meta({ description: 'UCUM code of `value`; empty for yes/no inputs.' }),
  imputation_code: ImputationCodeSchema,
  source_date: IsoDateSchema.nullable().meta({ description: 'Date of the event the value came from (the oldest source of a derived value); null when imputed or for age-only timelines.' }),
  age_days: number().int().min(0).nullable().meta({ description: 'Days between source_date and the scored date; null when imputed.' }),
}).meta({ id: 'ScoringPredictor', description: 'One model input at one scored date.' });

export const ScoringResultSchema = object({
  scoring_event_date: IsoDateSchema.meta({ description: 'The scored date (YYYY-MM-DD).' }),
  scoring_event_age: number().meta({ description: 'Age on that date, years (2 decimals).' }),
  disease_scores: array(DiseaseScoreSchema).meta({ description: 'One entry per health domain.' }),
  scoring_predictors: array(ScoringPredictorSchema).meta({ description: 'Every input a domain reads at this date.' }),
}).meta({ id: 'ScoringResult', description: 'One scored date.' });
export type ScoringResult = Infer<typeof ScoringResultSchema>;

export const ScoringWarningSchema = object({
  code: string().meta({ description: 'Stable code: `unknown_observation_code`, `censored_value`, `invalid_predictor_dropped` (mode score), `duplicate_value`.' }),
  message: string().meta({ description: 'What happened, in words.' }),
  health_event_id: string().nullable().meta({ description: 'Event concerned, if any.' }),
  observation_code: string().nullable().meta({ description: 'Code concerned, if any.' }),
}).meta({ id: 'ScoringWarning', description: 'Something Hale ignored or adjusted without failing the request.' });

export const TimeseriesResponseSchema = object({
  scoring_event_metadata: object({
    event_id: string().meta({ description: 'As sent.' }),
    event_asof_dtutc: string().meta({ description: 'As sent.' }),
    mode: ScoringModeSchema,
  }).meta({ description: 'The request’s metadata, echoed.' }),
  uid_ext: string().meta({ description: 'As sent.' }),
  scoring_version: string().meta({ description: 'Version of the engine and its model set; changes whenever a coefficient, table or rule does.' }),
  warnings: array(ScoringWarningSchema).meta({ description: 'Non-fatal findings about the input.' }),
  scoring_results: array(ScoringResultSchema).meta({ description: 'One result per date to score, in the order sent (empty in mode `validate`).' }),
}).meta({ id: 'TimeseriesResponse', description: 'Scores per date and health domain, with the inputs used.' });
export type TimeseriesResponse = Infer<typeof TimeseriesResponseSchema>;

export const TopDiseasePredictorSchema = object({
  observation_codes: array(string()).meta({ description: 'Codes of the input, preferred first.' }),
  rank: number().int().min(1).meta({ description: '1 = most important.' }),
  strength: number().min(0).max(1).meta({ description: 'Relative importance within the domain; the domain’s strengths sum to 1.' }),
  predictor: string().meta({ description: 'Catalogue key of the input.' }),
  name: string().meta({ description: 'The input in words.' }),
});

export const TopDiseasePredictorsResponseSchema = object({
  top_disease_predictors: array(
    object({
      disease: DiseaseCodeSchema,
      disease_name: string().meta({ description: 'The domain in words.' }),
      predictors: array(TopDiseasePredictorSchema).meta({ description: 'Most important first.' }),
    }),
  ).meta({ description: 'One entry per health domain.' }),
  method: string().meta({ description: 'How strength is derived from the models.' }),
  scoring_version: string().meta({ description: 'Version of the engine and its model set.' }),
}).meta({ id: 'TopDiseasePredictors', description: 'Each health domain’s model inputs, ranked by importance.' });
export type TopDiseasePredictorsResponse = Infer<typeof TopDiseasePredictorsResponseSchema>;
