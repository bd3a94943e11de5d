import type { JobRecord } from '../platform/ports';
import type { ReportErrorType } from './error-types';
import type { AuthType, ReportStatusRecord, ReportVariant } from './schemas';

/**
 * The report job as the jobs table holds it. Everything a step needs past the request lives here or
 * in the artifacts bucket under `reports/<jobId>/`; the state machine passes only the job id and keys.
 * The delivery target (URLs and token) is sealed with the credentials key, bound to the job id, and
 * set to null once the job has ended and its callback was sent or given up.
 */
export const REPORT_JOB_KIND = 'report' as const;

/** How long a finished job stays readable on the status endpoint. */
export const REPORT_JOB_TTL_SECONDS = 7 * 24 * 3600;

/**
 * When an open report job is overdue and the five-minute sweep (workers/end-overdue-jobs-worker.ts)
 * fails it: its execution, started at creation, has certainly ended by then, whether it timed out,
 * was aborted, lost MarkFailed after its retries, or was lost with a restarted local runtime.
 */
export const REPORT_DEADLINE = {
  /** statemachines/report-generation.asl.json TimeoutSeconds (a unit test keeps the two equal). */
  executionTimeoutSeconds: 900,
  /** Room for a last step that began just before the timeout; one sweep interval (5 minutes). */
  marginSeconds: 300,
} as const;

export function reportDeadline(createdAt: Date): string {
  return new Date(createdAt.getTime() + (REPORT_DEADLINE.executionTimeoutSeconds + REPORT_DEADLINE.marginSeconds) * 1000).toISOString();
}

export function reportObjectKeys(jobId: string) {
  const prefix = `reports/${jobId}/`;
  return { prefix, input: `${prefix}input.json`, scores: `${prefix}scores.json`, pdf: `${prefix}report.pdf` };
}

/** What is sealed: every part of the configuration that grants access to the caller's systems. */
export interface DeliveryTarget {
  s3_presigned_url?: string;
  callback_url?: string;
  auth_type: AuthType;
  auth_token?: string;
  auth_key_name: string;
}

export function sealingContext(jobId: string): string {
  return `report-job:${jobId}`;
}

export interface ReportJobAttributes {
  variant: ReportVariant;
  /** presigned_url: the PDF goes to s3_presigned_url; callback: raw bytes PUT to callback_url. */
  deliveryMode: 'presigned_url' | 'callback';
  /** Whether a status callback is POSTed at the end. */
  notifies: boolean;
  sealedTarget: string | null;
  estimatedCompletionSeconds: number;
  /** SHA-256 of the accepted request, to tell a repeat from another request with the same Idempotency-Key. */
  requestDigest?: string;
  processingStartedAt?: string;
  scoredAt?: string;
  renderedAt?: string;
  deliveredAt?: string;
  completedAt?: string;
  failedAt?: string;
  /** The pre-signed URL without its query string (callback `s3_location`). */
  s3Location?: string | null;
  pdfBytes?: number;
  pdfPages?: number;
  errorType?: ReportErrorType | null;
  errorMessage?: string | null;
  errorDetails?: Record<string, unknown> | null;
}

export type ReportJob = JobRecord & ReportJobAttributes;

export type ReportStep = 'mark_processing' | 'score' | 'render' | 'deliver' | 'mark_completed';

/** The step a failed job stopped in, from the progress timestamps it recorded. */
export function failedStep(job: ReportJob): ReportStep {
  if (!job.processingStartedAt) return 'mark_processing';
  if (!job.scoredAt) return 'score';
  if (!job.renderedAt) return 'render';
  if (!job.deliveredAt) return 'deliver';
  return 'mark_completed';
}

/** §2.6: error fields are filled only for a failed job. */
export function toStatusRecord(job: ReportJob): ReportStatusRecord {
  const failed = job.status === 'failed';
  return {
    job_id: job.jobId,
    status: job.status as ReportStatusRecord['status'],
    created_at: job.createdAt,
    updated_at: job.updatedAt,
    error_type: failed ? (job.errorType ?? null) : null,
    error_message: failed ? (job.errorMessage ?? null) : null,
  };
}
