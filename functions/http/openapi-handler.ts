import { type CachedBody, cachedBody, conditionalResponse } from './etag';
import { httpRoute } from './handler';
import { buildOpenApiDocument } from './openapi';

let cached: CachedBody | undefined;

/** GET /openapi.json: anonymous; built once per container, with a strong ETag so clients can revalidate. */
export const handler = httpRoute({ dialect: 'detail', anonymous: true }, async ({ headers }) => {
  cached ??= cachedBody(buildOpenApiDocument());
  return conditionalResponse(cached, headers);
});
