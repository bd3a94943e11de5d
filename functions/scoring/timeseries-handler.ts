import { httpRoute } from '../http/handler';
import { scoreTimeseries } from './engine';
import { TimeseriesRequestSchema } from './schemas';

/** POST /health-score/timeseries: validate, score each requested date, answer the scoring response. */
export const handler = httpRoute({ dialect: 'detail', body: TimeseriesRequestSchema }, async ({ body }) => ({
  statusCode: 200,
  body: scoreTimeseries(body),
}));
