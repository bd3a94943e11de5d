import type { DeliveryAttempt } from '../../platform/ports';
import { authHeaders, checkDeliveryStatus, statusCallback } from '../delivery';
import type { ReportJob } from '../report-job';
import { deliveryTarget, type StepContext } from './context';
import { sendRecorded } from './send-recorded';

/** A status callback the receiver answered with 2xx. */
const acknowledgedCallback = (attempt: DeliveryAttempt) => attempt.target === 'webhook' && attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;

/**
 * POSTs the §2.7 status callback of an ended job to its callback_url, recorded in its delivery log;
 * false when none was configured or the target is already forgotten. A refused or failed request
 * throws the pipeline error the state machine retries or gives up on (delivery.ts).
 */
export async function sendStatusCallback(context: Pick<StepContext, 'jobs' | 'http'>, job: ReportJob): Promise<boolean> {
  const target = deliveryTarget(job);
  if (!job.notifies || !target?.callback_url) return false;
  // Acknowledged already (Notify re-run by a redrive after a crash): the caller gets it once.
  if (((job.deliveries as DeliveryAttempt[] | undefined) ?? []).some(acknowledgedCallback)) return true;
  const status = await sendRecorded(context, job, 'webhook', {
    url: target.callback_url,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-job-id': job.jobId, ...authHeaders(target) },
    body: JSON.stringify(statusCallback(job)),
  });
  checkDeliveryStatus(status, 'callback', 'The status callback');
  return true;
}
