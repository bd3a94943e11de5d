import { httpRoute } from '../http/handler';
import { predictorStatisticsResponseJson } from '../reference/predictor-statistics';
import { scoreTimeseries } from '../scoring/engine';
import { samplePredictorStatisticsRequest, sampleTimeseriesRequest } from './sample-person';

/**
 * GET /demo/data: the data of the widget demo page, for its fictional person, without an API key.
 * It scores in this function rather than calling the API with some key, so an anonymous visitor never
 * spends a customer's quota; the route has its own rate limit (DEMO_LIMITS in functions/routes.ts:
 * API Gateway method throttling on AWS, the local gateway locally).
 */
export const handler = httpRoute({ dialect: 'detail', anonymous: true }, async () => {
  const timeseries = sampleTimeseriesRequest();
  const predictorStats = predictorStatisticsResponseJson(samplePredictorStatisticsRequest(timeseries));
  return { rawBody: `{"scoring":${JSON.stringify(scoreTimeseries(timeseries))},"predictorStats":${predictorStats}}` };
});
