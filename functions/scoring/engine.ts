import { type FieldIssue, ValidationError } from '../http/errors';
import { predictorByKey } from './catalogue';
import { DOMAINS } from './domains';
import { inputsUsed, scoreDomain } from './domain-score';
import type { Sex } from './models/types';
import { type EventInput, parseEvents, type Warning } from './observations';
import { type Point, resolveAt } from './resolve';
import { roundTo, sig6 } from './rounding';
import type { PredictorInput, ScoringMode, ScoringResult, TimeseriesRequest, TimeseriesResponse } from './schemas';
import { SCORING_VERSION } from './version';

/**
 * The scoring engine: a person's events (lab and measurement predictors at ages, optionally dated)
 * scored at each requested point. Pure: no I/O beyond the tables loaded at module start.
 */

export interface TimelineEvent {
  eventId: string;
  age: number;
  date: string | null;
  predictors: PredictorInput[];
}

export interface Timeline {
  /** When omitted, taken from a predictor with LOINC 76689-9 (male/female). */
  sex?: Sex;
  events: TimelineEvent[];
  points: Point[];
}

/** One scored point; `scoring_event_date` is null for age-only timelines (e.g. the PDF report's `event_age` events). */
export type TimelineScoringResult = Omit<ScoringResult, 'scoring_event_date'> & { scoring_event_date: string | null };

export interface TimelineOptions {
  /** `score`: invalid predictors are dropped with a warning instead of failing the request. */
  mode?: ScoringMode;
  /** Request path of the events array, for issue paths. */
  eventsPath?: string;
}

export interface TimelineAnalysis {
  results: TimelineScoringResult[];
  warnings: Warning[];
}

const DAYS_PER_YEAR = 365.25;
const MS_PER_DAY = 86_400_000;

/** Scores a timeline and reports the warnings (unknown codes, censored values, dropped predictors). */
export function analyseTimeline(timeline: Timeline, options: TimelineOptions = {}): TimelineAnalysis {
  const mode = options.mode ?? 'validate_and_score';
  const eventsPath = options.eventsPath ?? 'body.health_events';
  const inputs: EventInput[] = timeline.events.map((e, i) => ({ ...e, path: `${eventsPath}.${i}` }));
  const parsed = parseEvents(inputs);
  if (parsed.requestIssues.length > 0) throw new ValidationError(parsed.requestIssues);
  const warnings = [...parsed.warnings];
  const issues: FieldIssue[] = parsed.issues.map(({ path, message }) => ({ path, message }));
  const sex = timeline.sex ?? parsed.sex;
  if (sex === null) issues.push({ path: eventsPath, message: 'sex is required: send a predictor 76689-9 with value male or female' });
  if (issues.length > 0 && (mode !== 'score' || sex === null)) throw new ValidationError(issues);
  for (const issue of parsed.issues) {
    warnings.push({ code: 'invalid_predictor_dropped', message: issue.message, health_event_id: issue.eventId, observation_code: issue.code });
  }
  if (mode === 'validate' || sex === null) return { results: [], warnings };
  const events = [...parsed.events].sort((a, b) => a.age - b.age);
  const results = timeline.points.map((point): TimelineScoringResult => {
    const resolved = resolveAt(events, point, sex);
    const disease_scores = DOMAINS.map((domain) => scoreDomain(domain, resolved, point.age, sex));
    const used = new Set<string>();
    for (const domain of DOMAINS) for (const key of inputsUsed(domain, resolved)) used.add(key);
    const scoring_predictors = [...used].map((key) => {
      const input = resolved.get(key);
      const predictor = predictorByKey(key);
      if (!input) {
        const code = predictor.observationCodes[0]!;
        return { predictor: key, name: predictor.name, observation_code: code, value: null, unit: predictor.ucumUnit, imputation_code: 'imputed' as const, source_date: null, age_days: null };
      }
      return {
        predictor: key,
        name: predictor.name,
        observation_code: input.observationCode,
        value: sig6(input.value),
        unit: predictor.ucumUnit,
        imputation_code: input.imputation,
        source_date: input.sourceDate,
        age_days: input.ageDays,
      };
    });
    return { scoring_event_date: point.date, scoring_event_age: roundTo(point.age, 2), disease_scores, scoring_predictors };
  });
  return { results, warnings };
}

/** One result per point. Throws ValidationError (422) naming each invalid predictor. */
export function scoreTimeline(timeline: Timeline, options: TimelineOptions = {}): TimelineScoringResult[] {
  return analyseTimeline(timeline, options).results;
}

function ageOn(dateOfBirth: string, date: string): number {
  return (Date.parse(date) - Date.parse(dateOfBirth)) / MS_PER_DAY / DAYS_PER_YEAR;
}

/** A person is scored up to this age; an older date of birth is an entry error. */
const MAX_AGE_YEARS = 120;

/**
 * Checks of the dates: each date to score once, none before date_of_birth, none more than 120 years
 * after it; no date to score or event date after the calendar date of event_asof_dtutc (as the
 * caller wrote it, in the caller's offset).
 */
function dateIssues(request: TimeseriesRequest): FieldIssue[] {
  const dob = request.date_of_birth;
  const asOf = request.scoring_event_metadata.event_asof_dtutc.slice(0, 10);
  const issues: FieldIssue[] = [];
  const seen = new Map<string, number>();
  request.dates_to_score.forEach((date, i) => {
    const path = `body.dates_to_score.${i}`;
    const first = seen.get(date);
    if (first !== undefined) issues.push({ path, message: `date ${date} is also body.dates_to_score.${first}; each date is scored once` });
    else seen.set(date, i);
    if (date < dob) issues.push({ path, message: `date ${date} is before date_of_birth` });
    if (date > asOf) issues.push({ path, message: `date ${date} is after event_asof_dtutc (${asOf})` });
  });
  // ISO dates order as text.
  const latest = [...request.dates_to_score].sort().at(-1)!;
  if (ageOn(dob, latest) > MAX_AGE_YEARS) {
    issues.push({ path: 'body.date_of_birth', message: `date_of_birth ${dob} is more than ${MAX_AGE_YEARS} years before the date to score ${latest}` });
  }
  request.health_events.forEach((event, i) => {
    const path = `body.health_events.${i}.health_event_date`;
    if (event.health_event_date < dob) issues.push({ path, message: `event '${event.health_event_id}' is dated before date_of_birth` });
    if (event.health_event_date > asOf) issues.push({ path, message: `event '${event.health_event_id}' is dated after event_asof_dtutc (${asOf})` });
  });
  return issues;
}

/** POST /health-score/timeseries: dates and date of birth → ages, then the timeline engine. */
export function scoreTimeseries(request: TimeseriesRequest): TimeseriesResponse {
  const dob = request.date_of_birth;
  const issues = dateIssues(request);
  if (issues.length > 0) throw new ValidationError(issues);
  const { results, warnings } = analyseTimeline(
    {
      events: request.health_events.map((e) => ({
        eventId: e.health_event_id,
        age: ageOn(dob, e.health_event_date),
        date: e.health_event_date,
        predictors: e.predictors,
      })),
      points: request.dates_to_score.map((date) => ({ age: ageOn(dob, date), date })),
    },
    { mode: request.scoring_event_metadata.mode },
  );
  return {
    scoring_event_metadata: request.scoring_event_metadata,
    uid_ext: request.uid_ext,
    scoring_version: SCORING_VERSION,
    warnings,
    scoring_results: results as ScoringResult[],
  };
}
