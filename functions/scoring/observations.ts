import type { FieldIssue } from '../http/errors';
import { PREDICTORS_BY_CODE, type PredictorDefinition } from './catalogue';
import type { Sex } from './models/types';
import type { PredictorInput } from './schemas';
import { toCatalogueUnit } from './units';

/**
 * Turns request predictors into observations in catalogue units: unknown codes become warnings;
 * unparseable values, unconvertible units and values outside physiological bounds become issues
 * naming the event, the predictor and the reason.
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
  /** Request path of this event's predictor list, e.g. `body.health_events.2.predictors`. */
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
  issues: PredictorIssue[];
  warnings: Warning[];
}

export function parseEvents(inputs: readonly EventInput[]): ParsedEvents {
  const issues: PredictorIssue[] = [];
  const warnings: Warning[] = [];
  let sex: Sex | null = null;
  let sexPath = '';
  const events = inputs.map((event): ObservedEvent => {
    const values = new Map<string, Observation>();
    event.predictors.forEach((input, j) => {
      const path = `${event.path}.${j}`;
      const where = `event '${event.eventId}', predictor ${input.observation_code}`;
      const issue = (field: 'value' | 'unit', reason: string) =>
        issues.push({ path: `${path}.${field}`, message: `${where}: ${reason}`, eventId: event.eventId, code: input.observation_code });
      if (input.observation_code === SEX_CODE) {
        const parsed = SEX_TEXT[input.value.trim().toLowerCase()];
        if (!parsed) issue('value', `sex must be 'male' or 'female', got '${input.value}'`);
        else if (sex !== null && sex !== parsed) issue('value', `sex '${parsed}' contradicts '${sex}' given at ${sexPath}`);
        else {
          sex = parsed;
          sexPath = path;
        }
        return;
      }
      const predictors = PREDICTORS_BY_CODE.get(input.observation_code);
      if (!predictors) {
        warnings.push({
          code: 'unknown_observation_code',
          message: `observation code ${input.observation_code} is not a scoring input and was ignored (see GET /reference-data/)`,
          health_event_id: event.eventId,
          observation_code: input.observation_code,
        });
        return;
      }
      for (const predictor of predictors) {
        const value = readValue(predictor, input, issue, warnings, event.eventId);
        if (value === null) return;
        const rank = predictor.observationCodes.indexOf(input.observation_code);
        const previous = values.get(predictor.key);
        if (previous && previous.rank < rank) continue;
        if (previous && previous.rank === rank) {
          warnings.push({
            code: 'duplicate_predictor',
            message: `${predictor.name} appears more than once in the event; the last value is used`,
            health_event_id: event.eventId,
            observation_code: input.observation_code,
          });
        }
        values.set(predictor.key, { value, code: input.observation_code, rank });
      }
    });
    return { eventId: event.eventId, age: event.age, date: event.date, values };
  });
  return { events, sex, issues, warnings };
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
  if (value <= 0 || (bounds && (value < bounds.min || value > bounds.max))) {
    const range = bounds ? `${bounds.min}–${bounds.max} ${predictor.ucumUnit}` : `> 0 ${predictor.ucumUnit}`;
    issue('value', `${predictor.name} ${round(value)} ${predictor.ucumUnit} is outside physiological bounds (${range}); check the value and unit`);
    return null;
  }
  return value;
}

function round(value: number): number {
  return Number(value.toPrecision(4));
}
