import { object, string, uuid } from 'zod';
import { lambdaWorker } from '../../platform/lambda-worker';
import { logger } from '../../platform/observability';
import { type AssemblyTask, type OutputName, outputFiles, TARGET_PART_BYTES } from '../assembly';
import { bulkKeys } from '../storage-keys';
import { type BulkIo, bulkIo } from './io';

const InputSchema = object({
  job_id: uuid(),
  map: object({ ResultWriterDetails: object({ Bucket: string(), Key: string() }) }),
});

interface MapRunManifest {
  ResultFiles: Record<'SUCCEEDED' | 'FAILED' | 'PENDING', { Key: string; Size: number }[]>;
}

export interface AssemblyPlan {
  job_id: string;
  plan_bucket: string;
  plan_key: string;
  uploads: Record<OutputName, { key: string; upload_id: string }>;
  tasks: number;
}

/**
 * PlanAssembly: the Map Run must have scored every batch (its manifest lists no failed or pending
 * child). Each result file's multipart upload starts, and the part files are listed once, in input
 * order, into runs of about TARGET_PART_BYTES: one plan line per part, written to S3 for the
 * assembling Distributed Map to read.
 */
export async function planAssembly(io: BulkIo, input: unknown): Promise<AssemblyPlan> {
  const { job_id: jobId, map } = InputSchema.parse(input);
  const manifest = JSON.parse((await io.objects.get(map.ResultWriterDetails.Bucket, map.ResultWriterDetails.Key)).body.toString('utf8')) as MapRunManifest;
  if ((manifest.ResultFiles.FAILED ?? []).length > 0 || (manifest.ResultFiles.PENDING ?? []).length > 0) {
    throw new Error(`The Map Run of bulk job ${jobId} has batches that did not succeed`);
  }
  const outputs = outputFiles(jobId);
  const uploads = Object.fromEntries(
    await Promise.all(outputs.map(async (o) => [o.name, { key: o.key, upload_id: await io.objects.startMultipart(io.artifactsBucket, o.key, o.contentType) }] as const)),
  ) as AssemblyPlan['uploads'];
  let tasks = 0;
  const lines = async function* () {
    for (const output of outputs) {
      const header = output.header ?? '';
      let run: AssemblyTask | undefined;
      let partNumber = 0;
      const open = (): AssemblyTask => ({
        output: output.name,
        key: output.key,
        upload_id: uploads[output.name].upload_id,
        part_number: ++partNumber,
        first: null,
        last: null,
        bytes: partNumber === 1 ? Buffer.byteLength(header) : 0,
        ...(partNumber === 1 && header ? { header } : {}),
      });
      for await (const part of io.objects.list(io.artifactsBucket, bulkKeys(jobId).parts)) {
        if (!output.parts.test(part.key)) continue;
        run ??= open();
        run.first ??= part.key;
        run.last = part.key;
        run.bytes += part.size;
        if (run.bytes >= TARGET_PART_BYTES) {
          tasks += 1;
          yield { text: `${JSON.stringify(run)}\n` };
          run = undefined;
        }
      }
      // The last part may be of any size; a file with nothing to hold still gets its one (header or empty) part.
      if (run || partNumber === 0) {
        tasks += 1;
        yield { text: `${JSON.stringify(run ?? open())}\n` };
      }
    }
  };
  const planKey = `${bulkKeys(jobId).mapRun}/assembly-plan.jsonl`;
  await io.objects.concatenate(io.artifactsBucket, planKey, lines(), 'application/x-ndjson');
  logger.info('bulk assembly planned', { jobId, tasks });
  return { job_id: jobId, plan_bucket: io.artifactsBucket, plan_key: planKey, uploads, tasks };
}

export const handler = lambdaWorker(async (event: unknown) => planAssembly(bulkIo(), event));
