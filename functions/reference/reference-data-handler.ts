import concepts from '../../data/reference/concepts.json';
import { cachedBody, conditionalResponse } from '../http/etag';
import { httpRoute } from '../http/handler';

// Serialised and hashed once per cold start; every request answers from memory.
const CACHED = cachedBody(concepts);

/** GET /reference-data/ (spec §4.9): every concept Hale knows, with a strong ETag. */
export const handler = httpRoute({ dialect: 'detail' }, async ({ headers }) => conditionalResponse(CACHED, headers));
