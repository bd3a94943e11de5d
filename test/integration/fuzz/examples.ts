import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sampleTimeseriesRequest } from '../../../functions/demo/sample-person';
import { hostileNumber } from './hostile';

/**
 * Valid bodies to start from, for the operations whose schema alone rarely yields a request that
 * passes validation (dates, codes and units must agree): the demo's fictional person, as a
 * timeseries, a batch and both reports. Each gets extreme but well-formed lab values (at and past
 * the accepted ranges, tiny, huge, negative, many digits), so the engine and the report renderer
 * see them, and a PHI canary in every field that may carry PHI, which no log line may contain.
 */

/** Marks values that stand for PHI: none may appear in a log line (see fuzz.test.ts). */
export const PHI_CANARY = 'phi-canary-';

export const phiCanary: fc.Arbitrary<string> = fc.stringMatching(/^[0-9a-f]{10}$/).map((suffix) => `${PHI_CANARY}${suffix}`);

const extremeValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('0', '0.0001', '1e-9', '99999', '1e6', '-1', '-0', '12345678901234567890', '0.30000000000000004', '1e308'),
  hostileNumber.map(String),
  fc.double({ min: 0, max: 2_000, noNaN: true }).map((n) => n.toPrecision(6)),
);

type Predictor = { id: string; observation_code: string; value: string; unit: string };

/** The predictors with up to two values replaced by extreme ones (more would only be refused more often). */
function withExtremes(predictors: Predictor[]): fc.Arbitrary<Predictor[]> {
  const replacement = fc.tuple(fc.nat({ max: predictors.length - 1 }), extremeValue);
  return fc.array(replacement, { maxLength: 2 }).map((replacements) => {
    const out = [...predictors];
    for (const [index, value] of replacements) out[index] = { ...out[index]!, value };
    return out;
  });
}

/** `score` drops what it cannot use with a warning and scores the rest, so extreme values reach the engine. */
const scoringMode = fc.constantFrom('validate_and_score', 'score');

const checkUps = fc.integer({ min: 1, max: 4 });

function ageOf(dateOfBirth: string, date: string): number {
  return (Date.parse(date) - Date.parse(dateOfBirth)) / (365.2425 * 24 * 3600 * 1000);
}

const timeseries = fc.tuple(checkUps, phiCanary, scoringMode).chain(([dates, uid, mode]) => {
  const request = sampleTimeseriesRequest(dates);
  return fc.tuple(...request.health_events.map((event) => withExtremes(event.predictors as Predictor[]))).map((predictors) => ({
    ...request,
    scoring_event_metadata: { ...request.scoring_event_metadata, mode },
    uid_ext: uid,
    health_events: request.health_events.map((event, i) => ({ ...event, health_event_id: `${PHI_CANARY}${event.health_event_id}`, predictors: predictors[i]! })),
  }));
});

const batch = fc.tuple(fc.integer({ min: 1, max: 3 }), phiCanary, scoringMode).chain(([persons, uid, mode]) => {
  const request = sampleTimeseriesRequest(1);
  const event = request.health_events[0]!;
  return fc.array(withExtremes(event.predictors as Predictor[]), { minLength: persons, maxLength: persons }).map((all) => ({
    scoring_event_metadata: { ...request.scoring_event_metadata, mode },
    persons: all.map((predictors, i) => ({ uid_ext: `${uid}-${i}`, date_of_birth: request.date_of_birth, score_date: event.health_event_date, predictors })),
  }));
});

function reportEvents(dates: number): fc.Arbitrary<{ health_event_id: string; event_age: number; predictors: Predictor[] }[]> {
  const request = sampleTimeseriesRequest(dates);
  return fc
    .tuple(...request.health_events.map((event) => withExtremes(event.predictors as Predictor[])))
    .map((predictors) =>
      request.health_events.map((event, i) => ({ health_event_id: `${PHI_CANARY}${event.health_event_id}`, event_age: ageOf(request.date_of_birth, event.health_event_date), predictors: predictors[i]! })),
    );
}

/** Valid starting bodies by operationId; reports are delivered to `callbackUrl` (a receiver on this machine). */
export function examples(callbackUrl: string): Record<string, fc.Arbitrary<unknown>> {
  const reportMetadata = fc.record({
    event_id: fc.constant(null).map(() => randomUUID()),
    event_asof_dtutc: fc.constant(null).map(() => new Date().toISOString()),
    mode: fc.constant('report'),
    configuration: fc.constant({ callback_url: callbackUrl }),
  });
  return {
    scoreTimeseries: timeseries,
    scoreBatch: batch,
    createFullReport: fc
      .tuple(checkUps, phiCanary)
      .chain(([dates, uid]) => fc.record({ report_metadata: reportMetadata, uid_ext: fc.constant(uid), health_events: reportEvents(dates) })),
    createCondensedReport: phiCanary.chain((uid) =>
      fc.record({ report_metadata: reportMetadata, uid_ext: fc.constant(uid), health_event: reportEvents(1).map((events) => events[0]!) }),
    ),
  };
}
