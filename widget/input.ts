import { arr, type Infer, matching, nullable, num, obj, oneOf, optional, str, union } from './guard';

/** What the widget reads of a POST /health-score/timeseries response (spec §2.8); the rest is ignored. */

const isoDate = matching(/^\d{4}-\d{2}-\d{2}$/, 'a YYYY-MM-DD date');

const Attribution = obj({
  predictor: str,
  name: str,
  value: num,
  peer_value: num,
  unit: str,
  disease_age_years: num,
  risk: nullable(num),
});

const Opportunity = obj({
  predictor: str,
  name: str,
  current_value: num,
  target_value: num,
  unit: str,
  disease_age_change: num,
  risk_change: nullable(num),
});

const RiskRatio = obj({
  outcome: str,
  outcome_name: str,
  horizon_years: nullable(num),
  risk: nullable(num),
  peer_risk: nullable(num),
  ratio: nullable(num),
  reason: nullable(str),
});

const IfMeasured = obj({ value: num, disease_age: num, risk: nullable(num) });

const NotMeasured = obj({
  predictor: str,
  name: str,
  unit: str,
  assumed_value: num,
  if_low: IfMeasured,
  if_high: IfMeasured,
});

const DiseaseScore = obj({
  disease_code: str,
  disease_name: str,
  status: oneOf('scored', 'not_scored'),
  health_score: nullable(num),
  health_score_max: num,
  disease_age: nullable(num),
  disease_age_status: nullable(oneOf('model', 'extrapolated', 'interpolated', 'below_peer_data', 'above_peer_data')),
  chronological_age: num,
  risk_ratios: arr(RiskRatio),
  score_percentile: nullable(num),
  predictor_attributions: arr(Attribution),
  not_measured: arr(NotMeasured),
  improvement_opportunities: arr(Opportunity),
  notes: arr(str),
});

const ScoringPredictor = obj({
  predictor: str,
  name: str,
  observation_code: str,
  value: nullable(union(num, str)),
  unit: str,
  imputation_code: oneOf('measured', 'carried_forward', 'derived', 'imputed'),
  source_date: nullable(isoDate),
  age_days: nullable(num),
});

const ScoringResult = obj({
  scoring_event_date: isoDate,
  scoring_event_age: num,
  disease_scores: arr(DiseaseScore),
  scoring_predictors: arr(ScoringPredictor),
});

export const ScoringInputCheck = obj({
  uid_ext: str,
  scoring_version: str,
  scoring_results: arr(ScoringResult, { min: 1 }),
});

export type ScoringInput = Infer<typeof ScoringInputCheck>;
export type ScoringResult = Infer<typeof ScoringResult>;
export type DiseaseScore = Infer<typeof DiseaseScore>;
export type ScoringPredictor = Infer<typeof ScoringPredictor>;
export type ImputationCode = ScoringPredictor['imputation_code'];

/** One element of a POST /predictor-statistics/ response (spec §2.12) as the range bars use it. */
export const PredictorStatisticCheck = obj({
  name: str,
  observation_codes: nullable(arr(str)),
  mean: num,
  optimal_min: num,
  optimal_max: num,
  absolute_min: num,
  absolute_max: num,
  vendor_lab_range: nullable(oneOf('range', 'GT', 'GTE', 'LT', 'LTE')),
  vendor_lab_min: nullable(num),
  vendor_lab_max: nullable(num),
  /** Hale adds the catalogue key, the unit of every number and how the optimal range was made; other services may not. */
  predictor: optional(str),
  unit: optional(str),
  source: optional(obj({ optimal_rule: str })),
});
export type PredictorStatistic = Infer<typeof PredictorStatisticCheck>;

export type Theme = 'light' | 'dark';

export interface WidgetOptions {
  /** The complete, unmodified JSON response of POST /health-score/timeseries. */
  scoring: unknown;
  /** The complete JSON response of POST /predictor-statistics/; null or missing hides the range bars. */
  predictorStats?: unknown;
  /** Name shown in the header. */
  reportName?: string;
  /** Colour theme; without one the widget follows the visitor's `prefers-color-scheme`. */
  theme?: Theme;
}

export type ParsedScoring = { ok: true; scoring: ScoringInput } | { ok: false; problems: string[] };

export function parseScoring(value: unknown): ParsedScoring {
  const problems: string[] = [];
  if (ScoringInputCheck(value, '', problems)) return { ok: true, scoring: value };
  if (typeof value === 'object' && value !== null && 'detail' in value) {
    return { ok: false, problems: ['this is an error response of the scoring API, not a scoring result'] };
  }
  return { ok: false, problems };
}

/**
 * The usable statistics of a predictor-statistics response: entries that are malformed are dropped one
 * by one, and anything that is not such a response at all gives none (the widget then shows no bars).
 */
export function parsePredictorStats(value: unknown): PredictorStatistic[] {
  if (typeof value !== 'object' || value === null) return [];
  const list = (value as { predictor_statistics?: unknown }).predictor_statistics;
  if (!Array.isArray(list)) return [];
  return list.filter((entry): entry is PredictorStatistic => PredictorStatisticCheck(entry, '', []));
}
