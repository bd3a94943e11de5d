import { ValidationError } from '../http/errors';
import { analyseTimeline, scoreTimeline } from '../scoring/engine';
import { parseEvents } from '../scoring/observations';
import { SCORING_VERSION } from '../scoring/version';
import { ReportInputError } from './pipeline-errors';
import type { ReportHealthEvent, ReportInput, ReportVariant } from './schemas';
import type { ScoredReport } from './scored-report';
import { reportTimeline } from './timeline';

/** Where the events sit in each request body, for the engine's issue paths. */
const EVENTS_PATH: Record<ReportVariant, string> = { full: 'body.health_events', condensed: 'body.health_event' };

/**
 * Checks a report request the way the engine will score it (units, codes, sex), so that bad input is
 * a 422 at POST time instead of a failed job. The condensed body holds one event, not an array, so
 * the engine's `.0` index is dropped from its paths.
 */
export function validateReportEvents(variant: ReportVariant, events: readonly ReportHealthEvent[]): void {
  const path = EVENTS_PATH[variant];
  try {
    analyseTimeline(reportTimeline(events), { mode: 'validate', eventsPath: path });
  } catch (error) {
    if (!(error instanceof ValidationError) || variant === 'full') throw error;
    throw new ValidationError(error.issues.map((issue) => ({ ...issue, path: issue.path.replace(`${path}.0.`, `${path}.`) })));
  }
}

/**
 * Scores a stored report request with the same engine as POST /health-score/timeseries: one result
 * per distinct event age, in age order (a condensed report has one).
 */
export function scoreReport(input: ReportInput): ScoredReport {
  let results: ScoredReport['results'];
  try {
    results = scoreTimeline(reportTimeline(input.health_events), { eventsPath: EVENTS_PATH[input.variant] });
  } catch (error) {
    // Validated at POST time; reaching this means the stored request no longer scores (e.g. a new engine version).
    if (error instanceof ValidationError) throw new ReportInputError(`The report input does not score: ${error.issues.length} invalid field(s)`);
    throw error;
  }
  if (results.length === 0) throw new ReportInputError('The scoring engine returned no result for the report timeline');
  const { sex } = parseEvents(reportTimeline(input.health_events).events.map((e) => ({ ...e, path: EVENTS_PATH[input.variant] })));
  if (!sex) throw new ReportInputError('The report input states no sex');
  return { scoring_version: SCORING_VERSION, sex, results };
}
