import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

/**
 * A REST (v1) proxy event as API Gateway sends it; `apiKeyId` undefined means no key was presented.
 * A body comes with `Content-Type: application/json` unless `headers` name another.
 */
export function apiGatewayEvent(options: {
  method?: string;
  path?: string;
  body?: string | null;
  headers?: Record<string, string>;
  query?: Record<string, string> | null;
  pathParameters?: Record<string, string> | null;
  apiKeyId?: string;
  requestId?: string;
}): APIGatewayProxyEvent {
  return {
    httpMethod: options.method ?? 'POST',
    path: options.path ?? '/test',
    resource: options.path ?? '/test',
    body: options.body ?? null,
    isBase64Encoded: false,
    headers: { ...(options.body ? { 'content-type': 'application/json' } : {}), ...options.headers },
    multiValueHeaders: {},
    queryStringParameters: options.query ?? null,
    multiValueQueryStringParameters: null,
    pathParameters: options.pathParameters ?? null,
    stageVariables: null,
    requestContext: {
      requestId: options.requestId ?? 'req-0001',
      identity: { apiKeyId: options.apiKeyId ?? null },
    } as unknown as APIGatewayProxyEvent['requestContext'], // only the fields httpRoute reads
  };
}

export const lambdaContext = {
  functionName: 'hale-test',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:hale-test',
  memoryLimitInMB: '128',
  awsRequestId: 'aws-req-0001',
  logGroupName: '/aws/lambda/hale-test',
  logStreamName: 'stream',
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => 10_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
} satisfies Context;
