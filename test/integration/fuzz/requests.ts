import fc from 'fast-check';
import { SCORING_PREDICTORS } from '../../../functions/scoring/catalogue';
import { examples, phiCanary } from './examples';
import { hostileNumber, hostileString, mutated, wrongValue } from './hostile';
import { schemaArbitrary } from './schema-arbitrary';

/**
 * HTTP requests for every operation of the OpenAPI document, built from its schemas (./schema-arbitrary.ts):
 * valid-ish bodies, parameters and queries, the same mutated (./hostile.ts), bodies that are not JSON
 * or not sent as JSON, hostile path parameters and queries, wrong methods, missing or foreign keys,
 * and paths next to the real ones.
 */

type Json = Record<string, unknown>;

export interface FuzzRequest {
  /** What the request is about, for a failure message: the operation and the variant. */
  label: string;
  method: string;
  /** Path and query, percent-encoded as sent on the wire. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export type KeyChoice = 'own' | 'other' | 'none' | 'wrong';

interface Operation {
  method: string;
  template: string;
  operationId: string;
  parameters: { in: string; name: string; required?: boolean; schema: Json }[];
  body?: Json;
  anonymous: boolean;
}

const codes = [...new Set(SCORING_PREDICTORS.flatMap((predictor) => predictor.observationCodes))];
const units = [...new Set(SCORING_PREDICTORS.map((predictor) => predictor.ucumUnit))];

/**
 * Field meanings the schemas cannot carry: scoring codes, their units and numeric values, so some
 * bodies score; PHI canaries in the fields that may carry PHI, which no log line may contain.
 */
const HINTS: Record<string, fc.Arbitrary<unknown>> = {
  uid_ext: fc.oneof({ weight: 3, arbitrary: phiCanary }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) }),
  auth_token: phiCanary,
  filename: phiCanary.map((canary) => `${canary}.pdf`),
  observation_code: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...codes) }, { weight: 1, arbitrary: hostileString }, { weight: 1, arbitrary: fc.constantFrom('2345-7 ', '02345-7', 'LOINC:2345-7') }),
  unit: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...units, 'mg/dL', 'mmol/L', 'umol/L', 'g/L', '%', 'x10E3/uL', '10*3/uL', 'mm[Hg]', 'kg', 'lb', 'cm', '[in_i]', 'kg/m2', 'U/L', 'fL') },
    { weight: 1, arbitrary: hostileString },
  ),
  value: fc.oneof(
    { weight: 4, arbitrary: fc.double({ min: 0, max: 1000, noNaN: true }).map((n) => String(Math.round(n * 100) / 100)) },
    { weight: 1, arbitrary: fc.constantFrom('yes', 'no', 'male', 'female', 'true', '1', '0', '>1000', '<0.1', 'TNP', '1e308', '-0', '0.0000001', '1e-320', 'NaN') },
    { weight: 1, arbitrary: hostileNumber.map(String) },
    { weight: 1, arbitrary: hostileString.filter((text) => text.length <= 64) },
  ),
};

export function operationsOf(document: Json): Operation[] {
  const paths = document.paths as Record<string, Record<string, Json>>;
  return Object.entries(paths).flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const content = (operation.requestBody as { content?: Record<string, { schema: Json }> } | undefined)?.content;
      return {
        method: method.toUpperCase(),
        template,
        operationId: String(operation.operationId),
        parameters: (operation.parameters ?? []) as Operation['parameters'],
        body: content?.['application/json']?.schema,
        anonymous: Array.isArray(operation.security) && operation.security.length === 0,
      };
    }),
  );
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/fhir+json', 'application/json;charset=UTF-16'];
const OTHER_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=fuzz', 'application/pdf', 'application/xml', '', '*/*', 'application/jsonx'];

/** Bodies that are not JSON, or JSON no schema expects. */
const junkBody: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '{"a":',
    'nul',
    '\ufeff{}',
    '[]',
    'null',
    '"a string"',
    '1e999',
    '{"__proto__":{"polluted":true}}',
    '{"a":1,"a":2}',
    `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
    `{"a":${'{"a":'.repeat(3_000)}1${'}'.repeat(3_000)}}`,
    JSON.stringify({ big: 'x'.repeat(900_000) }),
  ),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null'),
  fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

/** A path parameter or query value: valid per schema, hostile, or absent-ish. */
function parameterValue(schema: Json, components: Record<string, Json>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: schemaArbitrary(schema, { components }).map(String) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: hostileString.map((text) => text.slice(0, 300)) },
    { weight: 1, arbitrary: fc.constantFrom('..', '.', '%', '%ZZ', '%2F', '%00', '~', 'a/b', ' ', 'x'.repeat(5_000)) },
  );
}

/**
 * Percent-encodes the UTF-8 bytes of a value (a lone surrogate as U+FFFD, as a client's encoder does);
 * a value that is already an escape (`%2F`, `%ZZ`) or a dot segment is sent raw.
 */
function wire(value: string): string {
  if (/^%[0-9A-Z]{2}$/i.test(value) || value === '%' || value === '..' || value === '.') return value;
  return [...Buffer.from(value, 'utf8')].map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

function pathOf(operation: Operation, values: Record<string, string>): string {
  return operation.template.replace(/\{([^}]+)\}/g, (_, name: string) => wire(values[name] ?? ''));
}

function queryOf(entries: [string, string][]): string {
  return entries.length === 0 ? '' : `?${entries.map(([name, value]) => `${wire(name)}=${wire(value)}`).join('&')}`;
}

function keyHeader(choice: KeyChoice, keys: { own: string; other: string }): Record<string, string> {
  switch (choice) {
    case 'own':
      return { 'x-api-key': keys.own };
    case 'other':
      return { 'x-api-key': keys.other };
    case 'wrong':
      return { 'x-api-key': `${keys.own.slice(0, -1)}!` };
    case 'none':
      return {};
  }
}

/** Requests for one operation, in every variant; accepted example reports are delivered to `callbackUrl`. */
export function requestsFor(operation: Operation, document: Json, keys: { own: string; other: string }, callbackUrl: string): fc.Arbitrary<FuzzRequest> {
  const components = ((document.components as Json).schemas ?? {}) as Record<string, Json>;
  const pathParams = operation.parameters.filter((p) => p.in === 'path');
  const queryParams = operation.parameters.filter((p) => p.in === 'query');
  const headerParams = operation.parameters.filter((p) => p.in === 'header');

  const pathValues = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, parameterValue(p.schema, components)])));
  const query = fc.oneof(
    { weight: 3, arbitrary: fc.subarray(queryParams).chain((chosen) => fc.tuple(...chosen.map((p) => parameterValue(p.schema, components).map((value): [string, string] => [p.name, value])))) },
    { weight: 1, arbitrary: fc.array(fc.tuple(hostileString.map((t) => t.slice(0, 40)), hostileString.map((t) => t.slice(0, 200))), { maxLength: 3 }) },
    // Repeated parameters: API Gateway hands the last to queryStringParameters, all to multiValue….
    { weight: 1, arbitrary: fc.constant(queryParams.flatMap((p): [string, string][] => [[p.name, 'a'], [p.name, 'b']])) },
  );
  const key = fc.constantFrom<KeyChoice>('own', 'own', 'own', 'own', 'own', 'own', 'other', 'none', 'wrong');
  const idempotency = headerParams.some((p) => p.name.toLowerCase() === 'idempotency-key')
    ? fc.option(fc.oneof(fc.uuid(), fc.constantFrom('k', 'x'.repeat(300), 'spaces are not visible', 'fuzz-shared-key')), { nil: undefined })
    : fc.constant(undefined);
  const ifNoneMatch = fc.option(fc.constantFrom('*', '"abc"', 'W/"abc"', '""', 'garbage', '"x", "y"'), { nil: undefined, freq: 8 });

  const options = { components, hints: HINTS, maxItems: 4 };
  const validBody = operation.body ? schemaArbitrary(operation.body, options) : fc.constant(undefined);
  const example = examples(callbackUrl)[operation.operationId];
  // An accepted report renders a PDF, seconds of CPU on a busy machine: a few are enough.
  const exampleWeight = operation.operationId.endsWith('Report') ? 1 : 3;
  const exampleBodies = example
    ? [
        { weight: exampleWeight, arbitrary: example.map((value) => ({ variant: 'example', text: JSON.stringify(value), contentType: 'application/json' })) },
        { weight: 2, arbitrary: mutated(example).map((value) => ({ variant: 'example-mutated', text: JSON.stringify(value) ?? 'null', contentType: 'application/json' })) },
      ]
    : [];
  const body: fc.Arbitrary<{ variant: string; text?: string | Buffer; contentType?: string }> = operation.body
    ? fc.oneof(
        ...exampleBodies,
        { weight: 4, arbitrary: fc.tuple(validBody, fc.constantFrom(...JSON_TYPES)).map(([value, type]) => ({ variant: 'valid-ish', text: JSON.stringify(value), contentType: type })) },
        { weight: 5, arbitrary: fc.tuple(mutated(validBody), fc.constantFrom(...JSON_TYPES)).map(([value, type]) => ({ variant: 'mutated', text: JSON.stringify(value) ?? 'null', contentType: type })) },
        { weight: 1, arbitrary: fc.tuple(wrongValue, fc.constantFrom(...JSON_TYPES)).map(([value, type]) => ({ variant: 'wrong-type', text: JSON.stringify(value) ?? 'null', contentType: type })) },
        { weight: 1, arbitrary: fc.tuple(junkBody, fc.constantFrom(...JSON_TYPES)).map(([text, type]) => ({ variant: 'junk', text, contentType: type })) },
        { weight: 1, arbitrary: fc.tuple(validBody, fc.constantFrom(...OTHER_TYPES, undefined)).map(([value, type]) => ({ variant: 'content-type', text: JSON.stringify(value), contentType: type })) },
      )
    : fc.oneof(
        { weight: 6, arbitrary: fc.constant({ variant: 'no-body' }) },
        { weight: 1, arbitrary: fc.tuple(junkBody, fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES)).map(([text, type]) => ({ variant: 'unexpected-body', text, contentType: type })) },
      );

  return fc.tuple(pathValues, query, key, idempotency, ifNoneMatch, body).map(([values, entries, choice, idem, etag, sent]) => {
    const headers: Record<string, string> = { ...(operation.anonymous && choice === 'own' ? {} : keyHeader(choice, keys)) };
    if (sent.contentType !== undefined && sent.text !== undefined) headers['content-type'] = sent.contentType;
    if (idem !== undefined) headers['idempotency-key'] = idem;
    if (etag !== undefined) headers['if-none-match'] = etag;
    return {
      label: `${operation.method} ${operation.template} (${sent.variant}, key ${choice})`,
      method: operation.method,
      path: `${pathOf(operation, values)}${queryOf(entries)}`,
      headers,
      body: sent.text,
    };
  });
}

/** Requests next to the routes: other methods, paths that almost match, encoded tricks. */
export function strayRequests(operations: Operation[], keys: { own: string; other: string }): fc.Arbitrary<FuzzRequest> {
  const templates = [...new Set(operations.map((o) => o.template.replace(/\{[^}]+\}/g, 'x')))];
  const path = fc.oneof(
    fc.constantFrom(...templates),
    fc.constantFrom(...templates).map((p) => p.toUpperCase()),
    fc.constantFrom(...templates).map((p) => `${p}/extra`),
    fc.constantFrom(...templates).map((p) => p.replace(/\/$/, '').replace(/^\//, '//')),
    fc.constantFrom('/', '//', '/extraction', '/extraction/', '/%2e%2e/ping', '/ping%00', '/ping;a=b', '/ping/..', '/demo/data/', '/widget/v1/../../package.json', '/widget/v1/%2e%2e%2fpackage.json', '/widget/v1/nope.js'),
    fc.array(hostileString.map((t) => wire(t.slice(0, 100))), { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`),
  );
  return fc
    .tuple(path, fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'), fc.constantFrom<KeyChoice>('own', 'none'), fc.option(junkBody, { nil: undefined }))
    .map(([p, method, choice, body]) => ({
      label: `stray ${method} (${p.slice(0, 60)})`,
      method,
      path: p,
      headers: { ...keyHeader(choice, keys), ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { 'content-type': 'application/json' } : {}) },
      body: method === 'GET' || method === 'HEAD' ? undefined : body,
    }));
}
