import { logger } from '../../platform/observability';
import { bulkKeys, bulkPrefix } from '../storage-keys';
import type { BulkIo } from './io';

/** Removes what the job no longer needs; the bucket's lifecycle rule removes anything left behind. */
export async function removeWorkingFiles(io: BulkIo, jobId: string): Promise<void> {
  const keys = bulkKeys(jobId);
  const removals = [io.objects.deletePrefix(io.artifactsBucket, keys.parts), io.objects.deletePrefix(io.artifactsBucket, keys.mapRun), io.objects.deletePrefix(io.uploadsBucket, bulkPrefix(jobId))];
  const failed = (await Promise.allSettled(removals)).filter((r) => r.status === 'rejected');
  if (failed.length > 0) logger.warn('bulk working files left for the lifecycle rule', { jobId, failures: failed.length });
}
