import { object, string, uuid } from 'zod';
import { lambdaWorker } from '../../platform/lambda-worker';
import { logger } from '../../platform/observability';
import type { ConcatenationPart } from '../../platform/ports';
import { BULK_JOB_KIND, type ResultFile } from '../bulk-job';
import { emptyTally, mergeTally, type BatchTally } from '../distributions';
import { summaryOf } from '../job-view';
import { resultCsvHeader } from '../results';
import { bulkKeys } from '../storage-keys';
import { type BulkIo, bulkIo } from './io';
import { removeWorkingFiles } from './working-files';

const InputSchema = object({
  job_id: uuid(),
  map: object({ ResultWriterDetails: object({ Bucket: string(), Key: string() }) }),
});

interface MapRunManifest {
  ResultFiles: Record<'SUCCEEDED' | 'FAILED' | 'PENDING', { Key: string; Size: number }[]>;
}

/** Part files of one kind, in input order (their keys are zero-padded first lines). */
async function* partsOf(io: BulkIo, jobId: string, pattern: RegExp): AsyncGenerator<ConcatenationPart> {
  for await (const object of io.objects.list(io.artifactsBucket, bulkKeys(jobId).parts)) if (pattern.test(object.key)) yield object;
}

async function* withHeader(header: string, parts: AsyncIterable<ConcatenationPart>): AsyncGenerator<ConcatenationPart> {
  yield { text: `${header}\n` };
  yield* parts;
}

/**
 * Finalise: the Map Run has scored every batch. Its manifest must list no failed child; the batch
 * tallies are summed into the summary; the part files are concatenated, in input order, into
 * results.jsonl, results.csv (with its header) and errors.jsonl by the object store (large parts are
 * copied by S3 itself); the job completes; the working files go.
 */
export async function finalise(io: BulkIo, input: unknown, now: Date): Promise<{ job_id: string }> {
  const { job_id: jobId, map } = InputSchema.parse(input);
  const manifest = JSON.parse((await io.objects.get(map.ResultWriterDetails.Bucket, map.ResultWriterDetails.Key)).body.toString('utf8')) as MapRunManifest;
  if ((manifest.ResultFiles.FAILED ?? []).length > 0 || (manifest.ResultFiles.PENDING ?? []).length > 0) {
    throw new Error(`The Map Run of bulk job ${jobId} has batches that did not succeed`);
  }
  const tally: BatchTally = emptyTally();
  for await (const part of partsOf(io, jobId, /\.summary\.json$/)) {
    if ('key' in part) mergeTally(tally, JSON.parse((await io.objects.get(io.artifactsBucket, part.key)).body.toString('utf8')) as BatchTally);
  }
  const keys = bulkKeys(jobId);
  const [jsonl, csv, errors] = await Promise.all([
    io.objects.concatenate(io.artifactsBucket, keys.results, partsOf(io, jobId, /\/\d{12}\.jsonl$/), 'application/x-ndjson'),
    io.objects.concatenate(io.artifactsBucket, keys.resultsCsv, withHeader(resultCsvHeader(), partsOf(io, jobId, /\.csv$/)), 'text/csv'),
    io.objects.concatenate(io.artifactsBucket, keys.errors, partsOf(io, jobId, /\.errors\.jsonl$/), 'application/x-ndjson'),
  ]);
  const results: Record<'jsonl' | 'csv' | 'errors', ResultFile> = {
    jsonl: { key: keys.results, size: jsonl },
    csv: { key: keys.resultsCsv, size: csv },
    errors: { key: keys.errors, size: errors },
  };
  const summary = summaryOf(tally);
  await io.objects.put(io.artifactsBucket, keys.summary, JSON.stringify(summary), 'application/json');
  await io.jobs.transition(BULK_JOB_KIND, jobId, {
    from: ['processing'],
    to: 'completed',
    terminal: true,
    set: { summary, results, finishedAt: now.toISOString(), itemsDone: tally.items, itemsFailed: tally.invalid },
  });
  logger.info('bulk job completed', { jobId, items: tally.items, scored: tally.scored, invalid: tally.invalid, resultBytes: jsonl });
  await removeWorkingFiles(io, jobId);
  return { job_id: jobId };
}

export const handler = lambdaWorker(async (event: unknown) => finalise(bulkIo(), event, new Date()));
