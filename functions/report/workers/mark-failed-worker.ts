import { z } from '../../http/zod';
import { JobTransitionError } from '../../platform/ports';
import { describeFailure } from '../failure';
import { failedStep, REPORT_JOB_KIND } from '../report-job';
import { loadJob, stepContext } from './context';
import { reportStep, StepInputSchema } from './worker';

/** The Catch result Step Functions adds at `$.error`. */
const CaughtErrorSchema = z.object({ Error: z.string(), Cause: z.string().optional() });

/** pending/processing → failed with error_type, error_message and details for the failure callback. */
export const handler = reportStep('mark_failed', StepInputSchema.extend({ error: CaughtErrorSchema }), async ({ jobId, error }) => {
  const { jobs } = stepContext();
  const job = await loadJob(jobs, jobId);
  const failure = describeFailure(error.Error, error.Cause);
  try {
    await jobs.transition(REPORT_JOB_KIND, jobId, {
      from: ['pending', 'processing'],
      to: 'failed',
      terminal: true,
      set: {
        errorType: failure.type,
        errorMessage: failure.message,
        errorDetails: { ...failure.details, failed_step: failedStep(job), delivery_attempts: (job.deliveries as unknown[] | undefined)?.length ?? 0 },
        failedAt: new Date().toISOString(),
      },
    });
  } catch (caught) {
    // Already ended (a retried step, or a failure after the job completed): the record keeps its outcome.
    if (!(caught instanceof JobTransitionError && (caught.current === 'failed' || caught.current === 'completed'))) throw caught;
  }
  return { jobId };
});
