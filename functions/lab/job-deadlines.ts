import { UPLOAD_LIMITS } from '../platform/resources';

/**
 * When an open lab job is overdue (its `deadlineAt`, read by the five-minute sweep in
 * steps/end-overdue-jobs.ts). Past it the job is ended `failed`, so no job stays open when its upload
 * never came, its execution timed out or was aborted, Finish failed after its retries, or the local
 * runtime restarted and lost the execution.
 */
export const LAB_DEADLINES = {
  /** statemachines/lab-extraction.asl.json TimeoutSeconds (a unit test keeps the two equal). */
  executionTimeoutSeconds: 3600,
  /**
   * After the execution's timeout: room for a Finish that began just before it and for the sweep not
   * to race an execution still writing. One sweep interval (5 minutes) plus the same again.
   */
  executionMarginSeconds: 600,
  /**
   * After the upload URL expires: a PUT that began just before expiry may still be arriving, and its
   * object-created notification (delivered asynchronously, usually within seconds) must move the job.
   */
  uploadMarginSeconds: 300,
} as const;

const after = (start: Date, seconds: number) => new Date(start.getTime() + seconds * 1000).toISOString();

/** pending_upload: the pre-signed URL, issued at `issuedAt`, has expired and no upload arrived. */
export function pendingUploadDeadline(issuedAt: Date): string {
  return after(issuedAt, UPLOAD_LIMITS.presignedExpirySeconds + LAB_DEADLINES.uploadMarginSeconds);
}

/** queued and processing: the execution started at `queuedAt` has certainly ended, whatever its outcome. */
export function processingDeadline(queuedAt: Date): string {
  return after(queuedAt, LAB_DEADLINES.executionTimeoutSeconds + LAB_DEADLINES.executionMarginSeconds);
}
