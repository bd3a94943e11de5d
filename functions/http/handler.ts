import { createHash, randomUUID } from 'node:crypto';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod';
import { logger } from '../platform/observability';
import { beforeDeadline } from './deadline';
import { type ErrorDialect, toErrorResponse } from './dialects';
import { BadRequestError, type FieldIssue, PayloadTooLargeError, UnauthorizedError, UnsupportedMediaTypeError, ValidationError } from './errors';

/** What a route's domain call receives: parsed, validated input and the caller's identity. */
export interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  requestId: string;
  /** Stable, non-reversible id of the API key that made the request (tenancy). */
  tenant: string;
  event: APIGatewayProxyEvent;
}

export interface RouteResult {
  statusCode?: number;
  /** Serialised as JSON unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteSpec<B extends Schema, Q extends Schema, P extends Schema> {
  dialect: ErrorDialect;
  body?: B;
  query?: Q;
  params?: P;
  /** Extraction routes report bad parameters as 400 invalid_request (spec §7.1); the rest as 422. */
  validationStatus?: 400 | 422;
  /** Routes that serve public, non-tenant data (e.g. the OpenAPI document) may run without a key. */
  anonymous?: boolean;
  /** A body larger than `bytes` is answered 413 with `message` before it is parsed. */
  bodyLimit?: { bytes: number; message: string };
}

const BASE_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/** Hash of the API key id: jobs record it so another key can never read them. */
export function tenantOf(apiKeyId: string): string {
  return createHash('sha256').update(apiKeyId).digest('hex').slice(0, 32);
}

function issuesOf(error: z.ZodError, where: string): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}

function lowerCaseHeaders(event: APIGatewayProxyEvent): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined && value !== null) out[name.toLowerCase()] = value;
  }
  return out;
}

/** `application/json` or a `+json` type (RFC 6839), with any parameters; the media type is case-insensitive. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

function parseJsonBody(
  event: APIGatewayProxyEvent,
  headers: Record<string, string>,
  limit: RouteSpec<Schema, Schema, Schema>['bodyLimit'],
): unknown {
  if (event.body === null || event.body === undefined || event.body === '') return undefined;
  const contentType = headers['content-type'];
  if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType.trim())) {
    throw new UnsupportedMediaTypeError('The request body must be JSON, sent with Content-Type: application/json');
  }
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (limit && Buffer.byteLength(text) > limit.bytes) throw new PayloadTooLargeError(limit.message);
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequestError('Malformed JSON in request body');
  }
}

/**
 * Builds a Lambda handler for an API Gateway REST (v1) proxy route: header normalisation, request id,
 * JSON parsing (another content type → 415, malformed → 400), zod validation (→ 422, or 400 for extraction routes, naming each
 * field), a deadline shortly before the Lambda timeout (→ 504, functions/http/deadline.ts), the route's
 * error dialect, and a request log line without bodies or header values.
 */
export function httpRoute<B extends Schema = undefined, Q extends Schema = undefined, P extends Schema = undefined>(
  spec: RouteSpec<B, Q, P>,
  run: (input: RouteInput<Out<B>, Out<Q>, Out<P>>) => Promise<RouteResult>,
) {
  const validationStatus = spec.validationStatus ?? (spec.dialect === 'extraction' ? 400 : 422);

  const core = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    const started = performance.now();
    const requestId = event.requestContext?.requestId || randomUUID();
    const headers = lowerCaseHeaders(event);
    let response: APIGatewayProxyResult;
    try {
      const apiKeyId = event.requestContext?.identity?.apiKeyId;
      if (!apiKeyId && !spec.anonymous) throw new UnauthorizedError();
      const issues: FieldIssue[] = [];
      const parse = <S extends Schema>(schema: S, value: unknown, where: string): Out<S> => {
        if (!schema) return undefined as Out<S>;
        const result = schema.safeParse(value);
        if (result.success) return result.data as Out<S>;
        issues.push(...issuesOf(result.error, where));
        return undefined as Out<S>;
      };
      const body = parse(spec.body as B, spec.body ? parseJsonBody(event, headers, spec.bodyLimit) : undefined, 'body');
      const query = parse(spec.query as Q, event.queryStringParameters ?? {}, 'query');
      const params = parse(spec.params as P, event.pathParameters ?? {}, 'path');
      if (issues.length > 0) throw new ValidationError(issues, validationStatus);
      const work = run({ body, query, params, headers, requestId, tenant: tenantOf(apiKeyId ?? 'anonymous'), event });
      const result = await beforeDeadline(work, context);
      response = {
        statusCode: result.statusCode ?? 200,
        headers: { ...BASE_HEADERS, ...result.headers, 'x-request-id': requestId },
        body: result.rawBody ?? (result.body === undefined ? '' : JSON.stringify(result.body)),
      };
    } catch (error) {
      const mapped = toErrorResponse(error, spec.dialect, requestId);
      if (mapped.statusCode >= 500) {
        logger.error('request failed', { requestId, errorName: error instanceof Error ? error.name : typeof error });
      }
      response = {
        statusCode: mapped.statusCode,
        headers: { ...BASE_HEADERS, ...mapped.headers, 'x-request-id': requestId },
        body: JSON.stringify(mapped.body),
      };
    }
    logger.debug('request', {
      requestId,
      method: event.httpMethod,
      resource: event.resource,
      status: response.statusCode,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    });
    return response;
  };

  return middy(core).use(injectLambdaContext(logger, { resetKeys: true }));
}
