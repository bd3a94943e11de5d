import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type { ErrorDialect } from '../functions/http/dialects';

interface GatewayError {
  type: apigw.ResponseType;
  /** Replaces API Gateway's status; omitted to keep it (DEFAULT_4XX/5XX cover several statuses). */
  statusCode?: string;
  /** `error` code of the extraction dialect (spec §7.1 codes where one fits). */
  code: string;
  /** Message of both dialects; `null` keeps API Gateway's own (quoted) message. */
  message: string | null;
  retryAfterSeconds?: number;
}

/**
 * API Gateway's own errors, re-shaped into Hale's dialects (DESIGN §3). Missing or invalid keys are
 * 401 as the spec requires (API Gateway says 403). With API keys and no IAM or Lambda authorizer,
 * MISSING_AUTHENTICATION_TOKEN means the path or method does not exist, so it becomes a 404.
 * THROTTLED is the per-second limit, hence a one-second retry hint.
 */
const GATEWAY_ERRORS: readonly GatewayError[] = [
  { type: apigw.ResponseType.INVALID_API_KEY, statusCode: '401', code: 'unauthorized', message: 'Missing or invalid API key' },
  { type: apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN, statusCode: '404', code: 'not_found', message: 'Not found' },
  { type: apigw.ResponseType.RESOURCE_NOT_FOUND, statusCode: '404', code: 'not_found', message: 'Not found' },
  { type: apigw.ResponseType.THROTTLED, statusCode: '429', code: 'rate_limit_exceeded', message: 'Too many requests; retry shortly', retryAfterSeconds: 1 },
  { type: apigw.ResponseType.QUOTA_EXCEEDED, statusCode: '429', code: 'rate_limit_exceeded', message: 'Daily request quota exceeded for this API key' },
  { type: apigw.ResponseType.REQUEST_TOO_LARGE, statusCode: '413', code: 'file_too_large', message: 'Request body too large; use the pre-signed upload flow' },
  { type: apigw.ResponseType.INTEGRATION_TIMEOUT, statusCode: '504', code: 'upstream_timeout', message: 'Upstream timeout; retry later' },
  { type: apigw.ResponseType.DEFAULT_4XX, code: 'invalid_request', message: null },
  { type: apigw.ResponseType.DEFAULT_5XX, code: 'internal_error', message: 'Internal server error' },
];

/** Browsers must be able to read API Gateway's own errors too, not only the handlers' responses. */
const CORS_HEADERS = { 'Access-Control-Allow-Origin': "'*'" };

/**
 * Gateway response bodies are plain `$context` substitution, not VTL, so the extraction dialect's
 * `timestamp` is API Gateway's request time (`22/Nov/2026:10:00:00 +0000`, UTC) rather than the
 * ISO 8601 form the handlers write: no template can reformat it.
 */
export function templateFor(dialect: ErrorDialect, error: GatewayError): string {
  const message = error.message === null ? '$context.error.messageString' : JSON.stringify(error.message);
  if (dialect === 'extraction') {
    const details = error.retryAfterSeconds ? `,"details":{"retryAfterSeconds":${error.retryAfterSeconds}}` : '';
    return `{"error":"${error.code}","message":${message},"timestamp":"$context.requestTime","requestId":"$context.requestId"${details}}`;
  }
  const retry = error.retryAfterSeconds ? `,"retry_after_seconds":${error.retryAfterSeconds}` : '';
  return `{"detail":${message}${retry}}`;
}

export function addGatewayResponses(api: apigw.RestApi, dialect: ErrorDialect): void {
  for (const error of GATEWAY_ERRORS) {
    api.addGatewayResponse(error.type.responseType, {
      type: error.type,
      statusCode: error.statusCode,
      responseHeaders: error.retryAfterSeconds ? { ...CORS_HEADERS, 'Retry-After': `'${error.retryAfterSeconds}'` } : CORS_HEADERS,
      templates: { 'application/json': templateFor(dialect, error) },
    });
  }
}
