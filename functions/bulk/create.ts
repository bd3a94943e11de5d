import { PayloadTooLargeError, ValidationError } from '../http/errors';
import { BlockedTargetError, type JobsRepository, type ObjectStore } from '../platform/ports';
import { type BulkJob, BULK_JOB_KIND, jobExpiresAt, pendingUploadDeadline } from './bulk-job';
import { BULK_LIMITS } from './limits';
import type { BulkCreateRequest, BulkCreateResponse } from './schemas';
import { bulkKeys } from './storage-keys';

export interface CreateServices {
  jobs: JobsRepository;
  objects: ObjectStore;
  uploadsBucket: string;
  assertSafeTarget: (url: string) => Promise<unknown>;
  newId: () => string;
  now: () => Date;
}

const CONTENT_TYPES = { jsonl: 'application/x-ndjson', csv: 'text/csv' } as const;

/**
 * POST /health-score/bulk: a job waiting for its file, and a pre-signed URL to PUT the file to. The
 * content type and the declared size are signed into it, so S3 itself refuses an upload of another
 * size (a pre-signed PUT can bind a size only exactly); a size over the limit is refused here, before
 * any job exists. The webhook target is checked now, so a bad one fails the request, not the job.
 */
export async function createBulkJob(services: CreateServices, tenant: string, request: BulkCreateRequest): Promise<BulkCreateResponse> {
  if (request.size_bytes !== undefined && request.size_bytes > BULK_LIMITS.maxInputBytes) {
    throw new PayloadTooLargeError(`The file holds ${request.size_bytes} bytes; a bulk input holds at most ${BULK_LIMITS.maxInputBytes} (split it into several jobs)`);
  }
  if (request.webhookUrl !== undefined) {
    try {
      await services.assertSafeTarget(request.webhookUrl);
    } catch (error) {
      if (error instanceof BlockedTargetError) throw new ValidationError([{ path: 'body.webhookUrl', message: error.message }]);
      throw error;
    }
  }
  const now = services.now();
  const jobId = services.newId();
  const expiresAt = new Date(now.getTime() + BULK_LIMITS.uploadUrlSeconds * 1000).toISOString();
  const job: BulkJob = {
    kind: BULK_JOB_KIND,
    jobId,
    tenant,
    status: 'pending_upload',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    expiresAt: jobExpiresAt(now),
    deadlineAt: pendingUploadDeadline(now),
    inputType: request.format === 'csv' ? 'CSV' : 'JSONL',
    webhookUrl: request.webhookUrl ?? null,
    uploadExpiresAt: expiresAt,
  };
  await services.jobs.create(job);
  const contentType = CONTENT_TYPES[request.format];
  const uploadUrl = await services.objects.presignPut(services.uploadsBucket, bulkKeys(jobId).input, {
    contentType,
    contentLength: request.size_bytes,
    expiresInSeconds: BULK_LIMITS.uploadUrlSeconds,
  });
  return { job_id: jobId, upload_url: uploadUrl, upload_content_type: contentType, expires_at: expiresAt, max_bytes: BULK_LIMITS.maxInputBytes };
}
