import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { apiGatewayEvent, lambdaContext } from '../http/api-gateway-event';

/**
 * A reference-route event: JSON content type and a key by default; `apiKeyId: null` sends none.
 * Built on the shared apiGatewayEvent so every unit test sees the same event shape.
 */
export function apiEvent(options: {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  apiKeyId?: string | null;
}): APIGatewayProxyEvent {
  return apiGatewayEvent({
    method: options.method,
    path: options.path,
    body: options.body,
    query: options.query,
    headers: { 'Content-Type': 'application/json', ...options.headers },
    apiKeyId: options.apiKeyId === null ? undefined : (options.apiKeyId ?? 'test-key'),
    requestId: 'test-request',
  });
}

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** Invokes a handler and parses its JSON body (undefined for an empty body, e.g. a 304). */
export async function invoke(handler: Handler, event: APIGatewayProxyEvent) {
  const response = await handler(event, lambdaContext);
  return { ...response, json: response.body === '' ? undefined : (JSON.parse(response.body) as unknown) };
}
