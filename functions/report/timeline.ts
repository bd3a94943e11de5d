import type { Timeline } from '../scoring/engine';
import type { ReportHealthEvent } from './schemas';

/**
 * The scoring engine's timeline for a report: reports carry ages (`event_age`), not dates. Events keep
 * the request's order so the engine's issue paths (`…health_events.<i>.predictors…`) point at the
 * caller's own array; one scored point per distinct event age, in age order. Sex comes from the
 * predictor with LOINC 76689-9, which the engine reads itself.
 */
export function reportTimeline(events: readonly ReportHealthEvent[]): Timeline {
  const ages = [...new Set(events.map((e) => e.event_age))].sort((a, b) => a - b);
  return {
    events: events.map((e) => ({ eventId: e.health_event_id, age: e.event_age, date: null, predictors: e.predictors })),
    points: ages.map((age) => ({ age, date: null })),
  };
}
