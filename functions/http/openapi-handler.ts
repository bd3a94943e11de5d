import type { APIGatewayProxyEvent } from 'aws-lambda';
import { type CachedBody, cachedBody, conditionalResponse } from './etag';
import { httpRoute } from './handler';
import { buildOpenApiDocument, type OpenApiDocument, PLACEHOLDER_SERVER } from './openapi';

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The base URL a caller reached this route at: API Gateway's domain (or the Host header locally), the
 * scheme it was called with, and the stage prefix an execute-api URL carries (`/prod/openapi.json`
 * is `requestContext.path` when `path` is `/openapi.json`). Undefined when the host is not a plain
 * host name, so a forged Host header can only make the document fall back to the placeholder.
 */
export function servedFromUrl(event: APIGatewayProxyEvent, headers: Record<string, string>): string | undefined {
  const host = event.requestContext?.domainName ?? headers.host;
  if (!host || !HOST.test(host)) return undefined;
  const forwarded = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  const scheme = forwarded === 'http' || forwarded === 'https' ? forwarded : event.requestContext?.domainName ? 'https' : 'http';
  const fullPath = event.requestContext?.path ?? event.path;
  const prefix = fullPath.endsWith(event.path) ? fullPath.slice(0, fullPath.length - event.path.length) : '';
  return `${scheme}://${host}${prefix}`;
}

let document: OpenApiDocument | undefined;
const servedBodies = new Map<string, CachedBody>();
/** A container answers a handful of hosts; the bound only stops forged Host headers from growing the map. */
const MAX_CACHED_SERVERS = 8;

function bodyFor(url: string | undefined): CachedBody {
  const key = url ?? '';
  const hit = servedBodies.get(key);
  if (hit) return hit;
  document ??= buildOpenApiDocument();
  const servers = url ? [{ url, description: 'The server this document was served from' }] : [PLACEHOLDER_SERVER];
  const body = cachedBody({ ...document, servers });
  if (servedBodies.size >= MAX_CACHED_SERVERS) servedBodies.clear();
  servedBodies.set(key, body);
  return body;
}

/** GET /openapi.json: anonymous; names the server it was served from; a strong ETag per server so clients can revalidate. */
export const handler = httpRoute({ dialect: 'detail', anonymous: true }, async ({ headers, event }) => {
  return conditionalResponse(bodyFor(servedFromUrl(event, headers)), headers);
});
