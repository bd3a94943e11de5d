import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildOpenApiDocument } from '../../../functions/http/openapi';

/**
 * docs/openapi.json lints clean with @redocly/cli under the committed redocly.yaml (recommended-strict
 * plus operationId, licence and unused-component rules); the only problems ignored are the contract's
 * trailing-slash paths, listed in .redocly.lint-ignore.yaml.
 */

const run = promisify(execFile);
const root = path.join(__dirname, '..', '..', '..');
const cli = path.join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

interface LintOutcome {
  ok: boolean;
  rules: string[];
}

/** Lints `docs/openapi.json` under `cwd` with the config there; the rules of the problems reported. */
async function lint(cwd: string): Promise<LintOutcome> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  try {
    await run(process.execPath, [cli, 'lint', 'docs/openapi.json', '--format=json'], { cwd, env, maxBuffer: 16 * 1024 * 1024 });
    return { ok: true, rules: [] };
  } catch (error) {
    const stdout = String((error as { stdout?: string }).stdout ?? '');
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { problems: { ruleId: string }[] };
    return { ok: false, rules: report.problems.map((problem) => problem.ruleId) };
  }
}

describe('OpenAPI lint (@redocly/cli)', () => {
  it('docs/openapi.json lints clean under the committed config', async () => {
    expect(await lint(root)).toEqual({ ok: true, rules: [] });
  });

  it('fails a document with an operation without operationId or a new trailing-slash path', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'hale-lint-'));
    try {
      await mkdir(path.join(dir, 'docs'));
      await copyFile(path.join(root, 'redocly.yaml'), path.join(dir, 'redocly.yaml'));
      await copyFile(path.join(root, '.redocly.lint-ignore.yaml'), path.join(dir, '.redocly.lint-ignore.yaml'));
      const document = buildOpenApiDocument() as { paths: Record<string, { get?: { operationId?: string } }> };
      delete document.paths['/ping']!.get!.operationId;
      document.paths['/ping/'] = { get: { ...document.paths['/lab-ranges/']!.get, operationId: 'pingAgain' } };
      await writeFile(path.join(dir, 'docs', 'openapi.json'), JSON.stringify(document));
      const outcome = await lint(dir);
      expect(outcome.ok).toBe(false);
      expect(new Set(outcome.rules)).toEqual(new Set(['operation-operationId', 'no-path-trailing-slash']));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
