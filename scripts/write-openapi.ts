import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument, undocumentedRoutes } from '../functions/http/openapi';
import { renderApiReference } from './api-reference';

/**
 * `npm run openapi`: writes docs/openapi.json from the zod schemas and docs/api-reference.md from that
 * document (tests check both are current).
 */
const docs = path.join(__dirname, '..', 'docs');
const document = buildOpenApiDocument();
const written = [
  { file: path.join(docs, 'openapi.json'), text: `${JSON.stringify(document, null, 2)}\n` },
  { file: path.join(docs, 'api-reference.md'), text: renderApiReference(document) },
];
for (const { file, text } of written) writeFileSync(file, text);
const missing = undocumentedRoutes(document);
console.log(`Wrote ${written.map(({ file }) => path.relative(process.cwd(), file)).join(' and ')} (${Object.keys(document.paths ?? {}).length} paths)`);
if (missing.length > 0) console.log(`Not documented yet: ${missing.map((r) => `${r.method} ${r.path}`).join(', ')}`);
