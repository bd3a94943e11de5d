import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { peopleForBench } from './scoring.bench';
import { type Bench, type BenchRow, round } from './types';

/**
 * Issue 16 budgets for bulk scoring on one machine: 100,000 person-dates from the start of the upload
 * to results available (the job completed) in ≤ 20 s, and a peak RSS of every process ≤ 300 MB
 * whatever the input size, measured at 10,000 and 100,000.
 *
 * Each size runs as a user would: `npm start`'s runtime (local/main.ts, in its own process, fresh
 * data folder) and `npx hale bulk score input.jsonl --out results.jsonl` (bin/hale.cjs, a second
 * process), which uploads, follows and downloads. Timings come from the CLI's own output lines; CPU
 * time and peak RSS (VmHWM, which covers every thread) from /proc of each process, so a busy machine's
 * waiting shows in wall time only.
 */

const REPO = path.resolve(__dirname, '..');
const API_KEY = 'bench-key';
const SIZES = [10_000, 100_000];
const CLK_TCK = 100;

/** One timeseries request per line: a person with a full panel measured on the date scored. */
async function writeInput(file: string, lines: number): Promise<number> {
  const people = peopleForBench();
  const out = createWriteStream(file);
  const birth = Date.parse('1958-02-10');
  for (let i = 0; i < lines; i++) {
    const person = people[i % people.length]!;
    const event = person.events[2]!;
    const date = new Date(birth + (event.age + (i % 17) / 10) * 365.25 * 86_400_000).toISOString().slice(0, 10);
    const line = JSON.stringify({
      scoring_event_metadata: { event_id: '5b0c7e4e-2f57-4d3b-9c1e-8a7d6f5e4c3b', event_asof_dtutc: '2026-11-22T00:00:00Z', mode: 'validate_and_score' },
      uid_ext: `bench-${i}`,
      date_of_birth: '1958-02-10',
      dates_to_score: [date],
      health_events: [{ health_event_id: 'e', health_event_date: date, predictors: event.predictors }],
    });
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return (await stat(file)).size;
}

async function procStatus(pid: number): Promise<{ peakRssMb: number; cpuSeconds: number }> {
  const [status, statLine] = await Promise.all([readFile(`/proc/${pid}/status`, 'utf8'), readFile(`/proc/${pid}/stat`, 'utf8')]);
  const peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  const fields = statLine.slice(statLine.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, i.e. 11 and 12 after the command.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { peakRssMb: peakKb / 1024, cpuSeconds: ticks / CLK_TCK };
}

/** Samples a process's /proc until it exits; keeps the last reading (VmHWM only grows). */
function watch(child: ChildProcess): { last: () => { peakRssMb: number; cpuSeconds: number }; stop: () => void } {
  let last = { peakRssMb: 0, cpuSeconds: 0 };
  const timer = setInterval(() => {
    procStatus(child.pid!).then(
      (reading) => {
        last = reading;
      },
      () => undefined,
    );
  }, 100);
  return { last: () => last, stop: () => clearInterval(timer) };
}

async function startRuntime(dataDir: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
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

interface Run {
  items: number;
  inputMb: number;
  uploadToResultsSeconds: number;
  runtime: { peakRssMb: number; cpuSeconds: number };
  cli: { peakRssMb: number; cpuSeconds: number };
  resultsMb: number;
}

async function runSize(dir: string, items: number): Promise<Run> {
  const input = path.join(dir, `input-${items}.jsonl`);
  const results = path.join(dir, `results-${items}.jsonl`);
  const inputBytes = await writeInput(input, items);
  const dataDir = await mkdtemp(path.join(dir, 'data-'));
  const { child: runtime, baseUrl } = await startRuntime(dataDir);
  const runtimeWatch = watch(runtime);
  const before = await procStatus(runtime.pid!);
  try {
    const cli = spawn(process.execPath, ['bin/hale.cjs', 'bulk', 'score', input, '--out', results, '--poll-interval', '100'], {
      cwd: REPO,
      env: { ...process.env, HALE_API_URL: baseUrl, HALE_API_KEY: API_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const cliWatch = watch(cli);
    let uploadStarted = 0;
    let completed = 0;
    let log = '';
    cli.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (!uploadStarted && /^job /m.test(log)) uploadStarted = performance.now();
      if (!completed && /score {2}\[#+\] 100%.*\n/.test(log)) completed = performance.now();
    });
    cli.stdout!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    const [code] = (await once(cli, 'exit')) as [number];
    cliWatch.stop();
    runtimeWatch.stop();
    if (code !== 0) throw new Error(`hale bulk score exited with ${code}:\n${log}`);
    const after = await procStatus(runtime.pid!);
    return {
      items,
      inputMb: inputBytes / 1_048_576,
      uploadToResultsSeconds: (completed - uploadStarted) / 1000,
      runtime: { peakRssMb: after.peakRssMb, cpuSeconds: after.cpuSeconds - before.cpuSeconds },
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
        { area: 'bulk', metric: `same, peak RSS of the runtime process (npm start)`, value: round(run.runtime.peakRssMb, 0), unit: 'MB', budget: '≤ 300 MB', pass: run.runtime.peakRssMb <= 300 },
        { area: 'bulk', metric: `same, peak RSS of the CLI process (hale bulk score)`, value: round(run.cli.peakRssMb, 0), unit: 'MB', budget: '≤ 300 MB', pass: run.cli.peakRssMb <= 300 },
        { area: 'bulk', metric: `same, runtime CPU per person-date`, value: round((run.runtime.cpuSeconds / items) * 1e6, 0), unit: 'µs', budget: '', pass: null },
      );
    }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

export default bench;
