import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument, undocumentedRoutes } from '../functions/http/openapi';

/** `npm run openapi`: writes docs/openapi.json from the zod schemas (a test checks it is current). */
const target = path.join(__dirname, '..', 'docs', 'openapi.json');
const document = buildOpenApiDocument();
writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
const missing = undocumentedRoutes(document);
console.log(`Wrote ${path.relative(process.cwd(), target)} (${Object.keys(document.paths ?? {}).length} paths)`);
if (missing.length > 0) console.log(`Not documented yet: ${missing.map((r) => `${r.method} ${r.path}`).join(', ')}`);
