import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { buildOpenApiDocument, type OpenApiDocument, PLACEHOLDER_SERVER, undocumentedRoutes, unroutedOperations } from '../../../functions/http/openapi';
import { ROUTES } from '../../../functions/routes';

const document = buildOpenApiDocument();
const committedPath = path.join(__dirname, '..', '..', '..', 'docs', 'openapi.json');

type ResponseObject = { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, { schema?: unknown }> };
type Operation = { operationId?: string; security?: unknown[]; responses?: Record<string, ResponseObject> };

function operation(doc: OpenApiDocument, method: string, routePath: string): Operation | undefined {
  return (doc.paths?.[routePath] as Record<string, Operation> | undefined)?.[method.toLowerCase()];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Every operation of `paths` or `webhooks`, with where it sits. */
function operations(items: Record<string, unknown> | undefined): { at: string; operation: Operation }[] {
  return Object.entries(items ?? {}).flatMap(([at, item]) =>
    METHODS.flatMap((method) => {
      const op = (item as Record<string, Operation | undefined>)[method];
      return op ? [{ at: `${method.toUpperCase()} ${at}`, operation: op }] : [];
    }),
  );
}

/** Every value under `key` anywhere in the document, with where it sits. */
function collect(value: unknown, key: string, at = '#'): { at: string; value: unknown }[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [...(k === key ? [{ at: `${at}/${k}`, value: v }] : []), ...collect(v, key, `${at}/${k}`)]);
}

/** Where two documents differ, down to paths and component names. */
function differences(a: unknown, b: unknown, at = '#', depth = 0): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  if (depth === 3 || a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return [at];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((key) =>
    differences((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${at}/${key}`, depth + 1),
  );
}

describe('OpenAPI document', () => {
  it('is what docs/openapi.json holds', () => {
    const committed: unknown = JSON.parse(readFileSync(committedPath, 'utf8'));
    const generated: unknown = JSON.parse(JSON.stringify(document));
    if (!isDeepStrictEqual(committed, generated)) {
      throw new Error(`docs/openapi.json is out of date (differs at ${differences(committed, generated).join(', ')}): run \`npm run openapi\` and commit the result`);
    }
  });

  it('documents the platform routes, each area documents its own', () => {
    expect(operation(document, 'GET', '/ping')).toBeDefined();
    expect(operation(document, 'GET', '/openapi.json')?.security).toEqual([]);
  });

  it('documents every route in ROUTES', () => {
    expect(undocumentedRoutes(document).map((route) => `${route.method} ${route.path} (${route.handler})`)).toEqual([]);
  });

  it('documents no operation that no route serves', () => {
    expect(unroutedOperations(document)).toEqual([]);
  });

  it('asks for the API key on every route except the anonymous ones', () => {
    expect(document.security).toEqual([{ ApiKey: [] }]);
    expect(document.components?.securitySchemes?.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    for (const route of ROUTES) {
      const security = operation(document, route.method, route.path)?.security;
      if (route.anonymous) expect({ route: route.id, security }).toEqual({ route: route.id, security: [] });
      else expect({ route: route.id, emptySecurity: security?.length === 0 }).toEqual({ route: route.id, emptySecurity: false });
    }
  });

  it('gives each route the error responses of its dialect', () => {
    for (const route of ROUTES) {
      const prefix = route.api === 'extraction' ? 'Extraction' : 'Detail';
      for (const [status, response] of Object.entries(operation(document, route.method, route.path)?.responses ?? {})) {
        if (!response.$ref) continue;
        expect({ route: route.id, status, ref: response.$ref }).toEqual({
          route: route.id,
          status,
          ref: expect.stringMatching(new RegExp(`^#/components/responses/${prefix}`)),
        });
      }
    }
  });

  it('documents the statuses the gateway and httpRoute answer on every route (the probe found 413, 400 and 415 missing)', () => {
    const statuses = (method: string, routePath: string) => Object.keys(operation(document, method, routePath)?.responses ?? {});
    expect(statuses('POST', '/health-score/timeseries')).toEqual(expect.arrayContaining(['400', '401', '413', '415', '422', '500', '502', '504']));
    expect(statuses('GET', '/extraction/lab/status/{jobId}')).toEqual(expect.arrayContaining(['400', '401', '404', '413']));
    expect(statuses('GET', '/extraction/lab/results/{jobId}')).toEqual(expect.arrayContaining(['400', '425']));
    expect(statuses('GET', '/reference-data/')).toEqual(expect.arrayContaining(['401', '429']));
    expect(statuses('GET', '/openapi.json')).not.toContain('401');
    expect(statuses('GET', '/ping')).not.toContain('415');
  });

  it('has no dangling $ref', () => {
    const unresolved = collect(document, '$ref').filter(({ value }) => {
      const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(String(value)) ?? [];
      const components = document.components as Record<string, Record<string, unknown> | undefined> | undefined;
      return !section || !name || components?.[section]?.[name] === undefined;
    });
    expect(unresolved).toEqual([]);
  });

  it('carries no regex flags in patterns (zod-to-openapi copies them into the pattern text)', () => {
    const leaked = collect(document, 'pattern').filter(({ value }) => /\/[dgimsuyv]+$/.test(String(value)));
    expect(leaked).toEqual([]);
  });

  it('describes both error dialects', () => {
    const schemas = document.components?.schemas as Record<string, { required?: string[] }>;
    expect(schemas.DetailError?.required).toEqual(['detail']);
    expect(schemas.ExtractionError?.required).toEqual(['error', 'message', 'timestamp', 'requestId']);
  });

  it('names a placeholder server and a licence in the committed document', () => {
    expect(document.servers).toEqual([PLACEHOLDER_SERVER]);
    expect(document.servers?.[0]?.url).not.toMatch(/localhost|example\.com/);
    expect(document.info.license).toMatchObject({ name: expect.any(String), identifier: expect.stringMatching(/^LicenseRef-/) });
  });

  it('gives every operation and webhook a unique lowerCamelCase operationId', () => {
    const ids = [...operations(document.paths), ...operations(document.webhooks)].map(({ at, operation }) => ({ at, id: operation.operationId }));
    expect(ids.filter(({ id }) => !id || !/^[a-z][A-Za-z0-9]*$/.test(id))).toEqual([]);
    expect(new Set(ids.map(({ id }) => id)).size).toBe(ids.length);
    expect(operation(document, 'GET', '/extraction/lab/results/{jobId}')).toMatchObject({ operationId: 'getLabResults' });
  });

  it('declares the headers every response carries, the ETag of static responses and Retry-After of 429s', () => {
    const headersOf = (response: ResponseObject): string[] => {
      const resolved = response.$ref ? (document.components?.responses?.[response.$ref.split('/').pop()!] as ResponseObject) : response;
      return Object.keys(resolved.headers ?? {});
    };
    for (const { at, operation: op } of operations(document.paths)) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        expect({ at, status, headers: headersOf(response) }).toEqual({
          at,
          status,
          headers: expect.arrayContaining([
            'x-request-id',
            'Cache-Control',
            'X-Content-Type-Options',
            ...(Number(status) >= 400 ? ['Access-Control-Allow-Origin'] : []),
            ...(status === '429' ? ['Retry-After'] : []),
          ]),
        });
        if (op.responses?.['304']) expect({ at, status, headers: headersOf(response) }).toEqual({ at, status, headers: expect.arrayContaining(status.startsWith('2') || status === '304' ? ['ETag'] : []) });
      }
    }
  });

  it('keeps only the error responses some operation uses', () => {
    const used = new Set(collect({ paths: document.paths, webhooks: document.webhooks }, '$ref').map(({ value }) => String(value)));
    const unused = Object.keys(document.components?.responses ?? {}).filter((name) => !used.has(`#/components/responses/${name}`));
    expect(unused).toEqual([]);
  });

  it('types the FHIR response as a Bundle of DiagnosticReports and Observations', () => {
    const content = operation(document, 'GET', '/extraction/lab/results/{jobId}')?.responses?.['200']?.content;
    expect(content?.['application/fhir+json']?.schema).toEqual({ $ref: '#/components/schemas/FhirBundle' });
    const schemas = (document.components?.schemas ?? {}) as Record<string, { properties?: Record<string, unknown> }>;
    const entry = schemas.FhirBundleEntry;
    expect(JSON.stringify(entry?.properties?.resource)).toContain('#/components/schemas/FhirObservation');
    expect(JSON.stringify(entry?.properties?.resource)).toContain('#/components/schemas/FhirDiagnosticReport');
  });
});
