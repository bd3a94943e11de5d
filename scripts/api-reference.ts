import GithubSlugger from 'github-slugger';
import type { OpenApiDocument } from '../functions/http/openapi';

/**
 * docs/api-reference.md: the OpenAPI document (itself generated from the zod schemas) as Markdown a
 * person reads on GitHub — every operation with its parameters, body and answers, every webhook Hale
 * sends, and every schema with one row per field (nested fields as dotted paths). Written by
 * `npm run openapi` beside docs/openapi.json; a test checks both are current.
 */

interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  prefixItems?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}

interface MediaTypes {
  [type: string]: { schema?: Schema };
}

interface Response {
  $ref?: string;
  description?: string;
  content?: MediaTypes;
  headers?: Record<string, { description?: string }>;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: MediaTypes };
  responses?: Record<string, Response>;
}

type PathItems = Record<string, Record<string, Operation>>;

interface Row {
  field: string;
  type: string;
  required: boolean;
  description: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
/** Marks a schema link's anchor until the schema's heading has been slugged. */
const SCHEMA_ANCHOR = '\u0000';

/** One table cell: no line breaks, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

function code(text: string): string {
  return `\`${text}\``;
}

class Reference {
  private readonly anchors = new Map<string, string>();
  private readonly slugger = new GithubSlugger();
  private readonly lines: string[] = [];

  constructor(private readonly document: OpenApiDocument) {}

  private get schemas(): Record<string, Schema> {
    return (this.document.components?.schemas ?? {}) as Record<string, Schema>;
  }

  private get responseComponents(): Record<string, Response> {
    return (this.document.components?.responses ?? {}) as Record<string, Response>;
  }

  private operations(items: unknown): { path: string; method: string; operation: Operation }[] {
    return Object.entries((items ?? {}) as PathItems).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method]! })),
    );
  }

  /** A heading; its GitHub anchor is remembered under `key` for links. */
  private heading(level: number, text: string, key?: string): void {
    const plain = text.replace(/`/g, '');
    const anchor = this.slugger.slug(plain);
    if (key) this.anchors.set(key, anchor);
    this.lines.push(`${'#'.repeat(level)} ${text}`, '');
  }

  private paragraph(...text: (string | undefined)[]): void {
    const kept = text.filter((t): t is string => t !== undefined && t.length > 0);
    if (kept.length > 0) this.lines.push(kept.join(' '), '');
  }

  private table(header: string[], rows: string[][]): void {
    if (rows.length === 0) return;
    this.lines.push(`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`);
    for (const row of rows) this.lines.push(`| ${row.join(' | ')} |`);
    this.lines.push('');
  }

  private refName(ref: string): string {
    return ref.replace(/^#\/components\/schemas\//, '');
  }

  private componentOf(schema: Schema): Schema | undefined {
    return schema.$ref ? this.schemas[this.refName(schema.$ref)] : undefined;
  }

  /** Schema headings come last: links to them hold a placeholder until render() knows their anchors. */
  private schemaLink(name: string): string {
    return `[${name}](#${SCHEMA_ANCHOR}${name}${SCHEMA_ANCHOR})`;
  }

  /** A short type: `string (date-time) or null`, `array of [Name](#name)`, `one of: "a", "b"`. */
  private typeOf(schema: Schema): string {
    if (schema.$ref) return this.schemaLink(this.refName(schema.$ref));
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives) return alternatives.map((alternative) => this.typeOf(alternative)).join(' or ');
    if (schema.allOf) return schema.allOf.map((part) => this.typeOf(part)).join(' and ');
    const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    const nullable = types.includes('null');
    const main = types.filter((type) => type !== 'null');
    let text: string;
    if (schema.const !== undefined) text = code(JSON.stringify(schema.const));
    else if (schema.enum) text = `one of ${schema.enum.filter((value) => value !== null).map((value) => code(String(value))).join(', ')}`;
    else if (main.includes('array')) {
      text = schema.prefixItems
        ? `array [${schema.prefixItems.map((item) => this.typeOf(item)).join(', ')}]`
        : `array of ${schema.items ? this.typeOf(schema.items) : 'anything'}`;
    } else if (main.includes('object') && !schema.properties && typeof schema.additionalProperties === 'object') {
      text = `map of ${schema.propertyNames ? this.typeOf(schema.propertyNames) : 'string'} to ${this.typeOf(schema.additionalProperties)}`;
    } else text = main.length > 0 ? main.join(' or ') : 'any';
    if (schema.format) text += ` (${schema.format})`;
    return nullable ? `${text} or null` : text;
  }

  /** Ranges, lengths, patterns and defaults, as a reader would write them. */
  private constraints(schema: Schema): string {
    const parts: string[] = [];
    const low = schema.minimum ?? schema.exclusiveMinimum;
    const high = schema.maximum ?? schema.exclusiveMaximum;
    if (low !== undefined || high !== undefined) {
      const from = low === undefined ? '' : `${schema.exclusiveMinimum !== undefined ? '>' : '≥'} ${low}`;
      const to = high === undefined ? '' : `${schema.exclusiveMaximum !== undefined ? '<' : '≤'} ${high}`;
      parts.push([from, to].filter(Boolean).join(', '));
    }
    if (schema.minLength !== undefined || schema.maxLength !== undefined) parts.push(`length ${schema.minLength ?? 0}–${schema.maxLength ?? '∞'}`);
    if (schema.minItems !== undefined || schema.maxItems !== undefined) parts.push(`${schema.minItems ?? 0}–${schema.maxItems ?? '∞'} items`);
    if (schema.pattern) parts.push(`pattern ${code(schema.pattern)}`);
    if (schema.default !== undefined) parts.push(`default ${code(JSON.stringify(schema.default))}`);
    return parts.length > 0 ? ` (${parts.join('; ')})` : '';
  }

  /** The object shapes of a schema: itself, the items of an array, the alternatives of a union. */
  private shapes(schema: Schema): Schema[] {
    if (schema.properties) return [schema];
    if (schema.items && !schema.items.$ref) return this.shapes(schema.items).length > 0 ? this.shapes(schema.items) : [];
    const alternatives = schema.anyOf ?? schema.oneOf ?? [];
    return alternatives.filter((alternative) => !alternative.$ref).flatMap((alternative) => this.shapes(alternative));
  }

  /** One row per field, nested inline objects as `a.b` and arrays of them as `a[].b`; the union of a union's shapes. */
  private rows(schema: Schema, prefix = ''): Row[] {
    const rows = new Map<string, Row>();
    const shapes = this.shapes(schema);
    for (const shape of shapes) {
      for (const [name, property] of Object.entries(shape.properties ?? {})) {
        const field = `${prefix}${name}`;
        const row = {
          field,
          type: this.typeOf(property),
          required: (shape.required ?? []).includes(name),
          description: `${property.description ?? this.componentOf(property)?.description ?? ''}${this.constraints(property)}`,
        };
        const seen = rows.get(field);
        if (!seen) rows.set(field, row);
        else {
          if (!seen.type.split(' or ').includes(row.type)) seen.type = `${seen.type} or ${row.type}`;
          seen.required &&= row.required;
        }
        if (!property.$ref) {
          const nested = property.items && !property.items.$ref ? `${field}[].` : `${field}.`;
          for (const inner of this.rows(property, nested)) if (!rows.has(inner.field)) rows.set(inner.field, inner);
        }
      }
    }
    return [...rows.values()];
  }

  private fieldTable(schema: Schema): void {
    this.table(
      ['field', 'type', 'required', 'description'],
      this.rows(schema).map((row) => [code(row.field), cell(row.type), row.required ? 'yes' : 'no', cell(row.description)]),
    );
  }

  private resolveResponse(response: Response): Response {
    return response.$ref ? (this.responseComponents[response.$ref.replace(/^#\/components\/responses\//, '')] ?? response) : response;
  }

  /** `application/json`: a link or a type, and (inline objects) their fields below. */
  private body(content: MediaTypes | undefined): { text: string; inline: Schema[] } {
    const inline: Schema[] = [];
    const text = Object.entries(content ?? {})
      .map(([type, media]) => {
        if (!media.schema) return code(type);
        if (!media.schema.$ref && this.shapes(media.schema).length > 0) inline.push(media.schema);
        return `${code(type)}: ${this.typeOf(media.schema)}`;
      })
      .join('; ');
    return { text, inline };
  }

  private operation(method: string, path: string, operation: Operation, anonymousNote: boolean): void {
    this.heading(4, code(`${method.toUpperCase()} ${path}`), `operation:${method} ${path}`);
    this.paragraph(operation.summary ? `**${operation.summary}.**` : undefined, operation.description);
    if (anonymousNote) this.paragraph(operation.security?.length === 0 ? 'No API key needed.' : 'Needs the API key (`x-api-key`).');
    if (operation.parameters?.length) {
      this.paragraph('Parameters:');
      this.table(
        ['name', 'in', 'required', 'type', 'description'],
        operation.parameters.map((p) => [code(p.name), p.in, p.required ? 'yes' : 'no', cell(p.schema ? this.typeOf(p.schema) : 'string'), cell(`${p.description ?? ''}${p.schema ? this.constraints(p.schema) : ''}`)]),
      );
    }
    if (operation.requestBody) {
      const { text, inline } = this.body(operation.requestBody.content);
      this.paragraph(`Request body: ${text}.`);
      for (const schema of inline) this.fieldTable(schema);
    }
    if (operation.responses) {
      const inlineBodies: Schema[] = [];
      const rows = Object.entries(operation.responses).map(([status, given]) => {
        const response = this.resolveResponse(given);
        const { text, inline } = this.body(response.content);
        inlineBodies.push(...inline);
        const headers = Object.entries(response.headers ?? {}).map(([name, header]) => `header ${code(name)}: ${header.description ?? ''}`);
        return [status, cell([response.description ?? '', ...headers].join('; ')), cell(text || 'no body')];
      });
      this.paragraph('Answers:');
      this.table(['status', 'meaning', 'body'], rows);
      for (const schema of inlineBodies) this.fieldTable(schema);
    }
  }

  render(): string {
    const { document } = this;
    const paths = this.operations(document.paths);
    const webhooks = this.operations((document as { webhooks?: unknown }).webhooks);
    const tags = [...new Set(paths.map(({ operation }) => operation.tags?.[0] ?? 'other'))];
    const schemaNames = Object.keys(this.schemas).sort((a, b) => a.localeCompare(b));

    this.lines.push(
      '<!-- Generated by `npm run openapi` (scripts/api-reference.ts) from the zod schemas, like docs/openapi.json. Do not edit: a test checks that it is current. -->',
      '',
    );
    this.heading(1, `${document.info.title} reference (version ${document.info.version})`);
    this.paragraph(document.info.description);
    const servers = (document.servers ?? []).map((server) => `${code(server.url)} (${server.description ?? ''})`).join(', ');
    this.paragraph(
      `Servers: ${servers}.`,
      'Every operation needs the API key in the `x-api-key` header unless it says otherwise.',
      'The machine-readable form of this page is [openapi.json](openapi.json) (also served at `GET /openapi.json`).',
    );
    this.heading(2, 'Operations');
    for (const tag of tags) {
      this.heading(3, tag);
      for (const { path, method, operation } of paths.filter((p) => (p.operation.tags?.[0] ?? 'other') === tag)) this.operation(method, path, operation, true);
    }
    this.heading(2, 'Webhooks');
    this.paragraph('Requests Hale sends to the caller\'s endpoints.');
    for (const { path, method, operation } of webhooks) this.operation(method, path, operation, false);
    this.heading(2, 'Schemas');
    for (const name of schemaNames) {
      const schema = this.schemas[name]!;
      this.heading(3, name, `schema:${name}`);
      this.paragraph(schema.description);
      if (this.shapes(schema).length > 0) this.fieldTable(schema);
      else this.paragraph(`Type: ${this.typeOf(schema)}.`);
    }
    // GitHub numbers repeated headings in document order, so schema anchors are known only now.
    const text = this.lines.join('\n').replace(new RegExp(`${SCHEMA_ANCHOR}(.+?)${SCHEMA_ANCHOR}`, 'g'), (_placeholder, name: string) => {
      const anchor = this.anchors.get(`schema:${name}`);
      if (!anchor) throw new Error(`The document refers to a schema it does not define: ${name}`);
      return anchor;
    });
    return `${text.trimEnd()}\n`;
  }
}

export function renderApiReference(document: OpenApiDocument): string {
  return new Reference(document).render();
}
