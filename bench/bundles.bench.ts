import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { ROUTES } from '../functions/routes';
import { WORKERS } from '../functions/workers';
import { esbuildOptionsFor, REPO_ROOT } from '../infra/bundling';
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

/**
 * Bundles every route and worker handler exactly as the stack does (infra/bundling.ts: ESM, node22,
 * minified, the AWS SDK left to the Lambda runtime) and reports each bundle's size against the 1 MB budget.
 */
const bench: Bench = async () => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'hale-bundles-'));
  const rows: BenchRow[] = [];
  try {
    for (const { id, handler } of [...ROUTES, ...WORKERS]) {
      const outfile = path.join(outdir, id, 'index.mjs');
      try {
        const result = await build({ ...esbuildOptionsFor(path.join(REPO_ROOT, handler), outfile), metafile: true, absWorkingDir: REPO_ROOT });
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
