import type { PredictorInput } from '../scoring/schemas';
import type { ReportHealthEvent } from './schemas';

/** LOINC 76689-9 "Sex assigned at birth": the predictor the scoring engine takes sex from. */
export const SEX_OBSERVATION_CODE = '76689-9';

export interface TimelineEvent {
  eventId: string;
  age: number;
  date: string | null;
  predictors: PredictorInput[];
}

/** The scoring engine's timeline input: reports carry ages (`event_age`), not dates. */
export interface ReportTimeline {
  sex: 'male' | 'female';
  events: TimelineEvent[];
  points: { age: number; date: string | null }[];
}

/** The sex value of the most recent event that states one, lower-cased; undefined when none does. */
export function sexOf(events: readonly ReportHealthEvent[]): 'male' | 'female' | undefined {
  const byAge = [...events].sort((a, b) => b.event_age - a.event_age);
  for (const event of byAge) {
    const value = event.predictors.find((p) => p.observation_code === SEX_OBSERVATION_CODE)?.value.trim().toLowerCase();
    if (value === 'male' || value === 'female') return value;
  }
  return undefined;
}

/** One scored point per distinct event age, in age order; each event keeps all its predictors. */
export function reportTimeline(events: readonly ReportHealthEvent[], sex: 'male' | 'female'): ReportTimeline {
  const ordered = [...events].sort((a, b) => a.event_age - b.event_age);
  const ages = [...new Set(ordered.map((e) => e.event_age))];
  return {
    sex,
    events: ordered.map((e) => ({ eventId: e.health_event_id, age: e.event_age, date: null, predictors: e.predictors })),
    points: ages.map((age) => ({ age, date: null })),
  };
}
