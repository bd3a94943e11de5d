import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { ROUTES } from '../../../functions/routes';

/**
 * A client generated from docs/openapi.json works for every route: openapi-typescript (pinned)
 * generates the types, and a file that calls every operation through openapi-fetch (pinned), reads
 * the FHIR bundle's entries and checks that wrong uses do not compile is type-checked with tsc.
 */

const run = promisify(execFile);
const root = path.join(__dirname, '..', '..', '..');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Operation {
  operationId: string;
  requestBody?: unknown;
}

/** One typed call per operation: parameters and body are declared with the generated types. */
function callsOf(document: { paths: Record<string, Record<string, Operation | undefined>> }): string[] {
  return Object.entries(document.paths).flatMap(([route, item]) =>
    METHODS.flatMap((method) => {
      const op = item[method];
      if (!op) return [];
      const id = op.operationId;
      const body = op.requestBody ? `, body: {} as NonNullable<operations['${id}']['requestBody']>['content']['application/json']` : '';
      return [
        `export async function ${id}(params: operations['${id}']['parameters']) {`,
        `  const { data, error, response } = await client.${method.toUpperCase()}('${route}', { params${body} });`,
        '  return { data, error, status: response.status };',
        '}',
      ];
    }),
  );
}

const FHIR_READS = `
type FhirBundle = operations['getLabResults']['responses'][200]['content']['application/fhir+json'];

/** What an integrator writes: the entries, the Observations, their codes and values. */
export function observationsOf(bundle: FhirBundle) {
  return bundle.entry.flatMap((entry) =>
    entry.resource.resourceType === 'Observation'
      ? [{ code: entry.resource.code.coding?.[0]?.code, value: entry.resource.valueQuantity?.value, unit: entry.resource.valueQuantity?.code }]
      : [],
  );
}

export function reportCodes(bundle: FhirBundle): (string | undefined)[] {
  return bundle.entry.map((entry) => (entry.resource.resourceType === 'DiagnosticReport' ? entry.resource.code.coding?.[0]?.code : undefined));
}

export async function fetchBundle(jobId: string) {
  const { data } = await client.GET('/extraction/lab/results/{jobId}', { params: { path: { jobId }, query: { format: 'fhir' } } });
  return data && 'resourceType' in data ? data.entry.length : 0;
}

export function wrongUses(bundle: FhirBundle) {
  // @ts-expect-error entries are typed, not any: fullUrl is a string
  const count: number = bundle.entry[0]!.fullUrl;
  // @ts-expect-error an Observation has no result
  const bad = bundle.entry.map((entry) => entry.resource.resourceType === 'Observation' && entry.resource.result);
  // @ts-expect-error the job id is a required path parameter
  void client.GET('/extraction/lab/results/{jobId}', { params: { query: { format: 'fhir' } } });
  return [count, bad];
}
`;

describe('TypeScript client generated from docs/openapi.json', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'hale-client-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('compiles a call to every route and typed reads of the FHIR bundle', async () => {
    const documentPath = path.join(dir, 'openapi.json');
    const text = await readFile(path.join(root, 'docs', 'openapi.json'), 'utf8');
    await writeFile(documentPath, text);
    // Generated outside the repository, as a client would, without Hale's redocly.yaml.
    await run(process.execPath, [path.join(root, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), documentPath, '-o', path.join(dir, 'schema.d.ts')], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' },
    });
    const calls = callsOf(JSON.parse(text));
    const source = [
      "import createClient from 'openapi-fetch';",
      "import type { operations, paths } from './schema';",
      "const client = createClient<paths>({ baseUrl: 'http://localhost:3000' });",
      ...calls,
      FHIR_READS,
    ].join('\n');
    const file = path.join(dir, 'client.ts');
    await writeFile(file, source);

    const program = ts.createProgram([file], {
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Preserve,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
      baseUrl: dir,
      paths: { 'openapi-fetch': [path.join(root, 'node_modules', 'openapi-fetch')] },
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file ? path.basename(d.file.fileName) : ''}:${d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
    expect(calls.filter((line) => line.startsWith('export async function'))).toHaveLength(ROUTES.length);
  });
});
