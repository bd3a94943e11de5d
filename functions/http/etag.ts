import { createHash } from 'node:crypto';
import type { RouteResult } from './handler';

export interface CachedBody {
  text: string;
  etag: string;
}

/** Serialises a static response once and gives it a strong ETag (a hash of the exact bytes). */
export function cachedBody(value: unknown): CachedBody {
  const text = JSON.stringify(value);
  return { text, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 32)}"` };
}

/** 304 when the client already holds this representation, else 200 with ETag and Cache-Control. */
export function conditionalResponse(
  cached: CachedBody,
  headers: Record<string, string>,
  maxAgeSeconds = 3600,
): RouteResult {
  const cacheHeaders = { etag: cached.etag, 'cache-control': `private, max-age=${maxAgeSeconds}` };
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch?.split(',').some((tag) => tag.trim() === cached.etag || tag.trim() === '*')) {
    return { statusCode: 304, rawBody: '', headers: cacheHeaders };
  }
  return { statusCode: 200, rawBody: cached.text, headers: cacheHeaders };
}
