import { authHeaders, checkDeliveryStatus, statusCallback } from '../delivery';
import { deliveryTarget, loadJob, stepContext } from './context';
import { sendRecorded } from './send-recorded';
import { reportStep, StepInputSchema } from './worker';

/** POSTs the §2.7 status callback to callback_url when one was configured (success or failure alike). */
export const handler = reportStep('notify', StepInputSchema, async ({ jobId }) => {
  const { jobs, http } = stepContext();
  const job = await loadJob(jobs, jobId);
  const target = deliveryTarget(job);
  if (!job.notifies || !target?.callback_url) return { notified: false };
  const status = await sendRecorded({ jobs, http }, job, 'webhook', {
    url: target.callback_url,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-job-id': jobId, ...authHeaders(target) },
    body: JSON.stringify(statusCallback(job)),
  });
  checkDeliveryStatus(status, 'callback', 'The status callback');
  return { notified: true };
});
