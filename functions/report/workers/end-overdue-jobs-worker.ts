import type { ScheduledEvent } from 'aws-lambda';
import { cleanupRetryAt } from '../../platform/cleanup-retry';
import { lambdaWorker } from '../../platform/lambda-worker';
import { logger } from '../../platform/observability';
import { JobTransitionError } from '../../platform/ports';
import { TIMEOUT_FAILURE } from '../failure';
import { failedStep, REPORT_JOB_KIND, type ReportJob } from '../report-job';
import { cleanUpJob } from './cleanup-worker';
import { type StepContext, stepContext } from './context';
import { sendStatusCallback } from './status-callback';

const ENDED = new Set(['completed', 'failed']);
const OPEN = ['pending', 'processing'];

/** Jobs one sweep ends at most (a few requests each, well within the worker's 60 s); the rest wait five minutes. */
const SWEEP_LIMIT = 100;

const errorName = (error: unknown) => (error instanceof Error ? error.name : typeof error);

/**
 * Ends every report job past its deadline (report-job.ts REPORT_DEADLINE) the way MarkFailed, Notify
 * and Cleanup end a failed one: `failed` with error_type `timeout`, the failure callback when a
 * callback_url was given (one attempt: there is no state machine left to retry it), then the target
 * forgotten and the artifacts deleted. A job the pipeline ended meanwhile is left to the pipeline,
 * unless its clean-up is overdue: then the sweep deletes its artifacts, as often as it takes.
 */
export async function endOverdueReportJobs(context: StepContext, now: Date): Promise<{ failed: number; cleanedUp: number }> {
  let failed = 0;
  let cleanedUp = 0;
  for (const { jobId } of await context.jobs.listOverdue(REPORT_JOB_KIND, now, SWEEP_LIMIT)) {
    try {
      const job = (await context.jobs.get(REPORT_JOB_KIND, jobId)) as ReportJob | undefined;
      if (!job) continue;
      if (ENDED.has(job.status)) {
        // Ended with its clean-up still due (the Cleanup step failed or never ran): retry it.
        await cleanUpJob(context, jobId);
        cleanedUp++;
        continue;
      }
      let ended: ReportJob;
      try {
        ended = (await context.jobs.transition(REPORT_JOB_KIND, jobId, {
          from: OPEN,
          to: 'failed',
          // Stays due until cleanUpJob below has run, so a failed clean-up is retried by the next sweep.
          deadlineAt: cleanupRetryAt(now),
          set: {
            errorType: TIMEOUT_FAILURE.type,
            errorMessage: TIMEOUT_FAILURE.message,
            errorDetails: { ...TIMEOUT_FAILURE.details, failed_step: failedStep(job), delivery_attempts: (job.deliveries as unknown[] | undefined)?.length ?? 0 },
            failedAt: new Date().toISOString(),
          },
        })) as ReportJob;
      } catch (error) {
        if (error instanceof JobTransitionError && error.current !== undefined && ENDED.has(error.current)) continue;
        throw error;
      }
      failed++;
      try {
        await sendStatusCallback(context, ended);
      } catch (error) {
        logger.warn('overdue report callback failed', { jobId, errorName: errorName(error) });
      }
      await cleanUpJob(context, jobId);
    } catch (error) {
      // One job that cannot be ended now must not keep the others open; the next sweep tries it again.
      logger.warn('overdue report job not ended', { jobId, errorName: errorName(error) });
    }
  }
  return { failed, cleanedUp };
}

/** Every five minutes (EventBridge schedule; the local runtime's timer). */
export const handler = lambdaWorker(async (event: Pick<ScheduledEvent, 'time'>) => {
  const sweep = await endOverdueReportJobs(stepContext(), new Date(event.time));
  logger.info('overdue report jobs swept', sweep);
  return sweep;
});
