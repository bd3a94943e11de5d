import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { esbuildOptionsFor } from '../infra/bundling';
import { startLocalRuntime } from '../local/runtime';
import { type Bench, type BenchRow, percentile, round } from './types';

/**
 * The reference routes' budgets (issue 3): ≥ 2,000 requests/s with p99 ≤ 20 ms on GET /reference-data/
 * and POST /predictor-statistics/, through the local runtime in one process, loaded by autocannon from a
 * second process, with the group's per-key limits raised for the run; and a handler cold start ≤ 150 ms
 * (module load of the deployed esbuild bundle plus the first invocation, in a fresh Node process).
 */

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..');
const LOAD_SECONDS = 6;
/** Load before sampling, so JIT compilation and heap growth are not counted as steady state. */
const WARMUP_SECONDS = 2;
const CONNECTIONS = 16;
const COLD_STARTS = 5;
const AREA = 'reference';

const HANDLERS = ['reference-data-handler', 'predictor-statistics-handler', 'lab-ranges-handler'] as const;
/** The smallest httpRoute handler: the share of every cold start that middy and Powertools take. */
const BASELINE = 'functions/http/ping-handler.ts';

const STATISTICS_BODY = JSON.stringify({
  header: { event_id: 'bench-0001', event_asof_dtutc: '2026-11-22T00:00:00Z' },
  sex: 'female',
  age: 47.5,
});

/** Times import + first invocation of a bundled handler in a fresh process; prints milliseconds. */
const COLD_START_PROBE = `
const started = performance.now();
const { handler } = await import(process.argv[2]);
const post = process.argv[3] === 'POST';
const response = await handler({
  httpMethod: process.argv[3], path: '/', resource: '/', isBase64Encoded: false,
  headers: { 'content-type': 'application/json' }, multiValueHeaders: {},
  body: post ? process.argv[4] : null, queryStringParameters: null, multiValueQueryStringParameters: null,
  pathParameters: null, stageVariables: null, requestContext: { requestId: 'cold', identity: { apiKeyId: 'bench' } },
}, { functionName: 'bench', awsRequestId: 'cold', getRemainingTimeInMillis: () => 30000 });
if (response.statusCode !== 200) throw new Error('status ' + response.statusCode);
process.stdout.write(String(performance.now() - started));
`;

async function coldStartSamples(dir: string, probe: string, entry: string, method: 'GET' | 'POST'): Promise<number[]> {
  const bundle = path.join(dir, `${path.basename(entry, '.ts')}.mjs`);
  await build(esbuildOptionsFor(path.join(ROOT, entry), bundle));
  const samples: number[] = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    const { stdout } = await run(process.execPath, [probe, bundle, method, STATISTICS_BODY], {
      env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT', AWS_REGION: 'us-east-1', HALE_RUNTIME: 'aws' },
    });
    samples.push(Number(stdout));
  }
  return samples;
}

async function coldStarts(dir: string): Promise<BenchRow[]> {
  const probe = path.join(dir, 'probe.mjs');
  await writeFile(probe, COLD_START_PROBE);
  const baseline = percentile(await coldStartSamples(dir, probe, BASELINE, 'GET'), 50);
  const rows: BenchRow[] = [{ area: AREA, metric: `cold start ping-handler, baseline (median of ${COLD_STARTS})`, value: round(baseline, 1), unit: 'ms', budget: '', pass: null }];
  for (const name of HANDLERS) {
    const method = name === 'predictor-statistics-handler' ? 'POST' : 'GET';
    const samples = await coldStartSamples(dir, probe, `functions/reference/${name}.ts`, method);
    const p50 = percentile(samples, 50);
    rows.push({ area: AREA, metric: `cold start ${name} (median of ${COLD_STARTS})`, value: round(p50, 1), unit: 'ms', budget: '≤ 150 ms', pass: p50 <= 150 });
    rows.push({ area: AREA, metric: `cold start ${name} (max)`, value: round(Math.max(...samples), 1), unit: 'ms', budget: '', pass: null });
  }
  return rows;
}

interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number; p50: number };
  non2xx: number;
  errors: number;
}

/** autocannon in its own process, so the load generator does not share the runtime's event loop. */
async function load(url: string, apiKey: string, post: boolean): Promise<AutocannonResult> {
  const args = [
    path.join(ROOT, 'node_modules/autocannon/autocannon.js'),
    '-j',
    '-c',
    String(CONNECTIONS),
    '-d',
    String(LOAD_SECONDS),
    '--warmup',
    '[',
    '-c',
    String(CONNECTIONS),
    '-d',
    String(WARMUP_SECONDS),
    ']',
    '-H',
    `x-api-key=${apiKey}`,
  ];
  if (post) args.push('-m', 'POST', '-H', 'content-type=application/json', '-b', STATISTICS_BODY);
  const { stdout } = await run(process.execPath, [...args, url], { maxBuffer: 16 * 1024 * 1024 });
  // With --warmup, -j prints the warm-up's result first and the measured one last.
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as AutocannonResult;
}

async function throughput(dir: string): Promise<BenchRow[]> {
  const apiKey = 'bench-reference-key';
  const runtime = await startLocalRuntime({
    port: 0,
    quiet: true,
    dataDir: path.join(dir, 'runtime'),
    apiKeys: [apiKey],
    referenceLimits: { perSecond: 1_000_000, perDay: 1_000_000_000 },
  });
  const rows: BenchRow[] = [];
  try {
    const targets = [
      { metric: 'GET /reference-data/', url: `${runtime.baseUrl}/reference-data/`, post: false },
      { metric: 'POST /predictor-statistics/', url: `${runtime.baseUrl}/predictor-statistics/`, post: true },
    ];
    for (const target of targets) {
      // Load the handler module first (the cold start is measured separately).
      await fetch(target.url, {
        method: target.post ? 'POST' : 'GET',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: target.post ? STATISTICS_BODY : undefined,
      }).then((r) => r.arrayBuffer());
      const result = await load(target.url, apiKey, target.post);
      const failed = result.non2xx + result.errors;
      rows.push({ area: AREA, metric: `${target.metric} throughput (${CONNECTIONS} connections, ${LOAD_SECONDS} s)`, value: round(result.requests.average, 0), unit: 'req/s', budget: '≥ 2000 req/s', pass: result.requests.average >= 2000 && failed === 0 });
      rows.push({ area: AREA, metric: `${target.metric} latency p99`, value: result.latency.p99, unit: 'ms', budget: '≤ 20 ms', pass: result.latency.p99 <= 20 });
      rows.push({ area: AREA, metric: `${target.metric} latency p50`, value: result.latency.p50, unit: 'ms', budget: '', pass: null });
      rows.push({ area: AREA, metric: `${target.metric} failed responses`, value: failed, unit: '', budget: '0', pass: failed === 0 });
    }
  } finally {
    await runtime.stop();
  }
  return rows;
}

const bench: Bench = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hale-bench-reference-'));
  try {
    return [...(await coldStarts(dir)), ...(await throughput(dir))];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

export default bench;
