/**
 * A point-in-time ("batch") scoring result of one person has no trend: one date, the same per-domain
 * scores and inputs. Spec §2.9: it is drawn after being put into the timeseries response shape with a
 * single scored date. An element of a POST /health-score/batch answer is drawn as it is
 * (`fromBatchResult(element)`); one with status `invalid` has no result to draw, so it gets a `detail`
 * like an API error body, which the widget shows as an inline message. The widget validates the outcome when it renders, so this only rearranges.
 */
export interface BatchResult {
  uid_ext?: string | null;
  status?: string;
  errors?: unknown[];
  scoring_version?: string;
  scoring_event_date?: string | null;
  scoring_event_age?: number | null;
  disease_scores?: unknown[];
  scoring_predictors?: unknown[];
}

export interface BatchOptions {
  /** Date of the result (YYYY-MM-DD) when the result itself does not carry one. */
  date?: string;
  /** Age at that date; defaults to the result's own, else the chronological age of its first domain. */
  age?: number;
  scoringVersion?: string;
}

function chronologicalAge(scores: unknown[] | undefined): number | undefined {
  const first = scores?.[0];
  if (typeof first !== 'object' || first === null) return undefined;
  const age = (first as { chronological_age?: unknown }).chronological_age;
  return typeof age === 'number' ? age : undefined;
}

export function fromBatchResult(result: BatchResult, options: BatchOptions = {}) {
  const source: BatchResult = typeof result === 'object' && result !== null ? result : {};
  const invalid = source.status === 'invalid';
  const scored = {
    scoring_event_date: source.scoring_event_date ?? options.date,
    scoring_event_age: source.scoring_event_age ?? options.age ?? chronologicalAge(source.disease_scores),
    disease_scores: source.disease_scores,
    scoring_predictors: source.scoring_predictors,
  };
  return {
    ...(invalid ? { detail: 'This person was not scored: the batch answered it as invalid', errors: source.errors ?? [] } : {}),
    scoring_event_metadata: { event_id: '', event_asof_dtutc: '', mode: 'score' as const },
    uid_ext: source.uid_ext ?? '',
    scoring_version: options.scoringVersion ?? source.scoring_version ?? '',
    warnings: [] as unknown[],
    scoring_results: invalid ? [] : [scored],
  };
}
