import type { DiseaseScore, ScoringInput, ScoringResult } from './input';

/** The scored dates, oldest first (the API sorts them, but a caller's copy may not be). */
export function resultsByDate(scoring: ScoringInput): ScoringResult[] {
  // ISO dates order as plain strings; localeCompare would start an ICU collator for nothing.
  return [...scoring.scoring_results].sort((a, b) => (a.scoring_event_date < b.scoring_event_date ? -1 : a.scoring_event_date > b.scoring_event_date ? 1 : 0));
}

/** Every domain that appears on any date, in the order the API first lists them. */
export function domainsOf(results: readonly ScoringResult[]): { code: string; name: string }[] {
  const seen = new Map<string, string>();
  for (const result of results) {
    for (const score of result.disease_scores) if (!seen.has(score.disease_code)) seen.set(score.disease_code, score.disease_name);
  }
  return [...seen].map(([code, name]) => ({ code, name }));
}

export function scoreOf(result: ScoringResult, code: string): DiseaseScore | undefined {
  return result.disease_scores.find((score) => score.disease_code === code);
}

export function isScored(score: DiseaseScore | undefined): score is DiseaseScore {
  return score !== undefined && score.status === 'scored';
}
