import { Validator } from '@seriousme/openapi-schema-validator';
import { buildOpenApiDocument } from '../../../functions/http/openapi';
import { type LiveAnswer, OpenApiContract, OpenApiSchemas } from '../../integration/helpers/openapi-contract';

/**
 * The OpenAPI document as a client generator or a reader sees it: valid OpenAPI 3.1 by the official
 * schema, every schema a valid JSON Schema 2020-12, and every field and parameter described; and the
 * check the integration tests run on every live answer against it.
 */

type Json = Record<string, unknown>;

const document = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Json;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): boolean {
  return typeof value === 'string' && value.trim().length > 0;
}

/**
 * Every request/response field and parameter of `doc` that has no description. A property that only
 * refers to a named component (also as the nullable `anyOf [$ref, null]`) takes the component's.
 */
function undescribedFields(doc: Json): string[] {
  const components = (isObject(doc.components) ? doc.components : {}) as Json;
  const schemas = (isObject(components.schemas) ? components.schemas : {}) as Record<string, Json>;
  const missing: string[] = [];

  const componentDescribed = (ref: unknown) => {
    const name = /^#\/components\/schemas\/(.+)$/.exec(String(ref))?.[1];
    return name !== undefined && text(schemas[name]?.description);
  };
  const described = (schema: Json): boolean => {
    if (text(schema.description)) return true;
    if (schema.$ref !== undefined) return componentDescribed(schema.$ref);
    const alternatives = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as Json[] | undefined;
    return (
      Array.isArray(alternatives) &&
      alternatives.some((alternative) => alternative.$ref !== undefined) &&
      alternatives.every((alternative) => alternative.type === 'null' || (alternative.$ref !== undefined && componentDescribed(alternative.$ref)))
    );
  };
  const walk = (schema: unknown, at: string): void => {
    if (!isObject(schema) || schema.$ref !== undefined) return;
    for (const [name, property] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
      if (!isObject(property) || !described(property)) missing.push(`${at}.${name}`);
      walk(property, `${at}.${name}`);
    }
    for (const key of ['items', 'additionalProperties', 'not']) walk(schema[key], `${at}[${key}]`);
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
      const alternatives = Array.isArray(schema[key]) ? (schema[key] as unknown[]) : [];
      for (const [i, alternative] of alternatives.entries()) walk(alternative, `${at}[${key} ${i}]`);
    }
  };
  const walkContent = (holder: unknown, at: string) => {
    if (!isObject(holder) || !isObject(holder.content)) return;
    for (const [type, media] of Object.entries(holder.content)) walk((media as Json).schema, `${at} ${type}`);
  };
  const walkOperations = (items: unknown, section: string) => {
    for (const [path, item] of Object.entries(isObject(items) ? items : {})) {
      for (const [method, operation] of Object.entries(item as Json)) {
        if (!isObject(operation)) continue;
        const at = `${section} ${method.toUpperCase()} ${path}`;
        for (const parameter of (operation.parameters ?? []) as Json[]) {
          if (!text(parameter.description)) missing.push(`${at} parameter ${String(parameter.name)}`);
        }
        walkContent(operation.requestBody, `${at} request`);
        for (const [status, response] of Object.entries((operation.responses ?? {}) as Json)) walkContent(response, `${at} ${status}`);
      }
    }
  };

  for (const [name, schema] of Object.entries(schemas)) {
    if (!text(schema.description)) missing.push(`component ${name}`);
    walk(schema, name);
  }
  for (const [name, response] of Object.entries((components.responses ?? {}) as Json)) walkContent(response, `response ${name}`);
  walkOperations(doc.paths, 'path');
  walkOperations(doc.webhooks, 'webhook');
  return missing;
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 by the official schema', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result).toEqual({ valid: true });
  });

  it('would be caught if it were not (the validator is not a stub)', async () => {
    const broken = structuredClone(document) as { paths: Record<string, Record<string, Json>> };
    delete broken.paths['/ping']!.get!.responses;
    broken.paths['/ping']!.get!.parameters = [{ name: 'x', in: 'nowhere' }];
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });

  it('has schemas that compile as JSON Schema 2020-12 (ajv, strict: no unknown keyword, no bad format)', () => {
    const schemas = new OpenApiSchemas(document);
    const failures: string[] = [];
    for (const name of schemas.componentNames()) {
      try {
        schemas.validator(name);
      } catch (error) {
        failures.push(`${name}: ${(error as Error).message}`);
      }
    }
    expect(schemas.componentNames().length).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });

  it('describes every request and response field and every parameter', () => {
    expect(undescribedFields(document)).toEqual([]);
  });

  it('finds a field without a description wherever it sits (the check is not a stub)', () => {
    const doc = structuredClone(document) as { components: { schemas: Record<string, Json> }; paths: Record<string, Record<string, Json>> };
    const timeseries = doc.components.schemas.TimeseriesResponse as { properties: Record<string, Json> };
    delete timeseries.properties.uid_ext!.description;
    delete doc.components.schemas.ReportHealthEvent!.description;
    const parameters = doc.paths['/lab-ranges/']!.get!.parameters as Json[];
    delete parameters[0]!.description;
    expect(undescribedFields(doc)).toEqual(
      expect.arrayContaining([
        'TimeseriesResponse.uid_ext',
        'component ReportHealthEvent',
        'CondensedReportRequest.health_event',
        'path GET /lab-ranges/ parameter sex',
      ]),
    );
  });
});

describe('the live-answer check of the integration tests', () => {
  const contract = new OpenApiContract(document);
  const answer = (overrides: Partial<LiveAnswer>): LiveAnswer => ({
    method: 'GET',
    path: '/ping',
    status: 200,
    contentType: 'application/json; charset=utf-8',
    body: '{"status":"ok"}',
    ...overrides,
  });

  it('accepts an answer the document promises, error answers of the route dialect included', () => {
    expect(contract.problems(answer({}))).toEqual([]);
    const unauthorized = { error: 'unauthorized', message: 'Missing or invalid API key', timestamp: '2026-11-22T10:00:00.000Z', requestId: 'r-1' };
    expect(contract.problems(answer({ path: '/extraction/lab/status/abc?x=1', status: 401, body: JSON.stringify(unauthorized) }))).toEqual([]);
    expect(contract.problems(answer({ path: '/reference-data', status: 304, contentType: null, body: '' }))).toEqual([]);
  });

  it('names an undocumented status, a wrong content type and a body that breaks the schema', () => {
    expect(contract.problems(answer({ status: 418 }))).toEqual([expect.stringContaining('GET /ping → 418 is not a documented status')]);
    expect(contract.problems(answer({ contentType: 'text/html' }))).toEqual([expect.stringContaining('content type text/html')]);
    expect(contract.problems(answer({ body: '{"status":"fine"}' }))).toEqual([expect.stringContaining('/status must be equal to one of the allowed values')]);
    const wrongDialect = contract.problems(answer({ path: '/extraction/lab/status/abc', status: 404, body: '{"detail":"No such job"}' }));
    expect(wrongDialect).toEqual(expect.arrayContaining([expect.stringContaining("must have required property 'error'")]));
  });

  it('leaves requests that reach no operation to the gateway tests', () => {
    expect(contract.problems(answer({ path: '/no/such/route', status: 404, body: '{"detail":"x"}' }))).toEqual([]);
    expect(contract.problems(answer({ method: 'DELETE', status: 405, body: '{"detail":"x"}' }))).toEqual([]);
  });

  it('checks what Hale sends to callers against the webhooks of the document', () => {
    const callback = { job_id: 'j', status: 'success', processing_time: 1.5, timestamp: '2026-11-22T10:00:00.000Z' };
    expect(contract.webhookProblems('reportStatus', 'post', callback)).toEqual([]);
    expect(contract.webhookProblems('reportStatus', 'post', { ...callback, status: 'done' })).not.toEqual([]);
  });
});
