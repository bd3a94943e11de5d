import { createHash } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { RouteDefinition } from '../functions/routes';
import { LOCAL_ACCOUNT } from './lambda-invoker';

/** One HTTP request as the gateway received it, before it becomes a Lambda event. */
export interface GatewayRequest {
  method: string;
  /** Percent-encoded path, without the query. */
  path: string;
  /** Query string without `?`. */
  query: string;
  /** Node's rawHeaders: name, value, name, value… with the caller's casing. */
  rawHeaders: readonly string[];
  body: Buffer;
  sourceIp: string;
  requestId: string;
  receivedAt: Date;
  /** Present when the route requires a key and the caller sent a valid one. */
  apiKey?: string;
}

export interface HttpResponse {
  statusCode: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/** A handler result API Gateway could not turn into HTTP ("Malformed Lambda proxy response"). */
export class MalformedProxyResult extends Error {}

/** API keys have a public id in API Gateway; locally it is derived from the key, stable and not secret. */
export function apiKeyIdOf(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 20);
}

const TEXTUAL_CONTENT_TYPE = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded)\b)/i;

/** Text bodies pass as text; anything else (PDFs, images, octet streams) as base64, like binaryMediaTypes. */
function isTextual(contentType: string | undefined): boolean {
  return contentType === undefined || TEXTUAL_CONTENT_TYPE.test(contentType.trim());
}

/**
 * The last value and all values of each name. Collected in a Map and made objects with
 * Object.fromEntries, so that names like `__proto__`, `constructor` or `hasOwnProperty` (any caller
 * may send them, API Gateway passes them on) are plain own keys, never the prototype's members.
 */
function collect(pairs: Iterable<[string, string]>): { single: Record<string, string>; multi: Record<string, string[]> } {
  const values = new Map<string, string[]>();
  for (const [name, value] of pairs) values.set(name, [...(values.get(name) ?? []), value]);
  return {
    single: Object.fromEntries([...values].map(([name, all]) => [name, all[all.length - 1]!])),
    multi: Object.fromEntries(values),
  };
}

function headerPairs(rawHeaders: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) pairs.push([rawHeaders[i]!, rawHeaders[i + 1]!]);
  return pairs;
}

/** The API Gateway REST (v1) proxy event that AWS would hand the route's Lambda. */
export function toProxyEvent(route: RouteDefinition, pathParameters: Record<string, string> | null, request: GatewayRequest): APIGatewayProxyEvent {
  const headers = collect(headerPairs(request.rawHeaders));
  const query = collect(new URLSearchParams(request.query));
  const hasQuery = Object.keys(query.single).length > 0;
  const contentType = Object.entries(headers.single).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const textual = isTextual(contentType);
  const hasBody = request.body.length > 0;
  return {
    resource: route.path,
    path: request.path,
    httpMethod: request.method,
    headers: headers.single,
    multiValueHeaders: headers.multi,
    queryStringParameters: hasQuery ? query.single : null,
    multiValueQueryStringParameters: hasQuery ? query.multi : null,
    pathParameters,
    stageVariables: null,
    body: hasBody ? request.body.toString(textual ? 'utf8' : 'base64') : null,
    isBase64Encoded: hasBody && !textual,
    requestContext: {
      accountId: LOCAL_ACCOUNT,
      apiId: route.api === 'extraction' ? 'local-extraction' : 'local-main',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: request.method,
      path: request.path,
      stage: 'local',
      requestId: request.requestId,
      requestTimeEpoch: request.receivedAt.getTime(),
      resourceId: route.id,
      resourcePath: route.path,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: request.apiKey ?? null,
        apiKeyId: request.apiKey ? apiKeyIdOf(request.apiKey) : null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: request.sourceIp,
        user: null,
        userAgent: headers.single['user-agent'] ?? headers.single['User-Agent'] ?? null,
        userArn: null,
      },
    },
  };
}

function headerValue(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new MalformedProxyResult('header values must be strings, numbers or booleans');
}

/** Turns a proxy result into HTTP, with API Gateway's rules (multiValueHeaders merge with headers). */
export function fromProxyResult(result: unknown): HttpResponse {
  if (!result || typeof result !== 'object') throw new MalformedProxyResult('the result is not an object');
  const { statusCode, headers, multiValueHeaders, body, isBase64Encoded } = result as Record<string, unknown>;
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) {
    throw new MalformedProxyResult('statusCode is missing or not an HTTP status');
  }
  if (body !== undefined && body !== null && typeof body !== 'string') throw new MalformedProxyResult('body must be a string');
  const out: OutgoingHttpHeaders = {};
  for (const [name, values] of Object.entries((multiValueHeaders as Record<string, unknown[]> | undefined) ?? {})) {
    out[name.toLowerCase()] = (Array.isArray(values) ? values : [values]).map(headerValue);
  }
  for (const [name, value] of Object.entries((headers as Record<string, unknown> | undefined) ?? {})) {
    out[name.toLowerCase()] = headerValue(value);
  }
  const text = typeof body === 'string' ? body : '';
  return { statusCode, headers: out, body: Buffer.from(text, isBase64Encoded === true ? 'base64' : 'utf8') };
}
