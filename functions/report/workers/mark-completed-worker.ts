import { cleanupRetryAt } from '../../platform/cleanup-retry';
import { JobTransitionError } from '../../platform/ports';
import { REPORT_JOB_KIND } from '../report-job';
import { stepContext } from './context';
import { reportStep, StepInputSchema } from './worker';

/** processing → completed, once the PDF was delivered. */
export const handler = reportStep('mark_completed', StepInputSchema, async ({ jobId }) => {
  try {
    await stepContext().jobs.transition(REPORT_JOB_KIND, jobId, {
      from: ['processing'],
      to: 'completed',
      // Ended, with its clean-up due: the Cleanup step (or, failing that, the sweep) takes it out of the index.
      deadlineAt: cleanupRetryAt(new Date()),
      set: { completedAt: new Date().toISOString() },
    });
  } catch (error) {
    if (!(error instanceof JobTransitionError && error.current === 'completed')) throw error;
  }
  return { jobId };
});
