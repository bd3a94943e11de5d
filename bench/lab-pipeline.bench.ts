import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StatusResponse } from '../functions/lab/api-schemas';
import { isTerminal } from '../functions/lab/job-states';
import { stopTesseract } from '../functions/lab/ocr/tesseract-recognizer';
import { embeddedS3ProcessOf } from '../local/embedded-s3';
import { generateQuestReport } from '../test/fixtures/labs/generator';
import { scanned } from '../test/fixtures/labs/scanned';
import { procStatus } from './processes';
import { type Bench, type BenchRow, percentile, round } from './types';

/**
 * Lab extraction, upload → completed, for a 3-page Quest report through the local runtime (gateway,
 * dynalite, s3rver, the ASL with every worker): wall time of ~10 warm runs, and each stage's share
 * from the stage start times the job records. The first run (cold module loads) is reported apart.
 * Then the same report scanned (issue 17: image-only, 200 dpi, 0.7°), read through the Recognize
 * stage: wall time and the process's CPU time (main thread and the Tesseract worker) per upload; and
 * that scan made searchable (an invisible OCR layer over it), which is read by OCR as well. The first
 * run of each is reported apart: the scan's starts the Tesseract worker and loads the model.
 */
const RUNS = 10;
/** Issue "Lab extraction that holds on reports it was not built from": upload → completed p50 ≤ 1 s (was 3 s). */
const BUDGET_MS = 1000;
const SCANNED_RUNS = 5;
const SCANNED_BUDGET_MS = 12_000;
/** A scan takes seconds: polling it every 10 ms would spend the CPU time being measured on status calls. */
const SCANNED_POLL_MS = 200;
const POLL_MS = 10;

async function threePageReport(): Promise<Uint8Array> {
  for (let seed = 1; seed < 50; seed++) {
    const report = await generateQuestReport({ seed, panelCount: 6, maxRowsPerPage: 22 });
    if (report.truth.pageCount === 3) return report.pdf;
  }
  throw new Error('No seed gives a 3-page report');
}

/**
 * The 3-page report as a scan (`kind` names it in the rows): upload → completed through OCR, wall time
 * and CPU time per run; every result must come from OCR.
 */
async function scannedRuns(
  kind: string,
  pdf: Uint8Array,
  s3Pid: number,
  runOnce: (pdf: Uint8Array, pollMs: number) => Promise<{ totalMs: number; job: StatusResponse }>,
): Promise<BenchRow[]> {
  // The first scan starts the Tesseract worker and loads the model (a Lambda's cold start).
  const cold = await runOnce(pdf, SCANNED_POLL_MS);
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let run = 0; run < SCANNED_RUNS; run++) {
    const cpu = process.cpuUsage();
    const s3Before = (await procStatus(s3Pid)).cpuSeconds;
    const { totalMs, job } = await runOnce(pdf, SCANNED_POLL_MS);
    const used = process.cpuUsage(cpu);
    const s3Seconds = (await procStatus(s3Pid)).cpuSeconds - s3Before;
    const results = job.results?.panels.flatMap((p) => p.panelResults) ?? [];
    if (results.length === 0 || results.some((r) => r.provenance.source !== 'ocr')) throw new Error(`the ${kind} report completed without results all read by OCR`);
    walls.push(totalMs);
    cpus.push((used.user + used.system) / 1000 + s3Seconds * 1000);
  }
  const p50 = percentile(walls, 50);
  const cpu = percentile(cpus, 50);
  return [
    { area: 'lab', metric: `${kind} 3-page report, upload → completed, p50 of ${SCANNED_RUNS}`, value: round(p50, 0), unit: 'ms', budget: `≤ ${SCANNED_BUDGET_MS} ms`, pass: p50 <= SCANNED_BUDGET_MS },
    { area: 'lab', metric: `${kind} 3-page report, CPU time per upload (all threads, and the embedded S3 process), p50`, value: round(cpu, 0), unit: 'ms', budget: `≤ ${SCANNED_BUDGET_MS} ms`, pass: cpu <= SCANNED_BUDGET_MS },
    { area: 'lab', metric: `${kind} 3-page report, first run`, value: round(cold.totalMs, 0), unit: 'ms', budget: '', pass: null },
  ];
}

const bench: Bench = async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hale-bench-lab-'));
  const apiKey = 'bench-lab-key';
  // Handler logs would bury the table; the logger reads its level when first loaded, by the runtime.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  const { startLocalRuntime } = await import('../local/runtime');
  const runtime = await startLocalRuntime({ port: 0, dataDir, apiKeys: [apiKey], quiet: true });
  try {
    const report = await threePageReport();
    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };

    const runOnce = async (pdf: Uint8Array = report, pollMs = POLL_MS): Promise<{ totalMs: number; job: StatusResponse }> => {
      const body = JSON.stringify({ pdfFile: Buffer.from(pdf).toString('base64') });
      const started = performance.now();
      const upload = await fetch(`${runtime.baseUrl}/extraction/lab/upload`, { method: 'POST', headers, body });
      if (upload.status !== 202) throw new Error(`upload answered ${upload.status}`);
      const { jobId } = (await upload.json()) as { jobId: string };
      for (;;) {
        const job = (await (await fetch(`${runtime.baseUrl}/extraction/lab/status/${jobId}`, { headers })).json()) as StatusResponse;
        if (isTerminal(job.status)) {
          if (job.status !== 'completed') throw new Error(`job ended ${job.status}: ${job.message}`);
          return { totalMs: performance.now() - started, job };
        }
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    };

    const cold = await runOnce();
    const totals: number[] = [];
    const stageSamples = new Map<string, number[]>();
    for (let run = 0; run < RUNS; run++) {
      const { totalMs, job } = await runOnce();
      totals.push(totalMs);
      // A stage lasts from its start to the next stage's start; the last one until the job finished.
      const stages = Object.entries(job.stages);
      const last = stages.pop()!;
      const starts: Array<[string, string]> = [['upload → first step', job.createdAt], ...stages, [`${last[0]} + finish`, last[1]], ['', job.finishedAt!]];
      for (let i = 0; i < starts.length - 1; i++) {
        const samples = stageSamples.get(starts[i]![0]) ?? [];
        samples.push(Date.parse(starts[i + 1]![1]) - Date.parse(starts[i]![1]));
        stageSamples.set(starts[i]![0], samples);
      }
    }
    const p50 = percentile(totals, 50);
    const rows: BenchRow[] = [
      { area: 'lab', metric: `upload → completed, 3-page report, p50 of ${RUNS}`, value: round(p50, 0), unit: 'ms', budget: `≤ ${BUDGET_MS} ms`, pass: p50 <= BUDGET_MS },
      { area: 'lab', metric: 'upload → completed, p90', value: round(percentile(totals, 90), 0), unit: 'ms', budget: '', pass: null },
      { area: 'lab', metric: 'upload → completed, first run (cold modules)', value: round(cold.totalMs, 0), unit: 'ms', budget: '', pass: null },
    ];
    for (const [stage, samples] of stageSamples) {
      rows.push({ area: 'lab', metric: `stage ${stage}, p50`, value: round(percentile(samples, 50), 0), unit: 'ms', budget: '', pass: null });
    }
    const s3Pid = await embeddedS3ProcessOf(process.pid);
    rows.push(...(await scannedRuns('scanned', await scanned(report), s3Pid, runOnce)));
    // The same scan under another program's OCR layer, its digits misread: ValidatePdf must look through it.
    rows.push(...(await scannedRuns('searchable scanned', await scanned(report, { textLayer: 'misread' }), s3Pid, runOnce)));
    return rows;
  } finally {
    await runtime.stop();
    // The Recognize step's Tesseract worker thread lives in this process; left running, it keeps it alive.
    await stopTesseract();
    await rm(dataDir, { recursive: true, force: true });
  }
};

export default bench;
