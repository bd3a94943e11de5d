import { ReportInputError } from './pipeline-errors';
import type { ReportInput } from './schemas';
import type { ScoredReport } from './scored-report';
import { type ReportTimeline, reportTimeline, SEX_OBSERVATION_CODE, sexOf } from './timeline';

/** The scoring engine's timeline entry point (the same engine as POST /health-score/timeseries). */
export type TimelineScorer = (timeline: ReportTimeline) => ScoredReport['results'];

/**
 * Scores a report request over its age timeline. A condensed report has one event and so one
 * result; a full report one result per distinct event age, in age order.
 */
export function scoreReport(input: ReportInput, score: TimelineScorer, scoringVersion: string): ScoredReport {
  const sex = sexOf(input.health_events);
  if (!sex) {
    throw new ReportInputError(`No health event states sex (observation ${SEX_OBSERVATION_CODE} with value male or female); the scoring models need it`);
  }
  const results = score(reportTimeline(input.health_events, sex));
  if (results.length === 0) throw new ReportInputError('The scoring engine returned no result for the report timeline');
  return { scoring_version: scoringVersion, results };
}
