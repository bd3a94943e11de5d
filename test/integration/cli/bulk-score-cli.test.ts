import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { resultCsvHeader } from '../../../functions/bulk/results';
import { BulkErrorLineSchema, BulkResultLineSchema } from '../../../functions/bulk/schemas';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime';

/** `npx hale bulk score` (bin/hale.cjs) as a user runs it, in its own process, against the local runtime. */

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLE_CSV = path.join(ROOT, 'docs/examples/bulk-input.csv');
const EXAMPLE_JSONL = path.join(ROOT, 'docs/examples/bulk-input.jsonl');

let hale: TestRuntime;
let dir: string;
beforeAll(async () => {
  [hale, dir] = await Promise.all([startTestRuntime(), mkdtemp(path.join(os.tmpdir(), 'hale-cli-'))]);
});
afterAll(async () => {
  await hale?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(ROOT, 'bin/hale.cjs'), ...args], {
      cwd: ROOT,
      env: { ...process.env, HALE_API_URL: hale.baseUrl, HALE_API_KEY: hale.apiKey, ...env },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const jsonLines = (text: string) => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);

describe('hale bulk score', () => {
  it('uploads a CSV, follows the job and downloads JSONL results and the errors beside them', async () => {
    const out = path.join(dir, 'results.jsonl');
    const result = await cli(['bulk', 'score', EXAMPLE_CSV, '--out', out, '--poll-interval', '50']);
    expect(result).toEqual(expect.objectContaining({ code: 0, stdout: `3 scored, 1 invalid (3 person-dates); wrote ${out}, ${out}.errors.jsonl\n` }));
    expect(result.stderr).toMatch(/^job [0-9a-f-]{36}\n/);
    expect(result.stderr).toMatch(/upload done: 0 MB/);
    expect(result.stderr).toMatch(/score {2}\[#{28}\] 100% 4\/4 · 1 invalid/);
    // The job's end has a line of its own, after the last progress line.
    expect(result.stderr).toMatch(/100% 4\/4 · 1 invalid.*\njob completed\n/);
    const results = jsonLines(await readFile(out, 'utf8')).map((line) => BulkResultLineSchema.parse(line));
    expect(results.map((r) => r.uid_ext)).toEqual(['member-0001', 'member-0002', 'member-0003']);
    const errors = jsonLines(await readFile(`${out}.errors.jsonl`, 'utf8')).map((line) => BulkErrorLineSchema.parse(line));
    expect(errors.map((e) => e.line)).toEqual([5]);
  });

  it('writes flattened CSV results with --format csv, reading the API URL and key from flags', async () => {
    const out = path.join(dir, 'results.csv');
    const result = await cli(['bulk', 'score', EXAMPLE_JSONL, '--out', out, '--format', 'csv', '--api-url', hale.baseUrl, '--api-key', hale.apiKey, '--poll-interval', '50'], {
      HALE_API_URL: '',
      HALE_API_KEY: '',
    });
    expect(result.code).toBe(0);
    const rows = (await readFile(out, 'utf8')).trim().split('\n');
    // Two requests, the first scoring two dates: three person-dates.
    expect(rows).toHaveLength(4);
    expect(rows[0]).toBe(resultCsvHeader());
    expect(rows.slice(1).map((row) => row.split(',').slice(0, 3).join(','))).toEqual(['1,member-0101,2025-03-01', '1,member-0101,2026-03-01', '2,member-0102,2026-03-01']);
    await expect(stat(`${out}.errors.jsonl`)).rejects.toThrow();
  });

  it('exits 1 with the reason when the job fails, the key is wrong or the file is missing, and 2 for bad usage', async () => {
    const failed = await cli(['bulk', 'score', EXAMPLE_JSONL, '--input-format', 'csv', '--out', path.join(dir, 'x.jsonl'), '--poll-interval', '50']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/\njob failed\n/);
    expect(failed.stderr).toMatch(/hale: The job failed \(invalid_input\): the file is not a bulk CSV/);
    const unauthorised = await cli(['bulk', 'score', EXAMPLE_CSV, '--out', path.join(dir, 'y.jsonl')], { HALE_API_KEY: 'not-a-key' });
    expect(unauthorised).toEqual(expect.objectContaining({ code: 1, stderr: expect.stringMatching(/POST health-score\/bulk answered 40[13]/) }));
    const missing = await cli(['bulk', 'score', path.join(dir, 'none.csv'), '--out', path.join(dir, 'z.jsonl')]);
    expect(missing).toEqual(expect.objectContaining({ code: 1, stderr: expect.stringMatching(/No such file/) }));
    // An empty file, or results with nowhere to go, are said before any job is made.
    await writeFile(path.join(dir, 'empty.csv'), '');
    const empty = await cli(['bulk', 'score', path.join(dir, 'empty.csv'), '--out', path.join(dir, 'e.jsonl')]);
    expect(empty).toEqual(expect.objectContaining({ code: 1, stderr: expect.stringMatching(/empty\.csv is empty: a bulk input has one person-date per line/) }));
    const nowhere = await cli(['bulk', 'score', EXAMPLE_CSV, '--out', path.join(dir, 'no-such-folder', 'r.jsonl')]);
    expect(nowhere).toEqual(expect.objectContaining({ code: 1, stderr: expect.stringMatching(/Cannot write .*r\.jsonl: .*no-such-folder is no folder this process may write to/) }));
    expect(nowhere.stderr).not.toMatch(/^job /m);
    expect((await cli(['bulk', 'frobnicate'])).code).toBe(2);
  });
});
