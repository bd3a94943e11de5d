import { object, string, unknown, uuid } from 'zod';
import { lambdaWorker } from '../../platform/lambda-worker';
import { logger } from '../../platform/observability';
import { JobTransitionError } from '../../platform/ports';
import { BULK_JOB_KIND, type BulkErrorType, OPEN_BULK_STATES } from '../bulk-job';
import { removeWorkingFiles } from './working-files';
import { type BulkIo, bulkIo } from './io';

const InputSchema = object({
  job_id: uuid(),
  /** What the state machine's Catch put at $.error: the error name and its cause. */
  error: object({ Error: string(), Cause: unknown().optional() }),
});

/** A Lambda error's Cause is the runtime's JSON report `{errorType, errorMessage, trace}`. */
function messageOf(cause: unknown): string | undefined {
  if (typeof cause !== 'string') return undefined;
  try {
    const report = JSON.parse(cause) as { errorMessage?: unknown };
    return typeof report.errorMessage === 'string' ? report.errorMessage : undefined;
  } catch {
    return undefined;
  }
}

/** The caller's view of why the job failed: our own errors say what to fix; anything else says only that it failed. */
export function failureOf(error: string, cause: unknown): { type: BulkErrorType; message: string } {
  if (error === 'BulkInputInvalid') return { type: 'invalid_input', message: messageOf(cause) ?? 'The file is not a bulk input' };
  if (error === 'BulkInputTooLarge') return { type: 'input_too_large', message: messageOf(cause) ?? 'The file is too large' };
  if (error === 'States.Timeout') return { type: 'job_timeout', message: 'The job did not finish in time; submit it again, or split it' };
  return { type: 'internal_error', message: 'Scoring stopped because of an internal error; submit the job again' };
}

/** MarkFailed: every error the state machine catches ends the job here, with a stable error type. */
export async function markFailed(io: BulkIo, input: unknown, now: Date): Promise<{ job_id: string; notify: boolean }> {
  const { job_id: jobId, error } = InputSchema.parse(input);
  const failure = failureOf(error.Error, error.Cause);
  try {
    await io.jobs.transition(BULK_JOB_KIND, jobId, {
      from: OPEN_BULK_STATES,
      to: 'failed',
      terminal: true,
      set: { errorType: failure.type, errorMessage: failure.message, finishedAt: now.toISOString() },
    });
  } catch (transitionError) {
    // Already ended (swept as overdue, or a retry of this step after it wrote): nothing more to say.
    if (transitionError instanceof JobTransitionError) return { job_id: jobId, notify: false };
    throw transitionError;
  }
  logger.info('bulk job failed', { jobId, errorType: failure.type, error: error.Error });
  await removeWorkingFiles(io, jobId);
  return { job_id: jobId, notify: true };
}

export const handler = lambdaWorker(async (event: unknown) => markFailed(bulkIo(), event, new Date()));
