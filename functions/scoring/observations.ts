import type { FieldIssue } from '../http/errors';
import { PREDICTORS_BY_CODE, type PredictorDefinition } from './catalogue';
import type { Sex } from './models/types';
import type { PredictorInput } from './schemas';
import { toCatalogueUnit } from './units';

/**
 * Turns request predictors into observations in catalogue units: unknown codes become warnings;
 * unparseable values, unconvertible units, values outside the accepted ranges and a second, different
 * value for one code on one date become issues naming the event, the predictor and the reason. A
 * repeated id of an event or a predictor is a request error in every mode (`requestIssues`).
 */

export interface Observation {
  value: number;
  /** The code it came from; a lower rank is the predictor's more preferred code. */
  code: string;
  rank: number;
}

export interface ObservedEvent {
  eventId: string;
  age: number;
  date: string | null;
  /** By predictor key. */
  values: Map<string, Observation>;
}

export interface Warning {
  code: string;
  message: string;
  health_event_id: string | null;
  observation_code: string | null;
}

export interface EventInput {
  eventId: string;
  age: number;
  date: string | null;
  predictors: readonly PredictorInput[];
  /** Request path of this event, e.g. `body.health_events.2`. */
  path: string;
}

const TRUE_TEXT = new Set(['true', 'yes', 'y', '1']);
const FALSE_TEXT = new Set(['false', 'no', 'n', '0']);
/** US Core smoking-status answers (SNOMED CT), see data/models/README.md. */
const CURRENT_SMOKER = new Set(['current', 'current smoker', '449868002', '428041000124106', '428071000124103', '428061000124105', '77176002']);
const NOT_CURRENT_SMOKER = new Set(['former', 'former smoker', 'never', 'never smoker', '8517006', '266919005']);
const SEX_TEXT: Readonly<Record<string, Sex>> = { male: 'male', m: 'male', female: 'female', f: 'female' };
const SEX_CODE = '76689-9';
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const CENSORED = /^(<=|>=|<|>)\s*/;

function parseBinary(predictor: PredictorDefinition, text: string): number | null {
  const value = text.trim().toLowerCase();
  if (TRUE_TEXT.has(value)) return 1;
  if (FALSE_TEXT.has(value)) return 0;
  if (predictor.key === 'smoking') {
    if (CURRENT_SMOKER.has(value)) return 1;
    if (NOT_CURRENT_SMOKER.has(value)) return 0;
  }
  return null;
}

/** An invalid predictor: the request field and, for `score` mode's warnings, its event and code. */
export interface PredictorIssue extends FieldIssue {
  eventId: string;
  code: string;
}

export interface ParsedEvents {
  events: ObservedEvent[];
  sex: Sex | null;
  /** Invalid predictors: 422, or dropped with a warning in mode `score`. */
  issues: PredictorIssue[];
  /** Errors of the request itself (repeated ids): 422 in every mode. */
  requestIssues: FieldIssue[];
  warnings: Warning[];
}

/** Two readings of one code on one date agree when they differ by no more than rounding. */
function sameValue(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}

/** Where a predictor sits in the request; its path is spelled out only when an issue names it. */
interface Place {
  event: EventInput;
  index: number;
}

const pathOf = (place: Place, field?: string) => `${place.event.path}.predictors.${place.index}${field ? `.${field}` : ''}`;

/** Remembers the first place of each id and reports the repeats. */
function idRegister<T>(kind: string, requestIssues: FieldIssue[], path: (place: T) => string) {
  const seen = new Map<string, T>();
  return (id: string, place: T) => {
    const first = seen.get(id);
    if (first === undefined) seen.set(id, place);
    else requestIssues.push({ path: path(place), message: `${kind} id '${id}' is used twice (first at ${path(first)}); ids must be unique within a request` });
  };
}

export function parseEvents(inputs: readonly EventInput[]): ParsedEvents {
  const issues: PredictorIssue[] = [];
  const requestIssues: FieldIssue[] = [];
  const warnings: Warning[] = [];
  const eventId = idRegister<EventInput>('Event', requestIssues, (event) => `${event.path}.health_event_id`);
  const predictorId = idRegister<Place>('Predictor', requestIssues, (place) => pathOf(place, 'id'));
  /** First reading of each code on each date (or age, for age-only timelines): date → code → reading. */
  const readings = new Map<string | number, Map<string, { value: number; place: Place }>>();
  let sex: Sex | null = null;
  let sexPlace: Place | null = null;
  const events = inputs.map((event): ObservedEvent => {
    const values = new Map<string, Observation>();
    const day = event.date ?? event.age;
    let sameDay = readings.get(day);
    if (!sameDay) {
      sameDay = new Map();
      readings.set(day, sameDay);
    }
    eventId(event.eventId, event);
    event.predictors.forEach((input, index) => {
      const place: Place = { event, index };
      predictorId(input.id, place);
      const code = input.observation_code;
      const issue = (field: 'value' | 'unit', reason: string) =>
        issues.push({ path: pathOf(place, field), message: `event '${event.eventId}', predictor ${code}: ${reason}`, eventId: event.eventId, code });
      if (code === SEX_CODE) {
        const parsed = SEX_TEXT[input.value.trim().toLowerCase()];
        if (!parsed) issue('value', `sex must be 'male' or 'female', got '${input.value}'`);
        else if (sex !== null && sex !== parsed) issue('value', `sex '${parsed}' contradicts '${sex}' given at ${pathOf(sexPlace!)}`);
        else {
          sex = parsed;
          sexPlace = place;
        }
        return;
      }
      const predictors = PREDICTORS_BY_CODE.get(code);
      if (!predictors) {
        warnings.push({
          code: 'unknown_observation_code',
          message: `observation code ${code} is not a scoring input and was ignored (see GET /reference-data/)`,
          health_event_id: event.eventId,
          observation_code: code,
        });
        return;
      }
      for (const [n, predictor] of predictors.entries()) {
        const value = readValue(predictor, input, issue, warnings, event.eventId);
        if (value === null) return;
        if (n === 0) {
          const first = sameDay.get(code);
          if (first && !sameValue(first.value, value)) {
            issue('value', `${predictor.name} has a different value at ${pathOf(first.place, 'value')} for the same date; send one value per code and date`);
            return;
          }
          if (first) {
            warnings.push({
              code: 'duplicate_value',
              message: `${predictor.name} is given twice for the same date with the same value; it counts once`,
              health_event_id: event.eventId,
              observation_code: code,
            });
            return;
          }
          sameDay.set(code, { value, place });
        }
        const rank = predictor.observationCodes.indexOf(code);
        const previous = values.get(predictor.key);
        if (previous && previous.rank < rank) continue;
        values.set(predictor.key, { value, code, rank });
      }
    });
    return { eventId: event.eventId, age: event.age, date: event.date, values };
  });
  return { events, sex, issues, requestIssues, warnings };
}

function readValue(
  predictor: PredictorDefinition,
  input: PredictorInput,
  issue: (field: 'value' | 'unit', reason: string) => void,
  warnings: Warning[],
  eventId: string,
): number | null {
  if (predictor.kind !== 'continuous') {
    const parsed = parseBinary(predictor, input.value);
    if (parsed === null) issue('value', `${predictor.name} must be true/false, yes/no or 1/0, got '${input.value}'`);
    return parsed;
  }
  let text = input.value.trim();
  const censored = CENSORED.exec(text);
  if (censored) {
    text = text.slice(censored[0].length);
    warnings.push({
      code: 'censored_value',
      message: `${predictor.name} '${input.value}' is reported beyond a detection limit; the limit is scored`,
      health_event_id: eventId,
      observation_code: input.observation_code,
    });
  }
  if (!NUMBER.test(text)) {
    issue('value', `${predictor.name} value '${input.value}' is not a number`);
    return null;
  }
  const converted = toCatalogueUnit(predictor, Number(text), input.unit);
  if (!converted.ok) {
    issue('unit', converted.reason);
    return null;
  }
  const value = converted.value;
  const bounds = predictor.bounds;
  if (!Number.isFinite(value) || value <= 0 || (bounds && (value < bounds.min || value > bounds.max))) {
    const range = bounds ? `${bounds.min}–${bounds.max} ${predictor.ucumUnit}` : `> 0 ${predictor.ucumUnit}`;
    issue('value', `${predictor.name} ${round(value)} ${predictor.ucumUnit} is outside the accepted range (${range}); check the value and unit`);
    return null;
  }
  return value;
}

function round(value: number): number {
  return Number(value.toPrecision(4));
}
