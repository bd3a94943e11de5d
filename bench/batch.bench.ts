import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BATCH_LIMITS } from '../functions/scoring/batch-limits';
import { peopleForBench } from './scoring.bench';
import { type Bench, type BenchRow, round } from './types';

/**
 * Issue 16 budget: POST /health-score/batch with 100 people × 1 date, p95 ≤ 100 ms in-process, on the
 * handler as deployed (its esbuild bundle, run by plain Node in a child process: tsx's module getters
 * would slow every call). Each call is timed in wall time and in the process's CPU time, which a busy
 * machine does not inflate with waiting.
 */

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..');
const WARM_UP = 20;
const CALLS = 200;

/** 100 different people, each with a full panel measured on the date scored. */
export function batchRequest(): string {
  const people = peopleForBench().slice(0, BATCH_LIMITS.maxPersons);
  const dateAt = (birth: number, age: number) => new Date(birth + age * 365.25 * 86_400_000).toISOString().slice(0, 10);
  const birth = Date.parse('1960-06-15');
  return JSON.stringify({
    scoring_event_metadata: { event_id: '5b0c7e4e-2f57-4d3b-9c1e-8a7d6f5e4c3b', event_asof_dtutc: '2026-11-22T00:00:00Z', mode: 'validate_and_score' },
    persons: people.map((person, i) => {
      const last = person.events[person.events.length - 1]!;
      return { uid_ext: `bench-${i}`, date_of_birth: '1960-06-15', score_date: dateAt(birth, last.age), predictors: last.predictors };
    }),
  });
}

const PROBE = `
import { readFileSync } from 'node:fs';
const body = readFileSync(process.argv[3], 'utf8');
const { handler } = await import(process.argv[2]);
const event = {
  httpMethod: 'POST', path: '/health-score/batch', resource: '/health-score/batch', isBase64Encoded: false,
  headers: { 'content-type': 'application/json' }, multiValueHeaders: {}, body,
  queryStringParameters: null, multiValueQueryStringParameters: null, pathParameters: null, stageVariables: null,
  requestContext: { requestId: 'bench', identity: { apiKeyId: 'bench' } },
};
const context = { functionName: 'bench', awsRequestId: 'bench', getRemainingTimeInMillis: () => 29000 };
const wall = [], cpu = [];
for (let i = 0; i < ${WARM_UP} + ${CALLS}; i++) {
  const c = process.cpuUsage();
  const t = performance.now();
  const response = await handler(event, context);
  const w = performance.now() - t;
  const u = process.cpuUsage(c);
  if (response.statusCode !== 200) throw new Error('status ' + response.statusCode);
  if (JSON.parse(response.body).batch_results.some((r) => r.status !== 'scored')) throw new Error('a bench person was not scored');
  if (i >= ${WARM_UP}) { wall.push(w); cpu.push((u.user + u.system) / 1000); }
}
process.stdout.write(JSON.stringify({ wall, cpu }));
`;

function p(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((q / 100) * sorted.length) - 1))]!;
}

const bench: Bench = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hale-batch-bench-'));
  try {
    const [{ build }, { esbuildOptionsFor }] = await Promise.all([import('esbuild'), import('../infra/bundling')]);
    const bundle = path.join(dir, 'batch-handler.mjs');
    await build(esbuildOptionsFor(path.join(ROOT, 'functions/scoring/batch-handler.ts'), bundle));
    await writeFile(path.join(dir, 'probe.mjs'), PROBE);
    await writeFile(path.join(dir, 'request.json'), batchRequest());
    const { stdout } = await run(process.execPath, [path.join(dir, 'probe.mjs'), bundle, path.join(dir, 'request.json')], {
      env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT', AWS_REGION: 'us-east-1', HALE_RUNTIME: 'aws' },
      maxBuffer: 1 << 20,
    });
    const { wall, cpu } = JSON.parse(stdout) as { wall: number[]; cpu: number[] };
    const p95 = p(wall, 95);
    const rows: BenchRow[] = [
      { area: 'batch', metric: `POST /health-score/batch 100 people × 1 date, in-process handler, p95 of ${CALLS}`, value: round(p95, 1), unit: 'ms', budget: '≤ 100 ms', pass: p95 <= 100 },
      { area: 'batch', metric: 'same, CPU time p95 (excludes waiting for a shared core)', value: round(p(cpu, 95), 1), unit: 'ms', budget: '', pass: null },
      { area: 'batch', metric: 'same, p50', value: round(p(wall, 50), 1), unit: 'ms', budget: '', pass: null },
    ];
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

export default bench;
