import type { z } from 'zod';
import type { DiseaseScoreSchema, ScoringPredictorSchema } from '../../scoring/schemas';

/**
 * What the layout draws. A result is one scored point of the report's timeline: the scoring engine's
 * ScoringResult, except that report timelines are ages, so the date may be null.
 */
export type DiseaseScore = z.infer<typeof DiseaseScoreSchema>;
export type ScoringPredictor = z.infer<typeof ScoringPredictorSchema>;

export interface ReportResult {
  scoring_event_date: string | null;
  scoring_event_age: number;
  disease_scores: DiseaseScore[];
  scoring_predictors: ScoringPredictor[];
}

/** A closed or half-open interval in the predictor's unit; null = unbounded on that side. */
export interface Band {
  low: number | null;
  high: number | null;
}

/** Context printed beside a biomarker value; each part is optional because not every predictor has it. */
export interface BiomarkerRanges {
  lab?: Band;
  optimal?: Band;
  populationMean?: number;
  /** Same-sex, same-age-band population's 1st and 99th percentile: the base of the bar's axis. */
  population?: { low: number; high: number };
}

/** Looks up ranges for one predictor of one result (sex and age come from the result itself). */
export type RangeLookup = (predictor: ScoringPredictor, result: ReportResult) => BiomarkerRanges;

export interface ReportDocumentInput {
  variant: 'full' | 'condensed';
  /** The caller's user reference, printed on the cover so a reader knows whose report it is. */
  uidExt: string;
  /** `report_metadata.event_asof_dtutc`: the date the report speaks for. */
  asOf: string;
  /** One element per scored event, in timeline order (condensed: exactly one). */
  results: ReportResult[];
  ranges: RangeLookup;
  /** Scoring engine version, printed in the methods section. */
  scoringVersion: string;
}
