import { predictorStatistics } from '../../../functions/reference/predictor-statistics';
import { scoreTimeseries } from '../../../functions/scoring/engine';
import { type TimeseriesResponse, TimeseriesRequestSchema } from '../../../functions/scoring/schemas';
import { sampleTimeseriesRequest } from '../../../functions/demo/sample-person';

/**
 * A real response of the scoring engine for the demo's fictional person, with `dates` scored dates;
 * `withoutAtLast` leaves those observation codes out of the last check-up (so they are carried forward).
 */
export function scoringResponse(dates: number, withoutAtLast: string[] = []): TimeseriesResponse {
  const request = sampleTimeseriesRequest(dates);
  const last = request.health_events[request.health_events.length - 1]!;
  last.predictors = last.predictors.filter((p) => !withoutAtLast.includes(p.observation_code));
  return scoreTimeseries(TimeseriesRequestSchema.parse(request));
}

/** A real POST /predictor-statistics/ body for the person's sex and age at the latest date. */
export function predictorStatsResponse(scoring: TimeseriesResponse) {
  const latest = scoring.scoring_results[scoring.scoring_results.length - 1]!;
  return {
    header: { event_id: 'stats-1', event_asof_dtutc: '2026-11-22T00:00:00Z', scoring_version: scoring.scoring_version },
    predictor_statistics: predictorStatistics('male', latest.scoring_event_age),
  };
}
