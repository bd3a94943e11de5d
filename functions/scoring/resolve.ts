import diabetesDefinition from '../../data/models/diabetes-definition.json';
import { predictorByKey, SCORING_PREDICTORS } from './catalogue';
import { ckdEpi2021 } from './models/ckd-epi';
import type { Sex } from './models/types';
import type { ObservedEvent } from './observations';
import { populationMedian } from './population';
import type { ImputationCode } from './schemas';

/**
 * The value of every scoring input at one scored point: measured that day, carried forward from an
 * earlier event, derived from other inputs, or imputed (population median for continuous inputs,
 * 0 for binary ones). Events after the point are never used.
 */

/** How long a value is carried forward: one year, the usual interval of a routine check-up panel. */
export const CARRY_FORWARD_DAYS = 365;
/** Adult height does not change enough to matter to BMI or ARIC, so it is carried forward without limit. */
const NO_LIMIT: ReadonlySet<string> = new Set(['height']);
const DAYS_PER_YEAR = 365.25;
const MS_PER_DAY = 86_400_000;

export interface ResolvedInput {
  key: string;
  value: number;
  imputation: ImputationCode;
  observationCode: string;
  sourceDate: string | null;
  ageDays: number | null;
}

export type Resolved = Map<string, ResolvedInput>;

export interface Point {
  age: number;
  date: string | null;
}

function daysBetween(event: ObservedEvent, point: Point): number {
  if (event.date !== null && point.date !== null) {
    return Math.round((Date.parse(point.date) - Date.parse(event.date)) / MS_PER_DAY);
  }
  return Math.round((point.age - event.age) * DAYS_PER_YEAR);
}

const OBSERVED: ReadonlySet<ImputationCode> = new Set(['measured', 'carried_forward', 'derived']);

export function isObserved(input: ResolvedInput | undefined): input is ResolvedInput {
  return input !== undefined && OBSERVED.has(input.imputation);
}

/** Derived from sources: dated by the oldest source. */
function derived(key: string, value: number, sources: ResolvedInput[]): ResolvedInput {
  const oldest = sources.reduce((a, b) => ((b.ageDays ?? 0) > (a.ageDays ?? 0) ? b : a));
  return {
    key,
    value,
    imputation: 'derived',
    observationCode: predictorByKey(key).observationCodes[0]!,
    sourceDate: oldest.sourceDate,
    ageDays: oldest.ageDays,
  };
}

/** `events` sorted by age, oldest first. */
export function resolveAt(events: readonly ObservedEvent[], point: Point, sex: Sex): Resolved {
  const resolved: Resolved = new Map();
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    const days = daysBetween(event, point);
    if (days < 0) continue;
    for (const [key, observation] of event.values) {
      if (resolved.has(key) || (days > CARRY_FORWARD_DAYS && !NO_LIMIT.has(key))) continue;
      resolved.set(key, {
        key,
        value: observation.value,
        imputation: days === 0 ? 'measured' : 'carried_forward',
        observationCode: observation.code,
        sourceDate: event.date,
        ageDays: days,
      });
    }
  }
  derive(resolved, point.age, sex);
  impute(resolved, point.age, sex);
  return resolved;
}

/** Whether `a` is fresher than (or as fresh as) `b`. */
function notOlder(a: ResolvedInput, b: ResolvedInput | undefined): boolean {
  return b === undefined || (a.ageDays ?? 0) <= (b.ageDays ?? 0);
}

function derive(resolved: Resolved, age: number, sex: Sex): void {
  const get = (key: string) => resolved.get(key);
  const nonHdl = get('non_hdl');
  const hdl = get('hdl');
  if (!get('total_cholesterol') && nonHdl && hdl) {
    resolved.set('total_cholesterol', derived('total_cholesterol', nonHdl.value + hdl.value, [nonHdl, hdl]));
  }
  // eGFR is always recomputed from creatinine when there is one: a reported eGFR may be an older,
  // race-based equation, and peers are computed with CKD-EPI 2021.
  const creatinine = get('creatinine');
  if (creatinine) resolved.set('egfr', derived('egfr', ckdEpi2021(creatinine.value, age, sex), [creatinine]));
  const weight = get('weight');
  const height = get('height');
  if (weight && height) {
    const bmi = derived('bmi', weight.value / (height.value / 100) ** 2, [weight, height]);
    if (notOlder(bmi, get('bmi'))) resolved.set('bmi', bmi);
  }
  const count = get('lymphocyte_count');
  const wbc = get('wbc');
  if (count && wbc) {
    const pct = derived('lymphocyte_pct', (100 * count.value) / wbc.value, [count, wbc]);
    if (notOlder(pct, get('lymphocyte_pct'))) resolved.set('lymphocyte_pct', pct);
  }
  if (!get('diabetes')) {
    const hba1c = get('hba1c');
    const glucose = get('fasting_glucose');
    const evidence = [hba1c, glucose].filter((x): x is ResolvedInput => x !== undefined);
    if (evidence.length > 0) {
      const diabetic =
        (hba1c?.value ?? 0) >= diabetesDefinition.hba1c_pct_at_least ||
        (glucose?.value ?? 0) >= diabetesDefinition.fasting_glucose_mg_dL_at_least;
      resolved.set('diabetes', derived('diabetes', diabetic ? 1 : 0, evidence));
    }
  }
}

function impute(resolved: Resolved, age: number, sex: Sex): void {
  for (const predictor of SCORING_PREDICTORS) {
    if (predictor.key === 'age' || predictor.key === 'sex' || resolved.has(predictor.key)) continue;
    const base = { key: predictor.key, observationCode: predictor.observationCodes[0]!, sourceDate: null, ageDays: null };
    if (predictor.kind === 'binary') {
      resolved.set(predictor.key, { ...base, value: 0, imputation: 'default' });
      continue;
    }
    const median = populationMedian(predictor.key, sex, age);
    if (median !== undefined) resolved.set(predictor.key, { ...base, value: median, imputation: 'population_median' });
  }
}
