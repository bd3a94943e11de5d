import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { isTerminal } from '../../functions/lab/job-states';
import { embeddedS3ProcessOf } from '../../local/embedded-s3';
import { REPO_ROOT } from '../../local/repo-paths';
import { generateQuestReport } from '../fixtures/labs/generator';
import { fullReportBody } from './report/report-flow';

/**
 * A real crash: the local runtime runs as a child process (`node --import tsx local/main.ts`, what
 * `npm start` runs), report and lab jobs are sent to it, and it is killed with SIGKILL while they are
 * in flight. Restarted on the same data folder, it must bring every job to a terminal state within a
 * minute, deliver every PDF, callback and webhook once (a delivery counts when the receiver
 * acknowledged it; the receiver held every request until the kill, so nothing was acknowledged
 * before), and leave none of the jobs' uploads, text extracts or requests behind.
 */

const API_KEY = 'crash-recovery-test-key';
const REPORT_JOBS = 5;
const LAB_JOBS = 5;
const RESTART_BUDGET_MS = 60_000;

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  acknowledged: boolean;
}

/** A caller's endpoint that holds every request unanswered while `holding`, then answers 200. */
class HoldingReceiver {
  readonly requests: Received[] = [];
  holding = true;
  private readonly held: ServerResponse[] = [];
  private readonly server: Server;

  constructor() {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const received: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, acknowledged: false };
        this.requests.push(received);
        if (this.holding) {
          this.held.push(res);
          return;
        }
        res.writeHead(200).end('ok', () => {
          received.acknowledged = true;
        });
      });
    });
  }

  async listen(): Promise<void> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
  }

  url(pathname: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${pathname}`;
  }

  acknowledged(method: string, pathPrefix: string): Received[] {
    return this.requests.filter((r) => r.acknowledged && r.method === method && r.url.startsWith(pathPrefix));
  }

  async close(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy();
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}

interface Runtime {
  child: ChildProcess;
  baseUrl: string;
  /** What it printed so far (errors only: POWERTOOLS_LOG_LEVEL=ERROR), shown when a request fails. */
  output: () => string;
}

/** Starts `local/main.ts` in its own process on `dataDir`; resolves with its URL once the banner is out. */
async function startRuntimeProcess(dataDir: string): Promise<Runtime> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HALE_DATA_DIR: dataDir,
      HALE_API_KEYS: API_KEY,
      HALE_ALLOW_PRIVATE_TARGETS: '1',
      HALE_TIME_SCALE: '0.01',
      POWERTOOLS_LOG_LEVEL: 'ERROR',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /Hale is running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('exit', (code) => reject(new Error(`The runtime exited (${code}) before it was ready:\n${output}`)));
  });
  return { child, baseUrl: await ready, output: () => output };
}

async function call(runtime: Runtime, method: string, pathname: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${runtime.baseUrl}${pathname}`, {
    method,
    headers: { 'x-api-key': API_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every stored object whose key names one of `jobIds`, as s3rver keeps them under the data folder. */
async function storedFilesOf(dataDir: string, jobIds: readonly string[]): Promise<string[]> {
  const entries = await readdir(path.join(dataDir, 's3'), { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  return files.filter((file) => jobIds.some((jobId) => file.includes(jobId)));
}

let dataDir: string;
let receiver: HoldingReceiver;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'hale-crash-'));
  receiver = new HoldingReceiver();
  await receiver.listen();
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await receiver.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('after kill -9 with jobs in flight, a restart ends every job within a minute, delivers each event once and leaves no job files', async () => {
  const first = await startRuntimeProcess(dataDir);
  children.push(first.child);

  const pdf = Buffer.from((await generateQuestReport({ seed: 1405 })).pdf).toString('base64');
  const [reports, labs] = await Promise.all([
    Promise.all(
      Array.from({ length: REPORT_JOBS }, async (_, i) => {
        const accepted = await call(first, 'POST', '/health-score/report', fullReportBody({ callback_url: receiver.url(`/report/${i}`), auth_type: 'none' }));
        expect({ status: accepted.status, output: accepted.status === 202 ? '' : first.output() }).toEqual({ status: 202, output: '' });
        return { index: i, jobId: String(accepted.json.job_id) };
      }),
    ),
    Promise.all(
      Array.from({ length: LAB_JOBS }, async (_, i) => {
        const accepted = await call(first, 'POST', '/extraction/lab/upload', { pdfFile: pdf, filename: `report-${i}.pdf`, webhookUrl: receiver.url(`/lab/${i}`) });
        expect({ status: accepted.status, output: accepted.status === 202 ? '' : first.output() }).toEqual({ status: 202, output: '' });
        return { index: i, jobId: String(accepted.json.jobId) };
      }),
    ),
  ]);

  // Killed once the first job reaches its caller (held, so unacknowledged): the rest are mid-pipeline.
  await until(async () => (receiver.requests.length > 0 ? true : undefined), 120_000, 'a first delivery');
  const firstS3 = await embeddedS3ProcessOf(first.child.pid!);
  first.child.kill('SIGKILL');
  await once(first.child, 'exit');
  receiver.holding = false;
  // Its S3 process (local/s3-process.ts) goes with it rather than serve on as an orphan.
  await until(async () => (isRunning(firstS3) ? undefined : true), 10_000, 'the killed runtime\'s S3 process gone');

  const restartedAt = Date.now();
  const second = await startRuntimeProcess(dataDir);
  children.push(second.child);

  const reportStatuses = await Promise.all(
    reports.map(({ jobId }) =>
      until(
        async () => {
          const { json } = await call(second, 'GET', `/health-score/report/status/${jobId}`);
          return json.status === 'completed' || json.status === 'failed' ? json : undefined;
        },
        RESTART_BUDGET_MS,
        `report job ${jobId} terminal`,
      ),
    ),
  );
  const labStatuses = await Promise.all(
    labs.map(({ jobId }) =>
      until(
        async () => {
          const { json } = await call(second, 'GET', `/extraction/lab/status/${jobId}`);
          return isTerminal(String(json.status)) ? json : undefined;
        },
        RESTART_BUDGET_MS,
        `lab job ${jobId} terminal`,
      ),
    ),
  );
  expect(Date.now() - restartedAt).toBeLessThan(RESTART_BUDGET_MS);
  expect(reportStatuses.map((s) => s.status)).toEqual(Array(REPORT_JOBS).fill('completed'));
  expect(labStatuses.map((s) => s.status)).toEqual(Array(LAB_JOBS).fill('completed'));

  // Each report: its PDF once and its callback once; each lab job: its webhook once, one webhook-id for all attempts.
  // A lab job is terminal before its Notify runs, a report job before its callback: wait for those too.
  await until(
    async () => (receiver.acknowledged('POST', '/report/').length >= REPORT_JOBS && receiver.acknowledged('POST', '/lab/').length >= LAB_JOBS ? true : undefined),
    20_000,
    'callbacks and webhooks',
  );
  for (const { index } of reports) {
    expect({ index, pdfs: receiver.acknowledged('PUT', `/report/${index}?`).length }).toEqual({ index, pdfs: 1 });
    expect({ index, callbacks: receiver.acknowledged('POST', `/report/${index}`).length }).toEqual({ index, callbacks: 1 });
  }
  for (const { index } of labs) {
    expect({ index, webhooks: receiver.acknowledged('POST', `/lab/${index}`).length }).toEqual({ index, webhooks: 1 });
    const ids = new Set(receiver.requests.filter((r) => r.url === `/lab/${index}`).map((r) => r.headers['webhook-id']));
    expect({ index, webhookIds: ids.size }).toEqual({ index, webhookIds: 1 });
  }

  // Nothing of the jobs is left but the lab results: no PDF, text extract, request or scores.
  const jobIds = [...reports, ...labs].map((job) => job.jobId);
  const left = await until(
    async () => {
      const files = await storedFilesOf(dataDir, jobIds);
      return files.every((file) => file.includes('results.json')) ? files : undefined;
    },
    20_000,
    'job files deleted',
  );
  expect(left.filter((file) => file.endsWith('results.json._S3rver_object'))).toHaveLength(LAB_JOBS);

  const secondS3 = await embeddedS3ProcessOf(second.child.pid!);
  second.child.kill('SIGTERM');
  await once(second.child, 'exit');
  // A clean stop closes its S3 process before the runtime exits.
  expect(isRunning(secondS3)).toBe(false);
}, 300_000);
