import { cleanupRetryAt } from '../../platform/cleanup-retry';
import { z } from '../../http/zod';
import { logger } from '../../platform/observability';
import { JobTransitionError } from '../../platform/ports';
import { describeFailure } from '../failure';
import { failedStep, REPORT_JOB_KIND } from '../report-job';
import { loadJob, stepContext } from './context';
import { reportStep, StepFailureSchema, StepInputSchema } from './worker';

/** The Catch result Step Functions adds at `$.error`: a fault. */
const CaughtErrorSchema = z.object({ Error: z.string(), Cause: z.string().optional() });

/** The whole state: a failure a step returned (`$.failure`), or a fault a Catch caught (`$.error`). */
const MarkFailedInputSchema = StepInputSchema.extend({ error: CaughtErrorSchema.optional(), failure: StepFailureSchema.optional() }).refine(
  (input) => input.error !== undefined || input.failure !== undefined,
  'MarkFailed needs the failure a step returned or the error a Catch caught',
);

/** pending/processing → failed with error_type, error_message and details for the failure callback. */
export const handler = reportStep('mark_failed', MarkFailedInputSchema, async ({ jobId, error, failure: returned }) => {
  const { jobs } = stepContext();
  const job = await loadJob(jobs, jobId);
  const step = failedStep(job);
  const [errorName, cause] = returned ? [returned.error, returned.message] : [error!.Error, error!.Cause];
  const failure = describeFailure(errorName, cause, step);
  // The error's own name is for the logs only; the caller sees the stable error_type.
  logger.info('report job failed', { jobId, step, errorName, errorType: failure.type });
  try {
    await jobs.transition(REPORT_JOB_KIND, jobId, {
      from: ['pending', 'processing'],
      to: 'failed',
      deadlineAt: cleanupRetryAt(new Date()),
      set: {
        errorType: failure.type,
        errorMessage: failure.message,
        errorDetails: { ...failure.details, failed_step: step, delivery_attempts: (job.deliveries as unknown[] | undefined)?.length ?? 0 },
        failedAt: new Date().toISOString(),
      },
    });
  } catch (caught) {
    // Already ended (a retried step, or a failure after the job completed): the record keeps its outcome.
    if (!(caught instanceof JobTransitionError && (caught.current === 'failed' || caught.current === 'completed'))) throw caught;
  }
  return { jobId };
});
