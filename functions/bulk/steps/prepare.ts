import { object, string, uuid } from 'zod';
import { lambdaWorker } from '../../platform/lambda-worker';
import { logger } from '../../platform/observability';
import { BULK_JOB_KIND, type BulkJob, isTerminal } from '../bulk-job';
import { lineOffset, type ScanReport, scanInput } from '../input-scan';
import { BULK_LIMITS } from '../limits';
import { bulkKeys } from '../storage-keys';
import { BulkInputTooLarge, JobAlreadyFinished } from './errors';
import { type BulkIo, bulkIo } from './io';

/** What the state machine carries from Prepare on: where the Map Run reads its items and writes its results. */
export interface PreparedJob {
  job_id: string;
  input_type: 'JSONL' | 'CSV';
  line_offset: number;
  items_total: number;
  created_at: string;
  items_bucket: string;
  items_key: string;
  results_bucket: string;
  map_run_prefix: string;
}

const InputSchema = object({ job_id: uuid(), reason: string().optional() });

/**
 * Prepare: the job moves to processing; its file is read once, as it streams in, to count the items
 * and find the lines the ItemReader could not read (input-scan.ts). When there are any, or the file is
 * CSV, a second pass writes the copy the Map Run reads instead, each such line replaced by its error.
 */
export async function prepare(io: BulkIo, jobId: string, now: Date): Promise<PreparedJob> {
  const record = await io.jobs.get(BULK_JOB_KIND, jobId);
  if (!record || isTerminal(record.status)) throw new JobAlreadyFinished(`Bulk job ${jobId} has already ended`);
  const job = record as BulkJob;
  const keys = bulkKeys(jobId);
  const size = (await io.objects.head(io.uploadsBucket, keys.input))?.size ?? 0;
  if (size > BULK_LIMITS.maxInputBytes) {
    throw new BulkInputTooLarge(`The file holds ${size} bytes; a bulk input holds at most ${BULK_LIMITS.maxInputBytes} (split it into several jobs)`);
  }
  await io.jobs.transition(BULK_JOB_KIND, jobId, { from: ['queued', 'processing'], to: 'processing', set: { processingStartedAt: now.toISOString(), inputBytes: size } });

  const report: ScanReport = { items: 0, unreadable: 0 };
  for await (const _line of scanInput(await io.objects.open(io.uploadsBucket, keys.input), job.inputType, report)) {
    // The first pass only reads.
  }
  let itemsKey = keys.input;
  // CSV is always read from the copy: its rows numbered by their lines, its header trimmed (input-scan.ts).
  if (report.unreadable > 0 || job.inputType === 'CSV') {
    const copy: ScanReport = { items: 0, unreadable: 0 };
    const lines = scanInput(await io.objects.open(io.uploadsBucket, keys.input), job.inputType, copy);
    await io.objects.concatenate(io.uploadsBucket, keys.items, (async function* () {
      for await (const text of lines) yield { text };
    })(), job.inputType === 'CSV' ? 'text/csv' : 'application/x-ndjson');
    itemsKey = keys.items;
  }
  await io.jobs.update(BULK_JOB_KIND, jobId, { itemsTotal: report.items, itemsDone: 0, itemsFailed: 0 });
  logger.info('bulk input prepared', { jobId, items: report.items, unreadable: report.unreadable, bytes: size });
  return {
    job_id: jobId,
    input_type: job.inputType,
    line_offset: lineOffset(job.inputType),
    items_total: report.items,
    created_at: job.createdAt,
    items_bucket: io.uploadsBucket,
    items_key: itemsKey,
    results_bucket: io.artifactsBucket,
    map_run_prefix: keys.mapRun,
  };
}

export const handler = lambdaWorker(async (event: unknown): Promise<PreparedJob> => prepare(bulkIo(), InputSchema.parse(event).job_id, new Date()));
