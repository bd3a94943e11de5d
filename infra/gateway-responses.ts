import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type { ErrorDialect } from '../functions/http/dialects';
import { GATEWAY_ERRORS, type GatewayError, gatewayErrorBody, gatewayErrorHeaders } from '../functions/http/gateway-errors';

/** API Gateway's own message, already a quoted JSON string. */
const API_GATEWAY_MESSAGE = '$context.error.messageString';
const MESSAGE_SLOT = '@message@';

/**
 * Gateway response bodies are plain `$context` substitution, not VTL: the body is the dialect's
 * (functions/http/gateway-errors.ts, the local gateway renders the same) with API Gateway's request id
 * and time (`22/Nov/2026:10:00:00 +0000`, UTC, which no template can turn into ISO 8601).
 */
export function templateFor(dialect: ErrorDialect, error: GatewayError): string {
  const body = gatewayErrorBody(error, dialect, { message: MESSAGE_SLOT, requestId: '$context.requestId', timestamp: '$context.requestTime' });
  return JSON.stringify(body).replace(JSON.stringify(MESSAGE_SLOT), error.message === null ? API_GATEWAY_MESSAGE : JSON.stringify(error.message));
}

export function addGatewayResponses(api: apigw.RestApi, dialect: ErrorDialect): void {
  for (const error of Object.values(GATEWAY_ERRORS)) {
    // Header values of a gateway response are static strings, quoted.
    const headers = Object.entries(gatewayErrorHeaders(error)).map(([name, value]) => [canonicalName(name), `'${value}'`]);
    api.addGatewayResponse(error.type, {
      type: apigw.ResponseType.of(error.type),
      statusCode: error.status === undefined ? undefined : String(error.status),
      responseHeaders: Object.fromEntries(headers),
      templates: { 'application/json': templateFor(dialect, error) },
    });
  }
}

/** `access-control-allow-origin` → `Access-Control-Allow-Origin` (HTTP names are case-insensitive; the template reads better). */
function canonicalName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_whole, dash: string, letter: string) => dash + letter.toUpperCase());
}
