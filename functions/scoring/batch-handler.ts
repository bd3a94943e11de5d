import { httpRoute } from '../http/handler';
import { scoreBatch } from './batch';
import { BATCH_LIMITS, BATCH_TOO_LARGE_MESSAGE } from './batch-limits';
import { BatchEnvelopeSchema } from './batch-schemas';

/** POST /health-score/batch: up to 100 persons at one date each; one bad person is an `invalid` element, not a 422. */
export const handler = httpRoute(
  { dialect: 'detail', body: BatchEnvelopeSchema, bodyLimit: { bytes: BATCH_LIMITS.maxBytes, message: BATCH_TOO_LARGE_MESSAGE } },
  async ({ body }) => ({ statusCode: 200, body: scoreBatch(body) }),
);
