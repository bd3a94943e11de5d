import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument } from '../../../functions/http/openapi';
import { renderApiReference } from '../../../scripts/api-reference';

const document = buildOpenApiDocument();
const reference = renderApiReference(document);
const committed = readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'api-reference.md'), 'utf8');

type Schema = { properties?: Record<string, { description?: string }>; description?: string };

describe('docs/api-reference.md', () => {
  it('is what `npm run openapi` writes from the current schemas', () => {
    if (committed !== reference) throw new Error('docs/api-reference.md is out of date: run `npm run openapi` and commit the result');
  });

  it('has a section per operation and webhook, each with every status it documents', () => {
    const sections = reference.split(/\n(?=#### )/);
    for (const [kind, items] of [['path', document.paths], ['webhook', document.webhooks]] as const) {
      for (const [route, item] of Object.entries(items ?? {})) {
        for (const [method, operation] of Object.entries(item as Record<string, { responses?: Record<string, unknown> }>)) {
          const section = sections.find((s) => s.startsWith(`#### \`${method.toUpperCase()} ${route}\``));
          expect({ kind, route, method, found: section !== undefined }).toEqual({ kind, route, method, found: true });
          for (const status of Object.keys(operation.responses ?? {})) expect(section).toMatch(new RegExp(`\\n\\| ${status} \\|`));
        }
      }
    }
  });

  it('lists every field of every schema with its description', () => {
    const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
    expect(Object.keys(schemas).length).toBeGreaterThan(20);
    for (const [name, schema] of Object.entries(schemas)) {
      const section = reference.split(`\n### ${name}\n`)[1]?.split('\n### ')[0] ?? '';
      expect({ name, present: section.length > 0 }).toEqual({ name, present: true });
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        const row = section.split('\n').find((line) => line.startsWith(`| \`${field}\` |`));
        expect({ name, field, row: row !== undefined }).toEqual({ name, field, row: true });
        if (property.description) expect(row).toContain(property.description.replace(/\|/g, '\\|'));
      }
    }
  });
});
