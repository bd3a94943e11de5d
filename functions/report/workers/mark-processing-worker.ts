import { JobTransitionError } from '../../platform/ports';
import { REPORT_JOB_KIND } from '../report-job';
import { stepContext } from './context';
import { reportStep, StepInputSchema } from './worker';

/** pending → processing. A re-run of this step (Lambda retry) finds the job processing already. */
export const handler = reportStep('mark_processing', StepInputSchema, async ({ jobId }) => {
  try {
    await stepContext().jobs.transition(REPORT_JOB_KIND, jobId, {
      from: ['pending'],
      to: 'processing',
      set: { processingStartedAt: new Date().toISOString() },
    });
  } catch (error) {
    if (!(error instanceof JobTransitionError && error.current === 'processing')) throw error;
  }
  return { jobId };
});
