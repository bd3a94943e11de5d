import type { ErrorDialect } from './dialects';

/**
 * The answers API Gateway gives itself, before or instead of a handler, as Hale shapes them. The stack
 * writes them as gateway responses (infra/gateway-responses.ts) and the local gateway answers with the
 * same status, code, message and headers (local/gateway.ts), so a client meets one behaviour in both.
 *
 * API Gateway answers a request for a path or method the API does not define with 403 "Missing
 * Authentication Token" (MISSING_AUTHENTICATION_TOKEN: with API keys and no IAM or Lambda authorizer,
 * that is its only cause), so both turn it into 404; there is no 405 on AWS. Missing or invalid keys are
 * 401 as the spec requires (API Gateway says 403). THROTTLED is the per-second limit, hence a one-second
 * retry. QUOTA_EXCEEDED is the daily quota, which resets at 00:00 UTC; a gateway response carries only
 * static headers, so AWS cannot say how many seconds remain and answers one hour, the longest a client
 * that honours it waits past the reset (the local gateway, which knows, answers the exact seconds).
 */
export type GatewayErrorType =
  | 'INVALID_API_KEY'
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'RESOURCE_NOT_FOUND'
  | 'THROTTLED'
  | 'QUOTA_EXCEEDED'
  | 'REQUEST_TOO_LARGE'
  | 'INTEGRATION_TIMEOUT'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

export interface GatewayError {
  type: GatewayErrorType;
  /** Replaces API Gateway's status; omitted to keep it (DEFAULT_4XX/5XX cover several statuses). */
  status?: number;
  /** `error` code of the extraction dialect (spec §7.1 codes where one fits). */
  code: string;
  /** Message of both dialects; `null` keeps API Gateway's own message. */
  message: string | null;
  retryAfterSeconds?: number;
}

/** Retry-After of a spent daily quota on AWS (see above). */
export const QUOTA_RETRY_AFTER_SECONDS = 3600;

export const GATEWAY_ERRORS: Readonly<Record<GatewayErrorType, GatewayError>> = {
  INVALID_API_KEY: { type: 'INVALID_API_KEY', status: 401, code: 'unauthorized', message: 'Missing or invalid API key' },
  MISSING_AUTHENTICATION_TOKEN: { type: 'MISSING_AUTHENTICATION_TOKEN', status: 404, code: 'not_found', message: 'Not found' },
  RESOURCE_NOT_FOUND: { type: 'RESOURCE_NOT_FOUND', status: 404, code: 'not_found', message: 'Not found' },
  THROTTLED: { type: 'THROTTLED', status: 429, code: 'rate_limit_exceeded', message: 'Too many requests; retry shortly', retryAfterSeconds: 1 },
  QUOTA_EXCEEDED: {
    type: 'QUOTA_EXCEEDED',
    status: 429,
    code: 'rate_limit_exceeded',
    message: 'Daily request quota exceeded for this API key; it resets at 00:00 UTC',
    retryAfterSeconds: QUOTA_RETRY_AFTER_SECONDS,
  },
  REQUEST_TOO_LARGE: { type: 'REQUEST_TOO_LARGE', status: 413, code: 'file_too_large', message: 'Request body too large; use the pre-signed upload flow' },
  INTEGRATION_TIMEOUT: { type: 'INTEGRATION_TIMEOUT', status: 504, code: 'upstream_timeout', message: 'Upstream timeout; retry later' },
  DEFAULT_4XX: { type: 'DEFAULT_4XX', code: 'invalid_request', message: null },
  // Also what a crashed, timed-out or oversized Lambda call becomes (502, INTEGRATION_FAILURE).
  DEFAULT_5XX: { type: 'DEFAULT_5XX', code: 'internal_error', message: 'Internal server error' },
};

/** Browsers must be able to read API Gateway's own errors too, not only the handlers' responses. */
export const GATEWAY_ERROR_HEADERS = { 'access-control-allow-origin': '*' } as const;

/**
 * The body of a gateway error in a dialect: the same fields infra/gateway-responses.ts writes into its
 * templates, with the values at hand (the local gateway has an ISO time; AWS templates have API
 * Gateway's `$context.requestTime`, which no template can reformat).
 */
export function gatewayErrorBody(
  error: GatewayError,
  dialect: ErrorDialect,
  values: { message: string; requestId: string; timestamp: string; retryAfterSeconds?: number },
): Record<string, unknown> {
  const retryAfter = values.retryAfterSeconds ?? error.retryAfterSeconds;
  if (dialect === 'extraction') {
    return {
      error: error.code,
      message: values.message,
      timestamp: values.timestamp,
      requestId: values.requestId,
      ...(retryAfter ? { details: { retryAfterSeconds: retryAfter } } : {}),
    };
  }
  return { detail: values.message, ...(retryAfter ? { retry_after_seconds: retryAfter } : {}) };
}

/** Headers of a gateway error: CORS, and Retry-After where the error has one. */
export function gatewayErrorHeaders(error: GatewayError, retryAfterSeconds = error.retryAfterSeconds): Record<string, string> {
  return { ...GATEWAY_ERROR_HEADERS, ...(retryAfterSeconds ? { 'retry-after': String(retryAfterSeconds) } : {}) };
}
