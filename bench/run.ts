import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Bench, BenchReport, BenchRow } from './types';

/**
 * `npm run bench [-- name ...]`: runs every `bench/*.bench.ts` (or those whose file name contains one
 * of the given names) one after another and prints each figure beside its budget. A benchmark, not a
 * test: it never fails the build, it reports.
 *
 * Each benchmark runs in its own process: handlers cache their SDK clients and settings per process,
 * as Lambda containers do, so a benchmark that starts its own local runtime must not inherit the
 * clients of the previous benchmark's (stopped) one.
 */
async function runOne(file: string, out: string): Promise<void> {
  const mod = (await import(path.join(__dirname, file))) as { default: Bench };
  const result = await mod.default();
  const report: BenchReport = Array.isArray(result) ? { rows: result, details: '' } : result;
  writeFileSync(out, JSON.stringify(report));
}

function runAll(filters: string[]): void {
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => filters.length === 0 || filters.some((name) => f.includes(name)))
    .sort();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'hale-bench-'));
  const rows: BenchRow[] = [];
  const details: string[] = [];
  try {
    for (const file of files) {
      process.stderr.write(`running ${file} …\n`);
      const out = path.join(scratch, `${file}.json`);
      try {
        execFileSync(process.execPath, [require.resolve('tsx/cli'), __filename, '--one', file, out], { stdio: ['ignore', 'ignore', 'inherit'] });
        const report = JSON.parse(readFileSync(out, 'utf8')) as BenchReport;
        rows.push(...report.rows);
        if (report.details) details.push(report.details);
      } catch (error) {
        process.stderr.write(`  ${file} failed: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const lines = ['| area | metric | value | budget | meets |', '|---|---|---|---|---|'];
  for (const r of rows) {
    const meets = r.pass === null ? '' : r.pass ? 'yes' : '**no**';
    lines.push(`| ${r.area} | ${r.metric} | ${r.value} ${r.unit} | ${r.budget} | ${meets} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  for (const text of details) process.stdout.write(`\n${text}\n`);
}

const args = process.argv.slice(2);
if (args[0] === '--one') {
  runOne(args[1]!, args[2]!).catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
} else {
  runAll(args);
}
