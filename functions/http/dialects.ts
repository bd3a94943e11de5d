import { HaleError, ValidationError } from './errors';

/**
 * Two error dialects (DESIGN §3): the extraction routes answer `{error, message, timestamp, requestId}`
 * (plus `details`), every other route answers `{detail}`.
 */
export type ErrorDialect = 'detail' | 'extraction';

const GENERIC_MESSAGES: Record<number, string> = {
  500: 'Internal server error',
  502: 'An upstream dependency is unavailable; retry later',
  503: 'Service unavailable; retry later',
  504: 'Upstream timeout; retry later',
};

/** The extraction dialect's `error` of a 5xx, whose own code is not shown (it may name internals). */
const GENERIC_CODES: Record<number, string> = {
  502: 'upstream_unavailable',
  504: 'upstream_timeout',
};

export interface ErrorResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

function publicMessage(error: HaleError): string {
  if (error.expose) return error.message;
  return GENERIC_MESSAGES[error.status] ?? GENERIC_MESSAGES[500]!;
}

/** Maps any thrown value to the route's error dialect; non-Hale errors become a generic 500. */
export function toErrorResponse(error: unknown, dialect: ErrorDialect, requestId: string, now = new Date()): ErrorResponse {
  const hale = error instanceof HaleError ? error : new HaleError(500, 'internal_error', 'Internal server error');
  const message = publicMessage(hale);
  const headers = { ...(hale.headers ?? {}) };
  if (dialect === 'extraction') {
    const body: Record<string, unknown> = {
      error: hale.expose ? hale.code : (GENERIC_CODES[hale.status] ?? 'internal_error'),
      message,
      timestamp: now.toISOString(),
      requestId,
    };
    if (hale.expose && hale.details) body.details = hale.details;
    return { statusCode: hale.status, headers, body };
  }
  const body: Record<string, unknown> = { detail: message };
  if (hale instanceof ValidationError) body.errors = hale.issues;
  if (hale.expose && hale.status === 429 && hale.details) body.retry_after_seconds = hale.details.retryAfterSeconds;
  return { statusCode: hale.status, headers, body };
}
