import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type ScanReport, scanInput } from '../functions/bulk/input-scan';
import { embeddedS3ProcessOf } from '../local/embedded-s3';
import { procStatus } from './processes';
import { peopleForBench } from './scoring.bench';
import { type Bench, type BenchRow, round } from './types';

/**
 * Issue 16 budgets for bulk scoring on one machine: 100,000 person-dates from the start of the upload
 * to results available (the job completed) in ≤ 20 s, and a peak RSS of every process ≤ 300 MB
 * whatever the input size, measured at 10,000 and 100,000.
 *
 * Each size runs as a user would: `npm start`'s runtime (local/main.ts with the start script's node
 * flags, in its own process, fresh data folder, with its embedded S3 in a process of its own:
 * local/s3-process.ts) and
 * `npx hale bulk score input.jsonl --out results.jsonl` (bin/hale.cjs, another process), which
 * uploads, follows and downloads. Timings come from the CLI's own output lines; CPU
 * time and peak RSS (VmHWM, which covers every thread) from /proc of each process, so a busy machine's
 * waiting shows in wall time only.
 */

const REPO = path.resolve(__dirname, '..');
/** Lines the CPU-rate measurement cuts into batches (and scores over and over for five seconds). */
const RATE_LINES = 2_000;
const API_KEY = 'bench-key';
const SIZES = [10_000, 100_000];
const run = promisify(execFile);

/** The i-th input line: one timeseries request, a person with a full panel measured on the date scored. */
function benchLine(people: ReturnType<typeof peopleForBench>, i: number): string {
  const person = people[i % people.length]!;
  const event = person.events[2]!;
  const date = new Date(Date.parse('1958-02-10') + (event.age + (i % 17) / 10) * 365.25 * 86_400_000).toISOString().slice(0, 10);
  return JSON.stringify({
    scoring_event_metadata: { event_id: '5b0c7e4e-2f57-4d3b-9c1e-8a7d6f5e4c3b', event_asof_dtutc: '2026-11-22T00:00:00Z', mode: 'validate_and_score' },
    uid_ext: `bench-${i}`,
    date_of_birth: '1958-02-10',
    dates_to_score: [date],
    health_events: [{ health_event_id: 'e', health_event_date: date, predictors: event.predictors }],
  });
}

export function benchLines(count: number): string[] {
  const people = peopleForBench();
  return Array.from({ length: count }, (_, i) => benchLine(people, i));
}

async function writeInput(file: string, lines: number): Promise<number> {
  const people = peopleForBench();
  const out = createWriteStream(file);
  for (let i = 0; i < lines; i++) if (!out.write(`${benchLine(people, i)}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  return (await stat(file)).size;
}

/** The ScoreJsonl Distributed Map's ItemBatcher, as deployed. */
function itemBatcher(): { maxItems: number; maxBytes: number } {
  const asl = JSON.parse(readFileSync(path.join(REPO, 'statemachines/bulk-scoring.asl.json'), 'utf8')) as {
    States: { ScoreJsonl: { ItemBatcher: { MaxItemsPerBatch: number; MaxInputBytesPerBatch: number } } };
  };
  const batcher = asl.States.ScoreJsonl.ItemBatcher;
  return { maxItems: batcher.MaxItemsPerBatch, maxBytes: batcher.MaxInputBytesPerBatch };
}

/** Child inputs as the ItemBatcher makes them: `{BatchInput, Items: [{index, value}]}` up to its item and byte limits. */
function childInputs(lines: readonly string[], limits: { maxItems: number; maxBytes: number }): unknown[] {
  const BatchInput = { job_id: '5b0c7e4e-2f57-4d3b-9c1e-8a7d6f5e4c3b', input_type: 'JSONL', line_offset: 1, created_at: '2026-11-22T00:00:00.000Z' };
  const envelopeBytes = Buffer.byteLength(JSON.stringify({ BatchInput, Items: [] }));
  const batches: unknown[] = [];
  let items: unknown[] = [];
  let bytes = envelopeBytes;
  lines.forEach((line, index) => {
    const item = { index, value: JSON.parse(line) as unknown };
    const size = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (items.length > 0 && (items.length >= limits.maxItems || bytes + size > limits.maxBytes)) {
      batches.push({ BatchInput, Items: items });
      items = [];
      bytes = envelopeBytes;
    }
    items.push(item);
    bytes += size;
  });
  if (items.length > 0) batches.push({ BatchInput, Items: items });
  return batches;
}

export interface ScoreBatchRate {
  /** Person-dates (one per line here) scored per CPU-second. */
  perCpuSecond: number;
  itemsPerBatch: number;
  cpuSecondsPerBatch: number;
  /** What one batch writes to S3 (its part files), in bytes. */
  bytesPerBatch: number;
}

/**
 * The per-core rate the AWS calculation (infra/README.md) starts from: the ScoreBatch function bundled
 * as deployed (infra/bundling.ts), its exported scoreBatch called on batches cut as the ItemBatcher
 * cuts them, in a process of its own (bench/score-batch-rate-probe.mjs), timed in CPU time: validate,
 * score, serialise the result lines, rows and tally. Its S3 and DynamoDB writes go to a stand-in that
 * only counts bytes: their latency is the network's, accounted for separately in the calculation.
 */
export async function measureRate(dir: string): Promise<ScoreBatchRate> {
  const { build } = await import('esbuild');
  const { esbuildOptionsFor } = await import('../infra/bundling');
  // Inside the repository, so the bundle's external @aws-sdk imports resolve from node_modules as on Lambda.
  const buildDir = await mkdtemp(path.join(REPO, 'node_modules', '.hale-bench-'));
  try {
    const bundle = path.join(buildDir, 'score-batch.mjs');
    await build(esbuildOptionsFor(path.join(REPO, 'functions/bulk/steps/score-batch.ts'), bundle));
    const batches = childInputs(benchLines(RATE_LINES), itemBatcher());
    const batchesFile = path.join(dir, 'score-batch-inputs.jsonl');
    await writeFile(batchesFile, `${batches.map((batch) => JSON.stringify(batch)).join('\n')}\n`);
    const { stdout } = await run(process.execPath, [path.join(__dirname, 'score-batch-rate-probe.mjs'), bundle, batchesFile], {
      env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT', HALE_UPLOADS_BUCKET: 'uploads', HALE_ARTIFACTS_BUCKET: 'artifacts' },
      maxBuffer: 1 << 20,
    });
    const probe = JSON.parse(stdout) as { items: number; calls: number; cpuSeconds: number; bytesWritten: number };
    return {
      perCpuSecond: probe.items / probe.cpuSeconds,
      itemsPerBatch: probe.items / probe.calls,
      cpuSecondsPerBatch: probe.cpuSeconds / probe.calls,
      bytesPerBatch: probe.bytesWritten / probe.calls,
    };
  } finally {
    await rm(buildDir, { recursive: true, force: true });
  }
}

/** Samples a process's /proc until it exits; keeps the last reading (VmHWM only grows). */
function watch(pid: number): { last: () => { peakRssMb: number; cpuSeconds: number }; stop: () => void } {
  let last = { peakRssMb: 0, cpuSeconds: 0 };
  const timer = setInterval(() => {
    procStatus(pid).then(
      (reading) => {
        last = reading;
      },
      () => undefined,
    );
  }, 100);
  return { last: () => last, stop: () => clearInterval(timer) };
}

/** The node flags `npm start` gives the runtime (package.json's start script: `tsx <flags> local/main.ts`). */
function startFlags(): string[] {
  const scripts = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  return scripts.start!.split(/\s+/).filter((word) => word.startsWith('--'));
}

async function startRuntime(dataDir: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, [...startFlags(), '--import', 'tsx', 'local/main.ts'], {
    cwd: REPO,
    env: { ...process.env, PORT: '0', HALE_DATA_DIR: dataDir, HALE_API_KEYS: API_KEY, POWERTOOLS_LOG_LEVEL: 'WARN' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`runtime not ready after 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /Hale is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve({ child, baseUrl: ready[1]! });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`runtime exited with ${code}:\n${output}`)));
  });
}

/**
 * CPU time of the Prepare step's read of an input (input-scan.ts: split, count, check every line), the
 * one pass over the whole file that runs on a single Lambda before the Distributed Map starts.
 */
async function scanCpuSeconds(file: string): Promise<number> {
  const report: ScanReport = { items: 0, unreadable: 0 };
  const cpu = process.cpuUsage();
  for await (const _line of scanInput(createReadStream(file), 'JSONL', report)) {
    // Only reads, as Prepare's first pass.
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1e6;
}

interface Run {
  items: number;
  inputMb: number;
  scanCpuSeconds: number;
  uploadToResultsSeconds: number;
  runtime: { peakRssMb: number; cpuSeconds: number };
  s3: { peakRssMb: number; cpuSeconds: number };
  cli: { peakRssMb: number; cpuSeconds: number };
  resultsMb: number;
}

async function runSize(dir: string, items: number): Promise<Run> {
  const input = path.join(dir, `input-${items}.jsonl`);
  const results = path.join(dir, `results-${items}.jsonl`);
  const inputBytes = await writeInput(input, items);
  const scanSeconds = await scanCpuSeconds(input);
  const dataDir = await mkdtemp(path.join(dir, 'data-'));
  const { child: runtime, baseUrl } = await startRuntime(dataDir);
  const s3Pid = await embeddedS3ProcessOf(runtime.pid!);
  const runtimeWatch = watch(runtime.pid!);
  const s3Watch = watch(s3Pid);
  const [before, s3Before] = await Promise.all([procStatus(runtime.pid!), procStatus(s3Pid)]);
  try {
    const cli = spawn(process.execPath, ['bin/hale.cjs', 'bulk', 'score', input, '--out', results, '--poll-interval', '100'], {
      cwd: REPO,
      env: { ...process.env, HALE_API_URL: baseUrl, HALE_API_KEY: API_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const cliWatch = watch(cli.pid!);
    let uploadStarted = 0;
    let completed = 0;
    let log = '';
    cli.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (!uploadStarted && /^job /m.test(log)) uploadStarted = performance.now();
      // The job's end, not the first 100 % progress line (printed while the results are still assembled).
      if (!completed && /^job completed$/m.test(log)) completed = performance.now();
    });
    cli.stdout!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    const [code] = (await once(cli, 'exit')) as [number];
    cliWatch.stop();
    runtimeWatch.stop();
    s3Watch.stop();
    if (code !== 0) throw new Error(`hale bulk score exited with ${code}:\n${log}`);
    const [after, s3After] = await Promise.all([procStatus(runtime.pid!), procStatus(s3Pid)]);
    return {
      items,
      inputMb: inputBytes / 1_048_576,
      scanCpuSeconds: scanSeconds,
      uploadToResultsSeconds: (completed - uploadStarted) / 1000,
      runtime: { peakRssMb: after.peakRssMb, cpuSeconds: after.cpuSeconds - before.cpuSeconds },
      s3: { peakRssMb: s3After.peakRssMb, cpuSeconds: s3After.cpuSeconds - s3Before.cpuSeconds },
      cli: cliWatch.last(),
      resultsMb: (await stat(results)).size / 1_048_576,
    };
  } finally {
    runtime.kill('SIGTERM');
    await once(runtime, 'exit');
    await rm(dataDir, { recursive: true, force: true });
    await rm(input, { force: true });
    await rm(results, { force: true });
  }
}

const bench: Bench = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hale-bulk-bench-'));
  const rows: BenchRow[] = [];
  try {
    const rate = await measureRate(dir);
    rows.push(
      {
        area: 'bulk',
        metric: `ScoreBatch (bundled as deployed) per CPU-second, batches as the ItemBatcher cuts them (${round(rate.itemsPerBatch, 0)} items): the per-core rate of infra/README.md`,
        value: round(rate.perCpuSecond, 0),
        unit: 'person-dates/s',
        budget: '',
        pass: null,
      },
      { area: 'bulk', metric: 'same, CPU time per batch', value: round(rate.cpuSecondsPerBatch * 1000, 0), unit: 'ms', budget: '', pass: null },
      { area: 'bulk', metric: 'same, part files one batch writes to S3', value: round(rate.bytesPerBatch / 1_048_576, 2), unit: 'MB', budget: '', pass: null },
    );
    for (const items of SIZES) {
      const run = await runSize(dir, items);
      const label = `${items.toLocaleString('en-US')} person-dates (${round(run.inputMb, 0)} MB JSONL in, ${round(run.resultsMb, 0)} MB out)`;
      if (items === 100_000) {
        rows.push({ area: 'bulk', metric: `local, upload start → results available, ${label}`, value: round(run.uploadToResultsSeconds, 1), unit: 's', budget: '≤ 20 s', pass: run.uploadToResultsSeconds <= 20 });
      } else {
        rows.push({ area: 'bulk', metric: `local, upload start → results available, ${label}`, value: round(run.uploadToResultsSeconds, 1), unit: 's', budget: '', pass: null });
      }
      rows.push(
        { area: 'bulk', metric: `same, CPU time of the runtime process (all threads)`, value: round(run.runtime.cpuSeconds, 1), unit: 's', budget: '', pass: null },
        { area: 'bulk', metric: `same, CPU time of its embedded S3 process (all threads)`, value: round(run.s3.cpuSeconds, 1), unit: 's', budget: '', pass: null },
        { area: 'bulk', metric: `same, peak RSS of the runtime process (npm start)`, value: round(run.runtime.peakRssMb, 0), unit: 'MB', budget: '≤ 300 MB', pass: run.runtime.peakRssMb <= 300 },
        { area: 'bulk', metric: `same, peak RSS of its embedded S3 process`, value: round(run.s3.peakRssMb, 0), unit: 'MB', budget: '≤ 300 MB', pass: run.s3.peakRssMb <= 300 },
        { area: 'bulk', metric: `same, peak RSS of the CLI process (hale bulk score)`, value: round(run.cli.peakRssMb, 0), unit: 'MB', budget: '≤ 300 MB', pass: run.cli.peakRssMb <= 300 },
        { area: 'bulk', metric: `same, CPU per person-date of the runtime and its S3`, value: round(((run.runtime.cpuSeconds + run.s3.cpuSeconds) / items) * 1e6, 0), unit: 'µs', budget: '', pass: null },
        { area: 'bulk', metric: `same, Prepare's read of the input (input-scan.ts), CPU time (the one serial pass)`, value: round(run.scanCpuSeconds, 2), unit: 's', budget: '', pass: null },
      );
    }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

export default bench;
