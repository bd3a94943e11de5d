/**
 * Checks live answers against the OpenAPI document (the one `npm run openapi` writes and
 * GET /openapi.json serves): the status must be documented for the operation, the content type must
 * be one it lists, and a JSON body must validate against that response's schema (JSON Schema 2020-12,
 * ajv, formats included). The test runtime (./runtime.ts) runs it on every answer of a documented
 * operation, error answers included, so a test fails as soon as Hale answers something its document
 * does not promise:
 *
 *   const problems = contractProblems({ method: 'GET', path: '/ping', status: 200, contentType: 'application/json', body: '{"status":"ok"}' });
 *   expect(problems).toEqual([]);
 *   expect(webhookProblems('labJobEvent', 'post', body)).toEqual([]);   // what Hale sends to callers
 *
 * Requests that match no route, or a route with another method (404/405 from the gateway), belong to
 * no operation and are not checked here.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../../../functions/http/openapi';
import { type RouteDefinition, ROUTES } from '../../../functions/routes';
import { RouteTable } from '../../../local/route-table';

type Json = Record<string, unknown>;

interface MediaType {
  schema?: Json;
}

interface ResponseObject {
  description: string;
  content?: Record<string, MediaType>;
  $ref?: string;
}

interface Operation {
  responses: Record<string, ResponseObject>;
  requestBody?: { content: Record<string, MediaType> };
}

export interface LiveAnswer {
  method: string;
  /** Path and query as requested, e.g. `/lab-ranges/?sex=female`. */
  path: string;
  status: number;
  /** The Content-Type header, parameters included; null when absent. */
  contentType: string | null;
  body: string;
}

/** Where component schemas live for ajv: `#/components/schemas/X` becomes `${SCHEMA_BASE}X`. */
const SCHEMA_BASE = 'https://hale.invalid/openapi/components/schemas/';

/** `$ref`s into components.schemas rewritten to absolute ids, so any schema of the document compiles on its own. */
function withAbsoluteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withAbsoluteRefs);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' ? inner.replace('#/components/schemas/', SCHEMA_BASE) : withAbsoluteRefs(inner),
    ]),
  );
}

/** Every schema of an OpenAPI 3.1 document, compiled once: JSON Schema 2020-12 plus the OAS dialect's own keywords. */
export class OpenApiSchemas {
  private readonly ajv: Ajv2020;
  private readonly compiled = new WeakMap<object, ValidateFunction>();

  constructor(readonly document: Json) {
    this.ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
    addFormats(this.ajv);
    for (const keyword of ['discriminator', 'xml', 'externalDocs', 'example']) this.ajv.addKeyword({ keyword });
    const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
    for (const [name, schema] of Object.entries(schemas)) {
      this.ajv.addSchema({ ...(withAbsoluteRefs(schema) as Json), $id: `${SCHEMA_BASE}${name}` });
    }
  }

  /** Names of the component schemas. */
  componentNames(): string[] {
    return Object.keys(((this.document.components as Json | undefined)?.schemas ?? {}) as Json);
  }

  /** A validator for a component (by name) or for any schema object of the document. */
  validator(schema: string | Json): ValidateFunction {
    if (typeof schema === 'string') {
      const validate = this.ajv.getSchema(`${SCHEMA_BASE}${schema}`);
      if (!validate) throw new Error(`No component schema ${schema}`);
      return validate;
    }
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(withAbsoluteRefs(schema) as Json);
      this.compiled.set(schema, validate);
    }
    return validate;
  }

  /** ajv's errors as `path: message` lines; empty when `value` is valid. */
  problems(schema: string | Json, value: unknown): string[] {
    const validate = this.validator(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`);
  }

  /** A response object, following a `$ref` into components.responses. */
  response(response: ResponseObject): ResponseObject {
    if (!response.$ref) return response;
    const name = /^#\/components\/responses\/(.+)$/.exec(response.$ref)?.[1];
    const resolved = name ? (((this.document.components as Json).responses as Record<string, ResponseObject> | undefined)?.[name] ?? undefined) : undefined;
    if (!resolved) throw new Error(`Dangling response $ref ${response.$ref}`);
    return resolved;
  }
}

function isJsonMediaType(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

function mediaTypeOf(contentType: string | null): string | null {
  return contentType?.split(';')[0]?.trim().toLowerCase() || null;
}

/** What is wrong with `body` as the `type` content of `response`; empty when nothing. */
function bodyProblems(schemas: OpenApiSchemas, response: ResponseObject, contentType: string | null, body: string, what: string): string[] {
  const content = response.content ?? {};
  const types = Object.keys(content);
  if (types.length === 0) return body.length === 0 ? [] : [`${what} documents no body, but one came (${body.length} bytes)`];
  const type = mediaTypeOf(contentType);
  if (type === null || !(type in content)) return [`${what} has content type ${type ?? '(none)'}; the document lists ${types.join(', ')}`];
  const schema = content[type]?.schema;
  if (!schema || !isJsonMediaType(type)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [`${what} is not JSON: ${body.slice(0, 200)}`];
  }
  return schemas.problems(schema, parsed).map((problem) => `${what} body ${problem}`);
}

/** The checker for one document and one route list. */
export class OpenApiContract {
  readonly schemas: OpenApiSchemas;
  private readonly routes: RouteTable<RouteDefinition>;
  /** Verdicts on recent answers: tests repeat identical answers (rate limits: a thousand reference-data bodies). */
  private readonly verdicts = new Map<string, string[]>();

  constructor(document: Json = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Json, routes: readonly RouteDefinition[] = ROUTES) {
    this.schemas = new OpenApiSchemas(document);
    this.routes = new RouteTable(routes);
  }

  /** The documented operation a request reaches, or undefined when it reaches no route. */
  operation(method: string, pathAndQuery: string): { template: string; operation: Operation } | undefined {
    const path = pathAndQuery.split('?')[0]!;
    const found = this.routes.lookup(method.toUpperCase(), path);
    if (found.kind !== 'found') return undefined;
    const template = found.route.path;
    const operation = ((this.schemas.document.paths as Json)?.[template] as Record<string, Operation> | undefined)?.[method.toLowerCase()];
    if (!operation) throw new Error(`${method} ${template} is routed but not in the OpenAPI document`);
    return { template, operation };
  }

  /** Everything about a live answer that the document does not promise; empty when it matches. */
  problems(answer: LiveAnswer): string[] {
    const found = this.operation(answer.method, answer.path);
    if (!found) return [];
    const what = `${answer.method.toUpperCase()} ${found.template} → ${answer.status}`;
    const key = `${what}\n${answer.contentType}\n${answer.body}`;
    const known = this.verdicts.get(key);
    if (known) return known;
    const documented = found.operation.responses[String(answer.status)] ?? found.operation.responses[`${String(answer.status)[0]}XX`] ?? found.operation.responses.default;
    const problems = documented
      ? bodyProblems(this.schemas, this.schemas.response(documented), answer.contentType, answer.body, what)
      : [`${what} is not a documented status (documented: ${Object.keys(found.operation.responses).join(', ')})`];
    if (this.verdicts.size >= 64) this.verdicts.clear();
    this.verdicts.set(key, problems);
    return problems;
  }

  /** What is wrong with a body Hale sends to a caller's endpoint (`webhooks` of the document). */
  webhookProblems(name: string, method: string, body: unknown): string[] {
    const operation = ((this.schemas.document.webhooks as Json | undefined)?.[name] as Record<string, Operation> | undefined)?.[method.toLowerCase()];
    const schema = operation?.requestBody?.content['application/json']?.schema;
    if (!schema) throw new Error(`No JSON webhook ${method} ${name} in the OpenAPI document`);
    return this.schemas.problems(schema, body).map((problem) => `webhook ${name} body ${problem}`);
  }
}

let shared: OpenApiContract | undefined;

/** The contract of the document the code generates now, built once per test file. */
export function openApiContract(): OpenApiContract {
  shared ??= new OpenApiContract();
  return shared;
}

export function contractProblems(answer: LiveAnswer): string[] {
  return openApiContract().problems(answer);
}

export function webhookProblems(name: string, method: string, body: unknown): string[] {
  return openApiContract().webhookProblems(name, method, body);
}
