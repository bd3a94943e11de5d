import { type CachedBody, cachedBody, conditionalResponse } from '../http/etag';
import { httpRoute } from '../http/handler';
import { filterLabRanges } from './lab-ranges';
import { LabRangesQuerySchema } from './schemas';

// Each distinct filter is serialised and hashed once; there are few (sex × vendor × one_sided).
const cache = new Map<string, CachedBody>();
const MAX_CACHED = 256;

/** GET /lab-ranges/ (spec §4.12): printed Quest and Labcorp ranges, filterable, with a strong ETag. */
export const handler = httpRoute({ dialect: 'detail', query: LabRangesQuerySchema }, async ({ query, headers }) => {
  const key = JSON.stringify([query.sex?.trim().toUpperCase(), query.vendor_name?.toLowerCase(), query.one_sided]);
  let cached = cache.get(key);
  if (!cached) {
    cached = cachedBody(filterLabRanges(query));
    // Arbitrary vendor spellings must not grow the cache without bound.
    if (cache.size < MAX_CACHED) cache.set(key, cached);
  }
  return conditionalResponse(cached, headers);
});
