import diabetesDefinition from '../../data/models/diabetes-definition.json';
import { predictorByKey } from './catalogue';
import { ckdEpi2021 } from './models/ckd-epi';
import type { Sex } from './models/types';
import type { ObservedEvent } from './observations';

/**
 * The observed value of each scoring input at one scored point: measured that day, carried forward
 * from an earlier event, or derived from other observed inputs. Events after the point are never
 * used. Inputs that are none of these are imputed per domain, at the domain's peer value
 * (domain-score.ts), so that they cannot move a result away from peers.
 */

/** How long a value is carried forward: one year, the usual interval of a routine check-up panel. */
export const CARRY_FORWARD_DAYS = 365;
/** Adult height does not change enough to matter to BMI or ARIC, so it is carried forward without limit. */
const NO_LIMIT: ReadonlySet<string> = new Set(['height']);
const DAYS_PER_YEAR = 365.25;
const MS_PER_DAY = 86_400_000;

/** How an observed input was obtained. */
export type ObservedCode = 'measured' | 'carried_forward' | 'derived';

export interface ResolvedInput {
  key: string;
  value: number;
  imputation: ObservedCode;
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

export function isObserved(input: ResolvedInput | undefined): input is ResolvedInput {
  return input !== undefined;
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
  return resolved;
}

/** Whether `a` is fresher than (or as fresh as) `b`. */
function notOlder(a: ResolvedInput, b: ResolvedInput | undefined): boolean {
  return b === undefined || (a.ageDays ?? 0) <= (b.ageDays ?? 0);
}

/** A derived value outside its predictor's accepted range (e.g. a lymphocyte count above the WBC) is not derived. */
function acceptable(key: string, value: number): boolean {
  const bounds = predictorByKey(key).bounds;
  return Number.isFinite(value) && (!bounds || (value >= bounds.min && value <= bounds.max));
}

function setDerived(resolved: Resolved, key: string, value: number, sources: ResolvedInput[], onlyIfFresher = false): void {
  if (!acceptable(key, value)) return;
  const input = derived(key, value, sources);
  if (!onlyIfFresher || notOlder(input, resolved.get(key))) resolved.set(key, input);
}

const FASTING_CODES: ReadonlySet<string> = new Set(diabetesDefinition.fasting_glucose_codes.codes);

/**
 * Diabetes by the ADA criteria (data/models/diabetes-definition.json): present when HbA1c ≥ 6.5 %, a
 * fasting glucose (LOINC 1558-6) ≥ 126 mg/dL or any glucose ≥ 200 mg/dL; absent only when an HbA1c or a
 * fasting glucose was measured and no criterion is met; otherwise unknown (undefined).
 */
function diabetesFromLabs(resolved: Resolved): { value: 0 | 1; evidence: ResolvedInput[] } | undefined {
  const hba1c = resolved.get('hba1c');
  const fastingInput = resolved.get('fasting_glucose');
  const fasting = fastingInput && FASTING_CODES.has(fastingInput.observationCode) ? fastingInput : undefined;
  const glucose = resolved.get('glucose');
  const criteria: [ResolvedInput | undefined, number][] = [
    [hba1c, diabetesDefinition.hba1c_pct_at_least],
    [fasting, diabetesDefinition.fasting_glucose_mg_dL_at_least],
    [glucose, diabetesDefinition.random_glucose_mg_dL_at_least],
  ];
  const met = criteria.filter(([input, threshold]) => input !== undefined && input.value >= threshold).map(([input]) => input!);
  if (met.length > 0) return { value: 1, evidence: met };
  const negative = [hba1c, fasting].filter((x): x is ResolvedInput => x !== undefined);
  return negative.length > 0 ? { value: 0, evidence: negative } : undefined;
}

function derive(resolved: Resolved, age: number, sex: Sex): void {
  const get = (key: string) => resolved.get(key);
  const nonHdl = get('non_hdl');
  const hdl = get('hdl');
  if (!get('total_cholesterol') && nonHdl && hdl) setDerived(resolved, 'total_cholesterol', nonHdl.value + hdl.value, [nonHdl, hdl]);
  // eGFR is always recomputed from creatinine when there is one: a reported eGFR may be an older,
  // race-based equation, and peers are computed with CKD-EPI 2021.
  const creatinine = get('creatinine');
  if (creatinine) setDerived(resolved, 'egfr', ckdEpi2021(creatinine.value, age, sex), [creatinine]);
  const weight = get('weight');
  const height = get('height');
  if (weight && height) setDerived(resolved, 'bmi', weight.value / (height.value / 100) ** 2, [weight, height], true);
  const count = get('lymphocyte_count');
  const wbc = get('wbc');
  if (count && wbc) setDerived(resolved, 'lymphocyte_pct', (100 * count.value) / wbc.value, [count, wbc], true);
  if (!get('diabetes')) {
    const diabetes = diabetesFromLabs(resolved);
    if (diabetes) setDerived(resolved, 'diabetes', diabetes.value, diabetes.evidence);
  }
}
