import { number, object, string } from 'zod';
import { lambdaWorker } from '../../platform/lambda-worker';
import type { ConcatenationPart } from '../../platform/ports';
import { type AssemblyTask, outputFiles } from '../assembly';
import { bulkKeys } from '../storage-keys';
import { type BulkIo, bulkIo } from './io';

/** A child execution's input: one plan line (ItemSelector), and the job it belongs to. */
const InputSchema = object({
  job_id: string(),
  task: object({
    output: string(),
    key: string(),
    upload_id: string(),
    part_number: number().int().min(1).max(10_000),
    first: string().nullable(),
    last: string().nullable(),
    bytes: number().int().min(0),
    header: string().optional(),
  }),
});

/**
 * AssemblePart: writes one part of a result file, streamed from its run of part files (S3 copies a
 * run of one large file itself). The plan fixed the part's number and size, so a retry rewrites it.
 */
export async function assemblePart(io: BulkIo, input: unknown): Promise<{ output: string; part_number: number; bytes: number }> {
  const { job_id: jobId, task } = InputSchema.parse(input) as { job_id: string; task: AssemblyTask };
  const sources: ConcatenationPart[] = task.header ? [{ text: task.header }] : [];
  if (task.first !== null && task.last !== null) {
    const pattern = outputFiles(jobId).find((o) => o.name === task.output)!.parts;
    // Listing starts just before the run's first key (keys are zero-padded line numbers).
    for await (const part of io.objects.list(io.artifactsBucket, bulkKeys(jobId).parts, task.first.slice(0, -1))) {
      if (part.key > task.last) break;
      if (part.key >= task.first && pattern.test(part.key)) sources.push(part);
    }
  }
  const bytes = sources.reduce((sum, s) => sum + ('text' in s ? Buffer.byteLength(s.text) : s.size), 0);
  if (bytes !== task.bytes) throw new Error(`Part ${task.part_number} of ${task.output} holds ${bytes} bytes, not the ${task.bytes} planned`);
  await io.objects.writePart(io.artifactsBucket, task.key, task.upload_id, task.part_number, sources);
  return { output: task.output, part_number: task.part_number, bytes };
}

export const handler = lambdaWorker(async (event: unknown) => assemblePart(bulkIo(), event));
