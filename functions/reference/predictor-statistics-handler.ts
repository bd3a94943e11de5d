import { httpRoute } from '../http/handler';
import { predictorStatisticsResponseJson } from './predictor-statistics';
import { PredictorStatisticsRequestSchema } from './schemas';

/**
 * POST /predictor-statistics/ (spec §4.10): population, optimal and lab ranges per scoring predictor.
 * The statistics part depends only on sex and whole year of age and is serialised once per pair.
 */
export const handler = httpRoute({ dialect: 'detail', body: PredictorStatisticsRequestSchema }, async ({ body }) => ({
  rawBody: predictorStatisticsResponseJson(body),
}));
