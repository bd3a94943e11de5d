import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime';

/**
 * The README's bulk walk-through, run exactly as written (bash, curl, node, npx hale) against a local
 * runtime: the commands of the section work and print what it says they print.
 */

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const WRITTEN = ['bulk-job.json', 'bulk-status.json', 'bulk-results.jsonl', 'bulk-results.csv', 'bulk-cli-results.jsonl', 'bulk-cli-results.csv', 'bulk-cli-results.csv.errors.jsonl'];

let hale: TestRuntime;
let readme: string;
beforeAll(async () => {
  [hale, readme] = await Promise.all([startTestRuntime(), readFile(path.join(ROOT, 'README.md'), 'utf8')]);
});
afterAll(async () => {
  await hale?.stop();
  await Promise.all(WRITTEN.map((file) => rm(path.join(ROOT, file), { force: true })));
});

/** The n-th bash block after `heading`. */
function block(heading: string, n: number): string {
  const section = readme.slice(readme.indexOf(heading));
  const blocks = [...section.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks.length).toBeGreaterThan(n);
  return blocks[n]!;
}

async function bash(script: string): Promise<string> {
  const { stdout } = await run('bash', ['-e', '-o', 'pipefail', '-c', script], {
    cwd: ROOT,
    env: { ...process.env, HALE: hale.baseUrl, KEY: hale.apiKey },
    timeout: 120_000,
  });
  return stdout;
}

describe('README bulk walk-through', () => {
  const heading = '### Score a population from a file';

  it('creates a job, uploads the example CSV, follows it and downloads what it says', async () => {
    const printed = await bash(block(heading, 0));
    expect(printed).toMatch(/"upload_content_type":"text\/csv"/);
    expect(printed).toMatch(/status: 'completed'/);
    expect(printed).toMatch(/by_status: \{ scored: 3, invalid: 1 \}/);
    expect(printed).toContain('{"line":5,"uid_ext":"member-0004","errors":[{"field":"predictors","message":"sex is required');
    expect((await readFile(path.join(ROOT, 'bulk-results.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(3);
    expect((await readFile(path.join(ROOT, 'bulk-results.csv'), 'utf8')).trim().split('\n')).toHaveLength(4);
  });

  it('scores the examples with npx hale as shown', async () => {
    const printed = await bash(block(heading, 1));
    expect(printed).toContain('2 scored, 0 invalid (3 person-dates); wrote bulk-cli-results.jsonl');
    expect(printed).toContain('3 scored, 1 invalid (3 person-dates); wrote bulk-cli-results.csv, bulk-cli-results.csv.errors.jsonl');
  });
});
