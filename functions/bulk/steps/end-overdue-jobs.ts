import type { ScheduledEvent } from 'aws-lambda';
import { jobsRepository } from '../../platform/dynamodb-jobs-repository';
import { lambdaWorker } from '../../platform/lambda-worker';
import { logger } from '../../platform/observability';
import { JobTransitionError, type OverdueJob } from '../../platform/ports';
import { BULK_JOB_KIND, isTerminal, OPEN_BULK_STATES } from '../bulk-job';
import type { BulkIo } from './io';

/** Jobs one sweep ends at most; the rest wait five minutes. */
const SWEEP_LIMIT = 100;

/**
 * Ends every bulk job past its deadline (bulk-job.ts) as failed: a pending upload that never came
 * (upload_expired), an execution that is certainly over — timed out, aborted, or lost with a local
 * runtime restart — without having ended its job (job_timeout). Each gets one webhook attempt.
 */
export async function endOverdueBulkJobs(io: BulkIo, overdueJobs: readonly OverdueJob[], now: Date): Promise<number> {
  // Loaded only when a job is overdue: most sweeps find none and need nothing but the table.
  const [{ sendBulkTerminalEvent }, { removeWorkingFiles }] = await Promise.all([import('../webhook'), import('./working-files')]);
  let ended = 0;
  for (const { jobId } of overdueJobs) {
    try {
      const job = await io.jobs.get(BULK_JOB_KIND, jobId);
      if (!job) continue;
      if (isTerminal(job.status)) {
        await io.jobs.transition(BULK_JOB_KIND, jobId, { from: [job.status], to: job.status, terminal: true });
        continue;
      }
      const upload = job.status === 'pending_upload';
      await io.jobs.transition(BULK_JOB_KIND, jobId, {
        from: OPEN_BULK_STATES,
        to: 'failed',
        terminal: true,
        set: {
          errorType: upload ? 'upload_expired' : 'job_timeout',
          errorMessage: upload ? 'No file was uploaded to the upload URL before it expired' : 'The job did not finish in time; submit it again',
          finishedAt: now.toISOString(),
        },
      });
      ended += 1;
      await removeWorkingFiles(io, jobId);
      await sendBulkTerminalEvent(io.jobs, jobId);
    } catch (error) {
      if (error instanceof JobTransitionError) continue;
      logger.warn('overdue bulk job not ended', { jobId, errorName: error instanceof Error ? error.name : typeof error });
    }
  }
  return ended;
}

/** Every five minutes (EventBridge schedule; the local runtime's timer). */
export const handler = lambdaWorker(async (event: Pick<ScheduledEvent, 'time'>): Promise<{ ended: number }> => {
  const now = new Date(event.time);
  const overdue = await jobsRepository().listOverdue(BULK_JOB_KIND, now, SWEEP_LIMIT);
  if (overdue.length === 0) return { ended: 0 };
  const { bulkIo } = await import('./io');
  const ended = await endOverdueBulkJobs(bulkIo(), overdue, now);
  logger.info('overdue bulk jobs ended', { ended });
  return { ended };
});
