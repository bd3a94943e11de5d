import fc from 'fast-check';

/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document, which `npm run openapi`
 * generates from the zod request schemas: so a request the fuzz suite builds has the shape the zod
 * schema describes (required keys, enums, bounds, formats, patterns), and a schema change changes
 * the requests without touching the suite. Values are "valid-ish": within the declared bounds, but
 * biased towards those bounds and towards the extremes (empty, longest, smallest, largest), with
 * `hints` for fields whose meaning the schema cannot say (known observation codes, units, numeric
 * strings), so that enough bodies get past validation to reach the domain code.
 */

type Json = Record<string, unknown>;

export interface SchemaArbitraryOptions {
  /** components.schemas of the document, for `$ref`s. */
  components: Record<string, Json>;
  /** Arbitraries by property name, used instead of the schema's (e.g. observation_code). */
  hints?: Record<string, fc.Arbitrary<unknown>>;
  /** Arrays get at most this many items whatever maxItems says (requests stay small and fast). */
  maxItems?: number;
}

const DAY_MS = 24 * 3600 * 1000;
const EARLIEST = Date.parse('1890-01-01T00:00:00Z');
const LATEST = Date.parse('2100-12-31T00:00:00Z');
/** Most dates fall where people and lab results are, so that some requests pass validation. */
const USUAL_EARLIEST = Date.parse('1935-01-01T00:00:00Z');

const dateMs = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: Math.floor(USUAL_EARLIEST / DAY_MS), max: Math.floor(Date.now() / DAY_MS) }).map((day) => day * DAY_MS) },
  { weight: 1, arbitrary: fc.integer({ min: Math.floor(EARLIEST / DAY_MS), max: Math.floor(LATEST / DAY_MS) }).map((day) => day * DAY_MS) },
);

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid(),
  date: dateMs.map((ms) => new Date(ms).toISOString().slice(0, 10)),
  'date-time': fc.oneof(
    fc.constant(new Date().toISOString()),
    dateMs.chain((ms) => fc.integer({ min: 0, max: DAY_MS - 1 }).map((offset) => new Date(ms + offset).toISOString())),
    fc.constantFrom('2026-01-01T00:00:00+14:00', '2025-06-30T23:59:60Z', '2025-02-29T00:00:00Z', '0000-01-01T00:00:00Z'),
  ),
  // Never a host that resolves, nor one that would hang a connection: nothing leaves the machine (the
  // suite's runtime allows loopback targets for its receiver; the guard has its own table test).
  uri: fc.constantFrom(
    'https://hooks.example.invalid/hale',
    'https://hooks.example.invalid/hale?token=abc',
    'http://hooks.example.invalid/plain-http',
    'https://127.0.0.1:1/x',
    'https://[::ffff:127.0.0.1]:1/x',
    'https://0x7f000001:1/x',
    'https://localhost:1/x',
    'ftp://example.invalid/file',
    'https://user:pass@example.invalid/x',
    'https://example.invalid:99999/x',
  ),
};

function resolve(schema: Json, components: Record<string, Json>): Json {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  const target = components[name];
  if (!target) throw new Error(`No component ${name}`);
  return resolve(target, components);
}

function stringArbitrary(schema: Json): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 64;
  if (typeof schema.format === 'string' && FORMATS[schema.format]) return FORMATS[schema.format]!;
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length >= minLength && text.length <= maxLength);
  }
  const cap = Math.min(maxLength, 40);
  return fc.oneof(
    { weight: 6, arbitrary: fc.string({ minLength, maxLength: Math.max(minLength, cap) }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: Math.max(minLength, Math.min(cap, 12)) }) },
    // The longest the schema allows, in ASCII and in four-byte characters.
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(maxLength), '𝔛'.repeat(Math.max(minLength, Math.floor(maxLength / 2)))) },
  );
}

function numberArbitrary(schema: Json, integer: boolean): fc.Arbitrary<number> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : -1e9;
  const max = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : 1e9;
  const inside = integer ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return fc.oneof({ weight: 4, arbitrary: inside }, { weight: 1, arbitrary: fc.constantFrom(min, max) });
}

/** An arbitrary of values of `schema`; `name` is the property it is the value of (for hints). */
export function schemaArbitrary(input: Json, options: SchemaArbitraryOptions, name?: string): fc.Arbitrary<unknown> {
  const hint = name === undefined ? undefined : options.hints?.[name];
  if (hint) return hint;
  const schema = resolve(input, options.components);
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants) return fc.oneof(...variants.map((variant) => schemaArbitrary(variant, options, name)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type : [schema.type];
  const arbitraries = type.map((one): fc.Arbitrary<unknown> => {
    switch (one) {
      case 'string':
        return stringArbitrary(schema);
      case 'number':
        return numberArbitrary(schema, false);
      case 'integer':
        return numberArbitrary(schema, true);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const items = schemaArbitrary((schema.items ?? {}) as Json, options, name);
        const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
        const maxLength = Math.max(minLength, Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 10, options.maxItems ?? 4));
        return fc.array(items, { minLength, maxLength });
      }
      case 'object': {
        const properties = (schema.properties ?? {}) as Record<string, Json>;
        const required = new Set((schema.required ?? []) as string[]);
        const record: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [key, property] of Object.entries(properties)) record[key] = schemaArbitrary(property, options, key);
        return fc.record(record, { requiredKeys: Object.keys(properties).filter((key) => required.has(key)) });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  });
  return arbitraries.length === 1 ? arbitraries[0]! : fc.oneof(...arbitraries);
}
