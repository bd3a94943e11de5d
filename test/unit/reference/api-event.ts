import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

/** An API Gateway REST proxy event as the gateway (or the local runtime) hands it to a handler. */
export function apiEvent(options: {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  apiKeyId?: string | null;
}): APIGatewayProxyEvent {
  return {
    httpMethod: options.method,
    path: options.path,
    resource: options.path,
    body: options.body ?? null,
    isBase64Encoded: false,
    headers: { 'Content-Type': 'application/json', ...options.headers },
    multiValueHeaders: {},
    queryStringParameters: options.query ?? null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    requestContext: {
      requestId: 'test-request',
      identity: { apiKeyId: options.apiKeyId === undefined ? 'test-key' : options.apiKeyId },
    } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

const context = { functionName: 'test', awsRequestId: 'test-request', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** Invokes a handler and parses its JSON body (undefined for an empty body, e.g. a 304). */
export async function invoke(handler: Handler, event: APIGatewayProxyEvent) {
  const response = await handler(event, context);
  return { ...response, json: response.body === '' ? undefined : (JSON.parse(response.body) as unknown) };
}
