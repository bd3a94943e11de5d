import type { DeliveryAttempt, JobRecord } from '../platform/ports';
import { BULK_LIMITS } from './limits';
import type { InputType } from './results';
import type { BULK_STATES, BulkSummary } from './schemas';

/**
 * A bulk scoring job as the jobs table keeps it (no PHI: counts, keys, the caller's webhook URL).
 * States move one way: pending_upload → queued (the file arrived, the execution started) →
 * processing (the prepare step read it) → completed | failed.
 */
export const BULK_JOB_KIND = 'bulk';
export type BulkState = (typeof BULK_STATES)[number];
export const OPEN_BULK_STATES: readonly BulkState[] = ['pending_upload', 'queued', 'processing'];

/** Stable codes of a failed job (`error.type` in the status and the failure webhook). */
export type BulkErrorType = 'invalid_input' | 'input_too_large' | 'upload_expired' | 'job_timeout' | 'internal_error';

export interface ResultFile {
  key: string;
  size: number;
}

export interface BulkJob extends JobRecord {
  kind: typeof BULK_JOB_KIND;
  status: BulkState;
  inputType: InputType;
  webhookUrl: string | null;
  uploadExpiresAt: string;
  inputBytes?: number;
  itemsTotal?: number;
  itemsDone?: number;
  itemsFailed?: number;
  processingStartedAt?: string;
  finishedAt?: string;
  /** Counts and distributions, written by the finalise step (a few kB: fixed per domain). */
  summary?: BulkSummary;
  results?: { jsonl: ResultFile; csv: ResultFile; errors: ResultFile };
  errorType?: BulkErrorType;
  errorMessage?: string;
  deliveries?: DeliveryAttempt[];
}

export function isTerminal(status: string): boolean {
  return status === 'completed' || status === 'failed';
}

/** The statemachines/bulk-scoring.asl.json TimeoutSeconds (a unit test keeps the two equal). */
export const EXECUTION_TIMEOUT_SECONDS = 6 * 3600;
/** One five-minute sweep and as much again after a deadline, so the sweep never races a live execution. */
const DEADLINE_MARGIN_SECONDS = 600;

const after = (start: Date, seconds: number) => new Date(start.getTime() + seconds * 1000).toISOString();

/** pending_upload: the upload URL has expired and no upload arrived. */
export function pendingUploadDeadline(issuedAt: Date): string {
  return after(issuedAt, BULK_LIMITS.uploadUrlSeconds + DEADLINE_MARGIN_SECONDS);
}

/** queued and processing: the execution started at `queuedAt` has certainly ended. */
export function processingDeadline(queuedAt: Date): string {
  return after(queuedAt, EXECUTION_TIMEOUT_SECONDS + DEADLINE_MARGIN_SECONDS);
}

/** The job record outlives its result files (the artifacts bucket's lifecycle rule) by a day. */
export function jobExpiresAt(createdAt: Date): number {
  return Math.floor(createdAt.getTime() / 1000) + (BULK_LIMITS.retentionDays + 1) * 86_400 + EXECUTION_TIMEOUT_SECONDS;
}
