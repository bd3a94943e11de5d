import type { ErrorDialect } from '../../../functions/http/dialects';
import { GATEWAY_ERRORS, gatewayErrorBody, gatewayErrorHeaders } from '../../../functions/http/gateway-errors';
import { templateFor } from '../../../infra/gateway-responses';

/** API Gateway's substitution of the `$context` variables a template may use. */
function substitute(template: string, values: { requestId: string; requestTime: string; messageString: string }): string {
  return template
    .replaceAll('$context.requestId', values.requestId)
    .replaceAll('$context.requestTime', values.requestTime)
    .replaceAll('$context.error.messageString', JSON.stringify(values.messageString));
}

describe('gateway errors', () => {
  const values = { requestId: 'req-1', requestTime: '22/Nov/2026:10:00:00 +0000', messageString: 'Unsupported Media Type' };

  it.each(['detail', 'extraction'] as ErrorDialect[])('renders the same %s body in the AWS template and the local gateway', (dialect) => {
    for (const error of Object.values(GATEWAY_ERRORS)) {
      const aws = JSON.parse(substitute(templateFor(dialect, error), values)) as Record<string, unknown>;
      const local = gatewayErrorBody(error, dialect, { message: error.message ?? values.messageString, requestId: values.requestId, timestamp: values.requestTime });
      expect(aws).toEqual(local);
    }
  });

  it('answers every rate or quota refusal with Retry-After, and every error with CORS', () => {
    for (const error of Object.values(GATEWAY_ERRORS)) {
      const headers = gatewayErrorHeaders(error);
      expect(headers['access-control-allow-origin']).toBe('*');
      if (error.status === 429) expect(Number(headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(gatewayErrorHeaders(GATEWAY_ERRORS.QUOTA_EXCEEDED, 40)['retry-after']).toBe('40');
  });

  it('turns unknown paths and methods into 404 and missing keys into 401, in both dialects', () => {
    expect(GATEWAY_ERRORS.MISSING_AUTHENTICATION_TOKEN).toMatchObject({ status: 404, code: 'not_found' });
    expect(GATEWAY_ERRORS.INVALID_API_KEY).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(JSON.parse(substitute(templateFor('extraction', GATEWAY_ERRORS.QUOTA_EXCEEDED), values))).toMatchObject({
      error: 'rate_limit_exceeded',
      details: { retryAfterSeconds: 3600 },
      requestId: 'req-1',
    });
  });
});
