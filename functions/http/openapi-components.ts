import { extendZodWithOpenApi, type OpenAPIRegistry, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { ErrorDialect } from './dialects';

// `registry.register` names a component through zod's `.openapi()`, which this adds to zod.
extendZodWithOpenApi(z);

/**
 * What every area's OpenAPI registrar (functions/<area>/openapi.ts) shares: the API key scheme, the
 * two error dialects (DESIGN §3) and one response component per dialect and status, so a route lists
 * its errors with `errorResponses('detail', [401, 422, 429, 500])`. Name an area's own schemas with
 * zod's `.meta({ id: 'Name' })` (read by zod-to-openapi ≥ 8), so schema modules need no OpenAPI import;
 * write regexes without flags (local-stack.md §13: flags leak into `pattern`).
 */

export const API_KEY_SCHEME = 'ApiKey';

/** `security` of an operation that needs the `x-api-key` header (the document's default). */
export const API_KEY_SECURITY = [{ [API_KEY_SCHEME]: [] }];

export const FieldIssueSchema = z.object({
  path: z.string().meta({ description: 'Dotted location, e.g. `body.health_events.0.predictors.2.value`' }),
  message: z.string().meta({ description: 'What is wrong with the value there, for a person to read' }),
}).meta({ id: 'FieldIssue', description: 'One field that failed validation' });

export const DetailErrorSchema = z.object({
  detail: z.string().meta({ description: 'What went wrong, for a person; 5xx answers never carry internals' }),
  errors: z.array(FieldIssueSchema).optional().meta({ description: 'Validation failures (422), one per field' }),
  retry_after_seconds: z.number().int().optional().meta({ description: 'Rate limits (429): seconds until a retry can succeed' }),
}).meta({ id: 'DetailError', description: 'Error answer of every route outside /extraction' });

export const ExtractionErrorSchema = z.object({
  error: z.string().meta({ description: 'Machine-readable code, e.g. `invalid_request`, `rate_limit_exceeded`' }),
  message: z.string().meta({ description: 'What went wrong, for a person; 5xx answers never carry internals' }),
  timestamp: z.iso.datetime().meta({ description: 'When the error was answered (ISO 8601, UTC)' }),
  requestId: z.string().meta({ description: 'The request\'s id, also in the x-request-id header; quote it when reporting a problem' }),
  details: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'Machine-readable details, e.g. `retryAfterSeconds` (429) or `issues` (the failing fields of invalid_request: path and message each)' }),
}).meta({ id: 'ExtractionError', description: 'Error answer of the routes under /extraction' });

const ERROR_SCHEMAS: Record<ErrorDialect, { id: string; schema: z.ZodType }> = {
  detail: { id: 'DetailError', schema: DetailErrorSchema },
  extraction: { id: 'ExtractionError', schema: ExtractionErrorSchema },
};

export const ERROR_STATUSES = {
  400: { name: 'BadRequest', description: 'Malformed request (e.g. invalid JSON, or invalid parameters on extraction routes)' },
  401: { name: 'Unauthorized', description: 'Missing or invalid API key' },
  403: { name: 'Forbidden', description: 'The API key may not call this API, or the web application firewall refused the request (answered by the gateway)' },
  404: { name: 'NotFound', description: 'No such resource for this API key' },
  413: { name: 'PayloadTooLarge', description: 'Request or file too large' },
  415: { name: 'UnsupportedMediaType', description: 'The request body is not sent as JSON (Content-Type: application/json)' },
  422: { name: 'UnprocessableEntity', description: 'Validation failed; each failing field is named' },
  425: { name: 'TooEarly', description: 'The job has not finished yet' },
  429: { name: 'TooManyRequests', description: 'Rate limit or quota exceeded; Retry-After says when to retry' },
  500: { name: 'InternalServerError', description: 'Internal error; nothing internal is revealed' },
  502: { name: 'BadGateway', description: 'A dependency is unavailable; retry later' },
  503: { name: 'ServiceUnavailable', description: 'Service unavailable; retry later' },
  504: { name: 'GatewayTimeout', description: 'The request did not finish in time: the function answered at its deadline, or the gateway after 29 s (extraction `error`: `upstream_timeout`); retry later' },
} as const;

export type ErrorStatus = keyof typeof ERROR_STATUSES;

const DIALECT_PREFIX: Record<ErrorDialect, string> = { detail: 'Detail', extraction: 'Extraction' };

function responseComponentName(dialect: ErrorDialect, status: ErrorStatus): string {
  return `${DIALECT_PREFIX[dialect]}${ERROR_STATUSES[status].name}`;
}

/**
 * Headers Hale sets, declared once as components (none required: on AWS the errors API Gateway
 * answers itself carry only `Access-Control-Allow-Origin` and `Retry-After`). `x-request-id`,
 * `Cache-Control` and `X-Content-Type-Options` are on every response of httpRoute and the local
 * gateway, so buildOpenApiDocument adds them to every response; `Access-Control-Allow-Origin` to the
 * error responses; `ETag` and `Retry-After` where they are sent.
 */
export type ResponseHeaderId = 'XRequestId' | 'CacheControl' | 'XContentTypeOptions' | 'ETag' | 'RetryAfter' | 'AccessControlAllowOrigin';

interface ResponseHeader {
  name: string;
  header: { description: string; schema: { type: 'string' | 'integer'; enum?: string[]; minimum?: number } };
}

export const RESPONSE_HEADERS: Record<ResponseHeaderId, ResponseHeader> = {
  XRequestId: {
    name: 'x-request-id',
    header: {
      description: 'Id of this request; quote it when reporting a problem. On AWS, errors API Gateway answers itself carry its x-amzn-RequestId instead',
      schema: { type: 'string' },
    },
  },
  CacheControl: {
    name: 'Cache-Control',
    header: {
      description: '`no-store`, or `private, max-age=3600` on static responses that carry an ETag',
      schema: { type: 'string' },
    },
  },
  XContentTypeOptions: {
    name: 'X-Content-Type-Options',
    header: { description: 'Always `nosniff`', schema: { type: 'string', enum: ['nosniff'] } },
  },
  ETag: {
    name: 'ETag',
    header: { description: 'Strong validator of this representation; send it in If-None-Match to get 304', schema: { type: 'string' } },
  },
  AccessControlAllowOrigin: {
    name: 'Access-Control-Allow-Origin',
    header: { description: '`*` on the errors the gateway answers itself (functions/http/gateway-errors.ts)', schema: { type: 'string' } },
  },
  RetryAfter: {
    name: 'Retry-After',
    header: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
  },
};

/** The headers every response carries, as `headers` entries of a Response object. */
export const COMMON_RESPONSE_HEADERS: readonly ResponseHeaderId[] = ['XRequestId', 'CacheControl', 'XContentTypeOptions'];

/** `headers` of a Response object: each header by reference to its component. */
export function headerRefs(ids: readonly ResponseHeaderId[]): Record<string, { $ref: string }> {
  return Object.fromEntries(ids.map((id) => [RESPONSE_HEADERS[id].name, { $ref: `#/components/headers/${id}` }]));
}

/** Response entries for a route's error statuses, pointing at the shared components of its dialect. */
export function errorResponses(dialect: ErrorDialect, statuses: readonly ErrorStatus[]): Record<string, { $ref: string }> {
  return Object.fromEntries(statuses.map((status) => [String(status), { $ref: `#/components/responses/${responseComponentName(dialect, status)}` }]));
}

/** A JSON response whose body is `schema`. */
export function jsonResponse(description: string, schema: z.ZodType): ResponseConfig {
  return { description, content: { 'application/json': { schema } } };
}

/**
 * The 200 and 304 of a static response served by `conditionalResponse` (functions/http/etag.ts):
 * both carry the ETag; 304 has no body.
 */
export function conditionalJsonResponses(description: string, schema: z.ZodType): Record<200 | 304, ResponseConfig> {
  return {
    200: { ...jsonResponse(description, schema), headers: headerRefs(['ETag']) },
    304: { description: 'Not modified: the ETag in If-None-Match is current', headers: headerRefs(['ETag']) },
  };
}

/**
 * Registers the security scheme, the header components, both error schemas and an error response
 * component per dialect and status (buildOpenApiDocument drops those no route uses).
 */
export function registerSharedComponents(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', API_KEY_SCHEME, {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'The API key issued to you. The OpenAPI document itself is served without one.',
  });
  for (const [id, { header }] of Object.entries(RESPONSE_HEADERS)) registry.registerComponent('headers', id, header);
  for (const dialect of Object.keys(ERROR_SCHEMAS) as ErrorDialect[]) {
    // The response components below refer to the schema by name, so it must be emitted as a component.
    registry.register(ERROR_SCHEMAS[dialect].id, ERROR_SCHEMAS[dialect].schema);
    for (const status of Object.keys(ERROR_STATUSES).map(Number) as ErrorStatus[]) {
      registry.registerComponent('responses', responseComponentName(dialect, status), {
        description: ERROR_STATUSES[status].description,
        headers: headerRefs([...COMMON_RESPONSE_HEADERS, 'AccessControlAllowOrigin', ...(status === 429 ? (['RetryAfter'] as const) : [])]),
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMAS[dialect].id}` } } },
      });
    }
  }
}
