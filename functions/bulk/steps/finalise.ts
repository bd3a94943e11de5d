import { number, object, record, string, uuid } from 'zod';
import { lambdaWorker } from '../../platform/lambda-worker';
import { logger } from '../../platform/observability';
import { BULK_JOB_KIND, type ResultFile } from '../bulk-job';
import { type BatchTally, emptyTally, mergeTally } from '../distributions';
import { summaryOf } from '../job-view';
import { bulkKeys } from '../storage-keys';
import { type BulkIo, bulkIo } from './io';
import { removeWorkingFiles } from './working-files';

const InputSchema = object({
  job_id: uuid(),
  plan: object({ uploads: record(string(), object({ key: string(), upload_id: string() })), tasks: number() }),
});

/** Batch tallies read at once (each a few kB). */
const SUMMARY_READS = 16;

async function summedTallies(io: BulkIo, jobId: string): Promise<BatchTally> {
  const tally = emptyTally();
  let pending: string[] = [];
  const readAll = async () => {
    const read = await Promise.all(pending.map(async (key) => JSON.parse((await io.objects.get(io.artifactsBucket, key)).body.toString('utf8')) as BatchTally));
    for (const batch of read) mergeTally(tally, batch);
    pending = [];
  };
  for await (const part of io.objects.list(io.artifactsBucket, bulkKeys(jobId).parts)) {
    if (!part.key.endsWith('.summary.json')) continue;
    pending.push(part.key);
    if (pending.length >= SUMMARY_READS) await readAll();
  }
  await readAll();
  return tally;
}

/**
 * Finalise: every part of the three result files has been written (the assembling Map Run); each
 * upload is completed in part order, the batch tallies are summed into the summary, the job completes
 * and the working files go.
 */
export async function finalise(io: BulkIo, input: unknown, now: Date): Promise<{ job_id: string }> {
  const { job_id: jobId, plan } = InputSchema.parse(input);
  const size = async (name: string) => {
    const upload = plan.uploads[name]!;
    return { key: upload.key, size: await io.objects.completeMultipart(io.artifactsBucket, upload.key, upload.upload_id) };
  };
  const [jsonl, csv, errors] = await Promise.all([size('jsonl'), size('csv'), size('errors')]);
  const results: Record<'jsonl' | 'csv' | 'errors', ResultFile> = { jsonl, csv, errors };
  const tally = await summedTallies(io, jobId);
  const summary = summaryOf(tally);
  await io.objects.put(io.artifactsBucket, bulkKeys(jobId).summary, JSON.stringify(summary), 'application/json');
  await io.jobs.transition(BULK_JOB_KIND, jobId, {
    from: ['processing'],
    to: 'completed',
    terminal: true,
    set: { summary, results, finishedAt: now.toISOString(), itemsDone: tally.items, itemsFailed: tally.invalid },
  });
  logger.info('bulk job completed', { jobId, items: tally.items, scored: tally.scored, invalid: tally.invalid, resultBytes: jsonl.size, parts: plan.tasks });
  await removeWorkingFiles(io, jobId);
  return { job_id: jobId };
}

export const handler = lambdaWorker(async (event: unknown) => finalise(bulkIo(), event, new Date()));
