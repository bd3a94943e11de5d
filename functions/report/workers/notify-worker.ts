import { loadJob, stepContext } from './context';
import { sendStatusCallback } from './status-callback';
import { reportStep, StepInputSchema } from './worker';

/** POSTs the §2.7 status callback to callback_url when one was configured (success or failure alike). */
export const handler = reportStep('notify', StepInputSchema, async ({ jobId }) => {
  const context = stepContext();
  return { notified: await sendStatusCallback(context, await loadJob(context.jobs, jobId)) };
});
