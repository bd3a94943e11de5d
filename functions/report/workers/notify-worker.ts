import { loadJob, stepContext } from './context';
import { tryDelivery } from './delivery-attempt';
import { nextAttempt } from './send-recorded';
import { sendStatusCallback } from './status-callback';
import { reportStep, StepInputSchema } from './worker';

/**
 * POSTs the §2.7 status callback to callback_url when one was configured (success or failure alike).
 * A callback target that is down answers `retryInSeconds` (the state machine waits and calls again);
 * one that refuses, or is still down at the last attempt, is given up: the job keeps its state.
 */
export const handler = reportStep('notify', StepInputSchema, async ({ jobId }): Promise<{ notified: boolean; retryInSeconds?: number }> => {
  const context = stepContext();
  const job = await loadJob(context.jobs, jobId);
  const sent = await tryDelivery(nextAttempt(job, 'webhook'), () => sendStatusCallback(context, job));
  if (sent.delivered) return { notified: sent.value };
  return sent.retryInSeconds === undefined ? { notified: false } : { notified: false, retryInSeconds: sent.retryInSeconds };
});
