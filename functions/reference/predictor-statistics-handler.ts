import { httpRoute } from '../http/handler';
import { SCORING_VERSION } from '../scoring/version';
import { predictorStatisticsJson } from './predictor-statistics';
import { PredictorStatisticsRequestSchema } from './schemas';

/** POST /predictor-statistics/ (spec §4.10): population, optimal and lab ranges per scoring predictor. */
export const handler = httpRoute({ dialect: 'detail', body: PredictorStatisticsRequestSchema }, async ({ body }) => {
  const header = JSON.stringify({
    event_id: body.header.event_id,
    event_asof_dtutc: body.header.event_asof_dtutc,
    scoring_version: SCORING_VERSION,
  });
  // The statistics part depends only on sex and whole year of age and is serialised once per pair.
  return { rawBody: `{"header":${header},"predictor_statistics":${predictorStatisticsJson(body.sex, body.age)}}` };
});
