import { execSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { ROUTES } from '../functions/routes';
import { WORKERS } from '../functions/workers';
import { esbuildOptionsFor, REPO_ROOT } from '../infra/bundling';
import { OCR_EXTERNAL_MODULES, ocrAssetCommands } from '../infra/ocr-bundle';
import { type Bench, type BenchRow, round } from './types';

/** Issue 2 budget: each Lambda bundle at most 1 MB minified (decimal, so a pass is a pass either way). */
const BUDGET_BYTES = 1_000_000;

/** Largest packages (or source folders) inside a bundle, to say where an over-budget one should slim down. */
function heaviestInputs(metafile: Metafile, output: string, count: number): string {
  const totals = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[output]?.inputs ?? {})) {
    // zod's locales are listed apart: the `z` namespace import pulls all of them, named imports none.
    const locales = input.includes('node_modules/zod/v4/locales/') ? 'zod locales' : undefined;
    const pkg = locales ?? /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? path.dirname(input);
    totals.set(pkg, (totals.get(pkg) ?? 0) + bytesInOutput);
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, bytes]) => `${name} ${Math.round(bytes / 1000)} kB`)
    .join(', ');
}

/** Issue 17 budget: the OCR function's package, model included, at most 50 MB zipped (Lambda's direct-upload limit). */
const OCR_PACKAGE_BUDGET_BYTES = 50_000_000;

/** Deflated size of every file under `dir` plus zip's per-entry headers: what the package zip weighs. */
function zippedSize(dir: string): { zipped: number; unzipped: number } {
  let zipped = 0;
  let unzipped = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const bytes = readFileSync(path.join(entry.parentPath, entry.name));
    unzipped += bytes.length;
    zipped += deflateRawSync(bytes).length + 2 * (46 + entry.name.length);
  }
  return { zipped, unzipped };
}

/** Adds the OCR assets beside a built bundle exactly as the stack does, and weighs the package. */
function ocrPackageRow(id: string, dir: string): BenchRow {
  for (const command of ocrAssetCommands(REPO_ROOT, dir)) execSync(command, { shell: '/bin/bash', stdio: ['ignore', 'ignore', 'inherit'] });
  const { zipped, unzipped } = zippedSize(dir);
  return {
    area: 'lambda package',
    metric: `${id} with Tesseract, the English model and the arm64 canvas (${round(unzipped / 1e6, 1)} MB unzipped)`,
    value: round(zipped / 1e6, 1),
    unit: 'MB zipped',
    budget: '≤ 50 MB',
    pass: zipped <= OCR_PACKAGE_BUDGET_BYTES,
  };
}

/**
 * Bundles every route and worker handler exactly as the stack does (infra/bundling.ts: ESM, node22,
 * minified, the AWS SDK left to the Lambda runtime) and reports each bundle's size against the 1 MB budget.
 */
const bench: Bench = async () => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'hale-bundles-'));
  const rows: BenchRow[] = [];
  try {
    for (const definition of [...ROUTES, ...WORKERS]) {
      const { id, handler } = definition;
      const outfile = path.join(outdir, id, 'index.mjs');
      const ocr = 'ocrAssets' in definition && definition.ocrAssets === true;
      try {
        const options = esbuildOptionsFor(path.join(REPO_ROOT, handler), outfile);
        if (ocr) options.external = [...(options.external ?? []), ...OCR_EXTERNAL_MODULES];
        const result = await build({ ...options, metafile: true, absWorkingDir: REPO_ROOT });
        if (ocr) rows.push(ocrPackageRow(id, path.dirname(outfile)));
        const bytes = statSync(outfile).size;
        if (bytes > BUDGET_BYTES) {
          const relative = path.relative(REPO_ROOT, outfile);
          process.stderr.write(`  ${id} is over budget; heaviest: ${heaviestInputs(result.metafile, relative, 4)}\n`);
        }
        rows.push({ area: 'lambda bundle', metric: `${id} (${handler})`, value: round(bytes / 1000, 1), unit: 'kB', budget: '≤ 1000 kB', pass: bytes <= BUDGET_BYTES });
      } catch (error) {
        process.stderr.write(`  ${id}: could not bundle ${handler}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
      }
    }
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
  return rows;
};

export default bench;
