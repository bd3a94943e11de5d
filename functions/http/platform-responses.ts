import type { RouteDefinition } from '../routes';
import type { ErrorDialect } from './dialects';
import { type ErrorStatus, errorResponses } from './openapi-components';

/** The parts of an OpenAPI operation that say what a route takes. */
export interface DocumentedOperation {
  requestBody?: unknown;
  parameters?: unknown[];
  responses?: Record<string, unknown>;
}

/**
 * The statuses a route can answer whatever its handler does, so that no area has to remember them:
 * - the gateway's: 401 without a valid key (unless anonymous), 413 over the payload limit, 429 for a
 *   rate-limited group, 502 for a function that failed (also one Lambda ended at its timeout) and 504
 *   for one that ran past the integration timeout;
 * - httpRoute's deadline: 504 when the route's work would outlast the function's timeout;
 * - httpRoute's (functions/http/handler.ts): on routes with a JSON body, 400 for malformed JSON and 415
 *   for another content type; on routes that validate a body, query or path, the dialect's
 *   validation status (422 `{detail, errors}`, extraction 400 `invalid_request`); 500 for anything
 *   unexpected.
 */
export function platformStatuses(route: RouteDefinition, operation: DocumentedOperation): ErrorStatus[] {
  const extraction = route.api === 'extraction';
  const statuses: ErrorStatus[] = [413, 500, 502, 504];
  if (!route.anonymous) statuses.push(401);
  if (route.rateLimitGroup) statuses.push(429);
  if (operation.requestBody) statuses.push(400, 415);
  if (operation.requestBody || (operation.parameters?.length ?? 0) > 0) statuses.push(extraction ? 400 : 422);
  return [...new Set(statuses)].sort();
}

function dialectOf(route: RouteDefinition): ErrorDialect {
  return route.api === 'extraction' ? 'extraction' : 'detail';
}

/** Adds to each route's operation the platform statuses its area did not list (listed ones stay as they are). */
export function addPlatformResponses(paths: Record<string, unknown>, routes: readonly RouteDefinition[]): void {
  for (const route of routes) {
    const operation = (paths[route.path] as Record<string, DocumentedOperation> | undefined)?.[route.method.toLowerCase()];
    if (!operation) continue;
    const missing = platformStatuses(route, operation).filter((status) => !(String(status) in (operation.responses ?? {})));
    operation.responses = { ...operation.responses, ...errorResponses(dialectOf(route), missing) };
  }
}
