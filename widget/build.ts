import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';

/**
 * Builds the widget into dist/widget/v1/, the folder the local runtime serves at /widget/v1/:
 * - hale-widget.js   classic script (IIFE) defining window.HaleWidget
 * - hale-widget.mjs  ES module with the same named exports
 * - hale-widget.d.ts types of both (plus types/, the declarations it re-exports)
 * - chart.umd.js     Chart.js, loaded by the widget from beside itself when the page has none
 * - integrity.json   SRI hashes for `<script integrity>`
 *
 * `npm start` runs it first (the `prestart` script); the browser tests and the widget bench call
 * `ensureWidgetBuilt()`, which rebuilds only when a source is newer than the build.
 */

const WIDGET_DIR = __dirname;
const REPO_ROOT = path.resolve(WIDGET_DIR, '..');
export const WIDGET_OUT_DIR = path.join(REPO_ROOT, 'dist', 'widget', 'v1');
const CHART_UMD = path.join(REPO_ROOT, 'node_modules', 'chart.js', 'dist', 'chart.umd.js');
const OUTPUTS = ['hale-widget.js', 'hale-widget.mjs', 'hale-widget.d.ts', 'chart.umd.js', 'integrity.json'];

/** Browsers the widget supports: shadow DOM, ResizeObserver and constructable stylesheets (or a fallback). */
const BROWSER_TARGETS = ['chrome100', 'firefox100', 'safari15', 'edge100'];

async function bundle(outDir: string): Promise<void> {
  const common = { bundle: true, minify: true, legalComments: 'none' as const, target: BROWSER_TARGETS, logLevel: 'warning' as const };
  await Promise.all([
    // A default export would end up as HaleWidget.default (evanw/esbuild#3740): the entries export names only.
    build({ ...common, entryPoints: [path.join(WIDGET_DIR, 'hale-widget.ts')], format: 'iife', globalName: 'HaleWidget', outfile: path.join(outDir, 'hale-widget.js') }),
    build({ ...common, entryPoints: [path.join(WIDGET_DIR, 'hale-widget.esm.ts')], format: 'esm', outfile: path.join(outDir, 'hale-widget.mjs') }),
  ]);
}

function declarations(outDir: string): void {
  const program = ts.createProgram([path.join(WIDGET_DIR, 'hale-widget.esm.ts')], {
    declaration: true,
    emitDeclarationOnly: true,
    outDir: path.join(outDir, 'types'),
    rootDir: WIDGET_DIR,
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  const result = program.emit();
  const errors = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics].filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new Error(ts.formatDiagnostics(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => REPO_ROOT, getNewLine: () => '\n' }));
}

const TYPES_INDEX = `export * from './types/api';
import type * as HaleWidgetApi from './types/api';

declare global {
  /** Defined by /widget/v1/hale-widget.js. */
  const HaleWidget: typeof HaleWidgetApi;
  interface Window {
    HaleWidget: typeof HaleWidgetApi;
  }
}
`;

async function sri(file: string): Promise<string> {
  return `sha384-${createHash('sha384').update(await readFile(file)).digest('base64')}`;
}

/**
 * Builds into a private folder, then renames each file into place: test files running in parallel
 * may build at the same moment, and a reader never sees a half-written file.
 */
export async function buildWidget(): Promise<void> {
  await mkdir(path.dirname(WIDGET_OUT_DIR), { recursive: true });
  const staging = await mkdtemp(path.join(path.dirname(WIDGET_OUT_DIR), '.build-'));
  try {
    await bundle(staging);
    declarations(staging);
    await writeFile(path.join(staging, 'hale-widget.d.ts'), TYPES_INDEX);
    await copyFile(CHART_UMD, path.join(staging, 'chart.umd.js'));
    const hashes = Object.fromEntries(await Promise.all(['hale-widget.js', 'hale-widget.mjs', 'chart.umd.js'].map(async (f) => [f, await sri(path.join(staging, f))] as const)));
    await writeFile(path.join(staging, 'integrity.json'), `${JSON.stringify(hashes, null, 2)}\n`);
    for (const file of await readdir(staging, { recursive: true, withFileTypes: true })) {
      if (!file.isFile()) continue;
      const from = path.join(file.parentPath, file.name);
      const to = path.join(WIDGET_OUT_DIR, path.relative(staging, from));
      await mkdir(path.dirname(to), { recursive: true });
      await rename(from, to);
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, await newestSource(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, (await stat(full)).mtimeMs);
  }
  return newest;
}

async function oldestOutput(): Promise<number> {
  try {
    const times = await Promise.all(OUTPUTS.map(async (f) => (await stat(path.join(WIDGET_OUT_DIR, f))).mtimeMs));
    return Math.min(...times);
  } catch {
    return 0;
  }
}

/** Builds unless every output is newer than every widget source and Chart.js itself; true when it built. */
export async function ensureWidgetBuilt(): Promise<boolean> {
  const sources = Math.max(await newestSource(WIDGET_DIR), (await stat(CHART_UMD)).mtimeMs);
  if ((await oldestOutput()) > sources) return false;
  await buildWidget();
  return true;
}

if (require.main === module) {
  const force = process.argv.includes('--force');
  (force ? buildWidget().then(() => true) : ensureWidgetBuilt()).then(
    (built) => process.stdout.write(built ? `Widget built into ${path.relative(process.cwd(), WIDGET_OUT_DIR)}\n` : 'Widget build is up to date\n'),
    (error: unknown) => {
      process.stderr.write(`Widget build failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
