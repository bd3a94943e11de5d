import { array, number, object, string, unknown, uuid, enum as zenum } from 'zod';
import { lambdaWorker } from '../../platform/lambda-worker';
import { logger } from '../../platform/observability';
import { BULK_JOB_KIND } from '../bulk-job';
import { scoreItems } from '../results';
import { partKey } from '../storage-keys';
import { type BulkIo, bulkIo } from './io';

/** A child execution's input: the ItemBatcher's `{BatchInput, Items}`, each item `{index, value}` (ItemSelector). */
const BatchSchema = object({
  BatchInput: object({ job_id: uuid(), input_type: zenum(['JSONL', 'CSV']), line_offset: number().int(), created_at: string() }),
  Items: array(object({ index: number().int().min(0), value: unknown() })).min(1),
});

export interface BatchOutcome {
  first_line: number;
  items: number;
  scored: number;
  invalid: number;
}

/**
 * One batch of a bulk job: every item scored (results.ts), its result lines, result rows, error lines
 * and tally written as the batch's part files (named by its first line, so a retry overwrites them),
 * then the job's progress counted. What it returns is small: the parts hold the results.
 */
export async function scoreBatch(io: BulkIo, input: unknown): Promise<BatchOutcome> {
  const { BatchInput: context, Items: items } = BatchSchema.parse(input);
  const jobId = context.job_id;
  const scored = scoreItems(items, { jobId, inputType: context.input_type, lineOffset: context.line_offset, createdAt: context.created_at }, (error) =>
    logger.error('bulk item failed', { jobId, errorName: error instanceof Error ? error.name : typeof error }),
  );
  const firstLine = items[0]!.index + context.line_offset;
  const writes: Promise<void>[] = [
    io.objects.put(io.artifactsBucket, partKey(jobId, firstLine, 'summary.json'), JSON.stringify(scored.tally), 'application/json'),
  ];
  if (scored.results.count > 0) writes.push(io.objects.put(io.artifactsBucket, partKey(jobId, firstLine, 'jsonl'), scored.results.toBuffer(), 'application/x-ndjson'));
  if (scored.csvRows.count > 0) writes.push(io.objects.put(io.artifactsBucket, partKey(jobId, firstLine, 'csv'), scored.csvRows.toBuffer(), 'text/csv'));
  if (scored.errors.length > 0) {
    const errorLines = `${scored.errors.map((e) => JSON.stringify(e)).join('\n')}\n`;
    writes.push(io.objects.put(io.artifactsBucket, partKey(jobId, firstLine, 'errors.jsonl'), errorLines, 'application/x-ndjson'));
  }
  await Promise.all(writes);
  // After the parts: a batch that failed before this point is retried whole. (A retry after it counts
  // the batch twice in the progress, never in the results or the summary, which come from the parts.)
  await io.jobs.addToCounters(BULK_JOB_KIND, jobId, { itemsDone: scored.tally.items, itemsFailed: scored.tally.invalid });
  return { first_line: firstLine, items: scored.tally.items, scored: scored.tally.scored, invalid: scored.tally.invalid };
}

export const handler = lambdaWorker(async (event: unknown): Promise<BatchOutcome> => scoreBatch(bulkIo(), event));
