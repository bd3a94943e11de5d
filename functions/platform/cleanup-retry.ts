/**
 * How clean-up of an ended job's files is retried until it succeeds. A job ends (its terminal status is
 * written, its caller informed) but stays in the open-jobs index, due at `cleanupRetryAt`, until its
 * files are deleted; the step that deletes them takes it out. If that step fails (an S3 error, a crash),
 * the five-minute sweep of its area finds the ended job overdue, deletes the files and only then takes
 * it out, and tries again on every sweep until it succeeds. So nothing a job stored outlives its end by
 * more than CLEANUP_RETRY_SECONDS plus one sweep interval, unless S3 keeps refusing.
 */
export const CLEANUP_RETRY_SECONDS = 600;

export function cleanupRetryAt(endedAt: Date): string {
  return new Date(endedAt.getTime() + CLEANUP_RETRY_SECONDS * 1000).toISOString();
}
