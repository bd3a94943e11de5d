/**
 * The one error hierarchy of Hale. Domain code and handlers throw these; the error-dialect middleware
 * turns them into the response body of the route's dialect. `expose` decides whether `message` may
 * reach the caller: 5xx messages never do (they may hold internals).
 */
export class HaleError extends Error {
  readonly status: number;
  /** Machine-readable code, used as `error` in the extraction dialect. */
  readonly code: string;
  readonly expose: boolean;
  readonly details?: Record<string, unknown>;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers?: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { details?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.expose = status < 500;
    this.details = options.details;
    this.headers = options.headers;
  }
}

export class BadRequestError extends HaleError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(400, 'invalid_request', message, { details });
  }
}

export interface FieldIssue {
  /** Dotted location, e.g. `body.health_events.0.predictors.2.value`. */
  path: string;
  message: string;
}

/** A request that parsed but failed validation; each failing field is named. */
export class ValidationError extends HaleError {
  readonly issues: FieldIssue[];
  constructor(issues: FieldIssue[], status = 422) {
    super(status, status === 422 ? 'validation_error' : 'invalid_request', issues.map((i) => `${i.path}: ${i.message}`).join('; '), {
      details: { issues },
    });
    this.issues = issues;
  }
}

export class UnauthorizedError extends HaleError {
  constructor(message = 'Missing or invalid API key') {
    super(401, 'unauthorized', message);
  }
}

export class NotFoundError extends HaleError {
  constructor(message = 'Not found') {
    super(404, 'not_found', message);
  }
}

export class TooEarlyError extends HaleError {
  constructor(message: string) {
    super(425, 'too_early', message);
  }
}

export class PayloadTooLargeError extends HaleError {
  constructor(message: string) {
    super(413, 'file_too_large', message);
  }
}

export class UnsupportedMediaTypeError extends HaleError {
  constructor(message: string) {
    super(415, 'unsupported_media_type', message);
  }
}

export class RateLimitError extends HaleError {
  constructor(message: string, retryAfterSeconds: number) {
    const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
    super(429, 'rate_limit_exceeded', message, {
      details: { retryAfterSeconds: retryAfter },
      headers: { 'retry-after': String(retryAfter) },
    });
  }
}

/** A dependency (data store, object store, workflow service) failed: 502, message hidden. */
export class UpstreamError extends HaleError {
  constructor(message: string, cause?: unknown) {
    super(502, 'upstream_unavailable', message, { cause });
  }
}

/**
 * The route's work ran into its deadline (functions/http/deadline.ts): 504 with the code and message
 * API Gateway's own integration timeout answers (functions/http/gateway-errors.ts), so a client meets
 * one "too slow, retry" whichever of the two gave up.
 */
export class DeadlineExceededError extends HaleError {
  constructor() {
    super(504, 'upstream_timeout', 'The request did not finish before its deadline');
  }
}
