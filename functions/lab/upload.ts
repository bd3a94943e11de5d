import { HaleError, PayloadTooLargeError, UpstreamError, ValidationError } from '../http/errors';
import { TOO_LARGE_MESSAGE } from '../http/request-limits';
import { BlockedTargetError, type JobsRepository, type ObjectStore, type WorkflowStarter } from '../platform/ports';
import { consumeHourlyQuota } from '../platform/rate-limit';
import { BUCKETS, UPLOAD_LIMITS } from '../platform/resources';
import type { UploadRequest } from './api-schemas';
import { pendingUploadDeadline, processingDeadline } from './job-deadlines';
import type { LabJob } from './lab-job';
import { hasPdfSignature, hasPdfTrailer } from './pdf-signature';
import { dateOfBirthDigest } from './phi/date-of-birth';
import type { PipelineState } from './steps/pipeline-state';
import { labKeys } from './storage-keys';

/** What an upload needs from the platform; the handler wires the adapters, tests may wire others. */
export interface UploadServices {
  jobs: JobsRepository;
  objects: ObjectStore;
  workflows: WorkflowStarter;
  uploadsBucket: string;
  stateMachineArn: string;
  uploadsPerHour: number;
  /** Secret for the date-of-birth digest; read only when a date of birth is given. */
  credentialsKey: () => string;
  /** Rejects webhook targets that are not https or resolve to private addresses (BlockedTargetError). */
  assertSafeTarget: (url: string) => Promise<unknown>;
  newId: () => string;
  now: () => Date;
}

export type UploadOutcome =
  | { kind: 'queued'; jobId: string }
  | { kind: 'pending_upload'; jobId: string; uploadUrl: string; expiresAt: string; maxBytes: number };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DAY_SECONDS = 86_400;

function invalid(path: string, message: string): ValidationError {
  return new ValidationError([{ path, message }], 400);
}

/** Decodes `pdfFile`, enforcing the inline limit before decoding so an oversized body costs nothing more. */
function decodePdfFile(pdfFile: string): Buffer {
  const base64 = pdfFile.replace(/\s+/g, '');
  const decodedBytes = Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
  if (decodedBytes > UPLOAD_LIMITS.inlinePdfMaxBytes) throw new PayloadTooLargeError(TOO_LARGE_MESSAGE);
  if (!BASE64.test(base64)) throw invalid('body.pdfFile', 'must be base64-encoded');
  return Buffer.from(base64, 'base64');
}

function assertLooksLikePdf(bytes: Buffer): void {
  if (!hasPdfSignature(bytes)) throw new HaleError(400, 'invalid_pdf', 'pdfFile is not a PDF');
  if (!hasPdfTrailer(bytes)) throw new HaleError(400, 'invalid_pdf', 'pdfFile is not a complete PDF (it may be truncated)');
}

async function assertWebhookTarget(services: UploadServices, url: string | undefined): Promise<void> {
  if (url === undefined) return;
  try {
    await services.assertSafeTarget(url);
  } catch (error) {
    if (error instanceof BlockedTargetError) throw invalid('body.webhookUrl', error.message);
    throw error;
  }
}

/**
 * POST /extraction/lab/upload (spec §4.6): checks the webhook target and the PDF, counts the upload
 * against the key's hourly quota (only uploads that pass the checks count: a refused one costs the
 * caller nothing), then either stores the PDF and starts the pipeline (`queued`) or issues a
 * pre-signed PUT URL (`pending_upload`). The job records the tenant and never the date of birth (see
 * phi/date-of-birth.ts).
 */
export async function startLabUpload(services: UploadServices, tenant: string, request: UploadRequest): Promise<UploadOutcome> {
  await assertWebhookTarget(services, request.webhookUrl);
  const bytes = request.pdfFile === undefined ? undefined : decodePdfFile(request.pdfFile);
  if (bytes) assertLooksLikePdf(bytes);
  await consumeHourlyQuota(services.jobs, `lab-uploads#${tenant}`, services.uploadsPerHour, services.now());

  const now = services.now();
  const jobId = services.newId();
  const keys = labKeys(jobId);
  const job: LabJob & { expiresAt: number; deadlineAt: string } = {
    kind: 'lab',
    jobId,
    tenant,
    status: bytes ? 'queued' : 'pending_upload',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + BUCKETS.artifacts.expireAfterDays * DAY_SECONDS,
    deadlineAt: bytes ? processingDeadline(now) : pendingUploadDeadline(now),
    filename: request.filename ?? null,
    webhookUrl: request.webhookUrl ?? null,
    rejectIfPHI: request.rejectIfPHI,
    dobDigest: request.dateOfBirth ? dateOfBirthDigest(request.dateOfBirth, jobId, services.credentialsKey()) : null,
    ...(request.fhirSubject ? { fhirSubject: request.fhirSubject } : {}),
    stageTimes: {},
  };

  if (bytes) {
    // The job exists before its document does: the object-created notification must find it.
    await services.jobs.create(job);
    try {
      await services.objects.put(services.uploadsBucket, keys.document, bytes, 'application/pdf');
      const input: PipelineState = { jobId };
      await services.workflows.start(services.stateMachineArn, jobId, input);
    } catch (error) {
      // Without its document or its execution the job would stay queued for ever; end it, and let the
      // caller's retry start a new one. It stays due in the open-jobs index: the next sweep deletes a
      // document that was stored. Best effort: the original error is the one to report.
      await services.jobs
        .transition('lab', jobId, { from: ['queued'], to: 'failed', deadlineAt: services.now().toISOString(), set: { message: 'The document could not be stored; upload it again', finishedAt: services.now().toISOString() } })
        .catch(() => undefined);
      throw new UpstreamError('Storing the document or starting its processing failed', error);
    }
    return { kind: 'queued', jobId };
  }

  const expiresAt = new Date(now.getTime() + UPLOAD_LIMITS.presignedExpirySeconds * 1000).toISOString();
  await services.jobs.create({ ...job, uploadExpiresAt: expiresAt });
  const uploadUrl = await services.objects.presignPut(services.uploadsBucket, keys.document, {
    contentType: 'application/pdf',
    expiresInSeconds: UPLOAD_LIMITS.presignedExpirySeconds,
  });
  return { kind: 'pending_upload', jobId, uploadUrl, expiresAt, maxBytes: UPLOAD_LIMITS.presignedMaxBytes };
}
