import { cachedBody, conditionalResponse } from '../http/etag';
import { httpRoute } from '../http/handler';
import { computeTopDiseasePredictors } from '../scoring/top-predictors';

// Static for a deployment: serialised once per container, answered with a strong ETag and 304s.
const BODY = cachedBody(computeTopDiseasePredictors());

export const handler = httpRoute({ dialect: 'detail' }, async ({ headers }) => conditionalResponse(BODY, headers));
