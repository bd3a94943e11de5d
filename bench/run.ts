import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Bench, BenchRow } from './types';

/**
 * `npm run bench [-- name ...]`: runs every `bench/*.bench.ts` (or those whose file name contains one
 * of the given names) one after another and prints each figure beside its budget. A benchmark, not a
 * test: it never fails the build, it reports.
 */
async function main(): Promise<void> {
  const filters = process.argv.slice(2);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => filters.length === 0 || filters.some((name) => f.includes(name)))
    .sort();
  const rows: BenchRow[] = [];
  for (const file of files) {
    const mod = (await import(path.join(__dirname, file))) as { default: Bench };
    process.stderr.write(`running ${file} …\n`);
    try {
      rows.push(...(await mod.default()));
    } catch (error) {
      process.stderr.write(`  ${file} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    }
  }
  const lines = ['| area | metric | value | budget | meets |', '|---|---|---|---|---|'];
  for (const r of rows) {
    const meets = r.pass === null ? '' : r.pass ? 'yes' : '**no**';
    lines.push(`| ${r.area} | ${r.metric} | ${r.value} ${r.unit} | ${r.budget} | ${meets} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
