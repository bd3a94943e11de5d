import { object } from 'zod';
import { PredictorStatisticsResponseSchema } from '../reference/schemas';
import { TimeseriesResponseSchema } from '../scoring/schemas';

export const DemoDataResponseSchema = object({
  scoring: TimeseriesResponseSchema,
  predictorStats: PredictorStatisticsResponseSchema,
}).meta({
  id: 'DemoDataResponse',
  description: 'The widget demo\'s fictional person: the scoring response and the predictor statistics, as a page passes them to HaleWidget.render',
});
