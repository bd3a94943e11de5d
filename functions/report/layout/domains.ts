import type { DiseaseScore, ReportResult } from './types';

export interface DomainTrack {
  code: string;
  name: string;
  /** The domain's score at each result, index-aligned with the results; undefined where it was absent. */
  scores: (DiseaseScore | undefined)[];
}

/** Every health domain that appears in any result, in the order the engine first reports them. */
export function domainTracks(results: readonly ReportResult[]): DomainTrack[] {
  const tracks = new Map<string, DomainTrack>();
  results.forEach((result, index) => {
    for (const score of result.disease_scores) {
      let track = tracks.get(score.disease_code);
      if (!track) {
        track = { code: score.disease_code, name: score.disease_name, scores: new Array(results.length).fill(undefined) };
        tracks.set(score.disease_code, track);
      }
      track.scores[index] = score;
    }
  });
  return [...tracks.values()];
}

export function latest<T>(items: readonly T[]): T {
  const item = items[items.length - 1];
  if (item === undefined) throw new Error('A report needs at least one scored event');
  return item;
}
