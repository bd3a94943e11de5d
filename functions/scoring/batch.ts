import { type FieldIssue, PayloadTooLargeError } from '../http/errors';
import { logger } from '../platform/observability';
import { BATCH_LIMITS, BATCH_TOO_LARGE_MESSAGE } from './batch-limits';
import type { BatchEnvelope, BatchResponse, BatchResult } from './batch-schemas';
import type { TimeseriesRequest } from './schemas';
import { scoreRequest } from './score-request';
import { SCORING_VERSION } from './version';

/**
 * POST /health-score/batch: each person becomes the timeseries request it stands for (one health
 * event on the score date, that date scored) and is scored by the timeseries entry point; the
 * issues that request would answer are named in the person's own terms.
 */

type Person = Record<string, unknown>;

/**
 * Where a timeseries issue path points in the person it was made from. The event date is the score
 * date again, so an issue about it is dropped when the score date has one of its own.
 */
const PERSON_PATHS: readonly { pattern: RegExp; to: string; mirrorsScoreDate?: true }[] = [
  { pattern: /^health_events\.0\.predictors(?=\.|$)/, to: 'predictors' },
  { pattern: /^health_events\.0\.health_event_date$/, to: 'score_date', mirrorsScoreDate: true },
  { pattern: /^health_events(\.0)?$/, to: 'predictors' },
  { pattern: /^dates_to_score(\.0)?$/, to: 'score_date' },
];

/** A predictor's path a message names (`first at body.health_events.0.predictors.0.id`), in the person's terms (`predictors.0.id`). */
const PREDICTOR_IN_MESSAGE = /\bbody\.health_events\.0\.predictors\./g;

function personIssues(issues: readonly FieldIssue[]): FieldIssue[] {
  const mapped = issues.map((issue) => {
    const rule = PERSON_PATHS.find((r) => r.pattern.test(issue.path));
    const message = issue.message.replace(PREDICTOR_IN_MESSAGE, 'predictors.');
    return { path: rule ? issue.path.replace(rule.pattern, rule.to) : issue.path, message, mirror: rule?.mirrorsScoreDate === true };
  });
  const scoreDateHasOwn = mapped.some((issue) => issue.path === 'score_date' && !issue.mirror);
  return mapped.filter((issue) => !(issue.mirror && scoreDateHasOwn)).map(({ path, message }) => ({ path, message }));
}

/** The timeseries request a person stands for; fields are passed on as sent, so its schema judges them. */
export function personRequest(metadata: BatchEnvelope['scoring_event_metadata'], person: Person): TimeseriesRequest {
  const date = person.score_date;
  // The event id appears in messages ("event '2025-03-01', predictor …"): the date reads well there.
  const eventId = typeof date === 'string' && date.length > 0 ? date.slice(0, 128) : 'score_date';
  return {
    scoring_event_metadata: metadata,
    uid_ext: person.uid_ext,
    date_of_birth: person.date_of_birth,
    dates_to_score: [date],
    health_events: [{ health_event_id: eventId, health_event_date: date, predictors: person.predictors }],
  } as TimeseriesRequest;
}

function invalid(person: Person | undefined, errors: FieldIssue[]): BatchResult {
  return {
    uid_ext: typeof person?.uid_ext === 'string' ? person.uid_ext : null,
    status: 'invalid',
    errors,
    warnings: [],
    scoring_event_date: null,
    scoring_event_age: null,
    disease_scores: [],
    scoring_predictors: [],
  };
}

function scorePerson(metadata: BatchEnvelope['scoring_event_metadata'], value: unknown): BatchResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid(undefined, [{ path: '', message: 'a person must be an object {uid_ext, date_of_birth, score_date, predictors}' }]);
  }
  const person = value as Person;
  let outcome: ReturnType<typeof scoreRequest>;
  try {
    outcome = scoreRequest(personRequest(metadata, person));
  } catch (error) {
    // The engine failed on input it accepted: that person is reported, the others are still scored.
    logger.error('batch person failed', { errorName: error instanceof Error ? error.name : typeof error });
    return invalid(person, [{ path: '', message: 'this person could not be scored because of an internal error' }]);
  }
  if (outcome.status === 'invalid') return invalid(person, personIssues(outcome.errors));
  const [result] = outcome.response.scoring_results;
  return {
    uid_ext: outcome.response.uid_ext,
    status: 'scored',
    errors: [],
    warnings: outcome.response.warnings,
    scoring_event_date: result!.scoring_event_date,
    scoring_event_age: result!.scoring_event_age,
    disease_scores: result!.disease_scores,
    scoring_predictors: result!.scoring_predictors,
  };
}

/** Scores every person of a batch, in request order; throws 413 beyond the batch limits. */
export function scoreBatch(envelope: BatchEnvelope): BatchResponse {
  if (envelope.persons.length > BATCH_LIMITS.maxPersons) throw new PayloadTooLargeError(BATCH_TOO_LARGE_MESSAGE);
  return {
    scoring_version: SCORING_VERSION,
    batch_results: envelope.persons.map((person) => scorePerson(envelope.scoring_event_metadata, person)),
  };
}
