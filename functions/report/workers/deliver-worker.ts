import { z } from '../../http/zod';
import type { OutboundRequest } from '../../platform/ports';
import { authHeaders, checkDeliveryStatus, fileCallbackUrl, objectLocation } from '../delivery';
import { REPORT_JOB_KIND } from '../report-job';
import { deliveryTarget, loadJob, stepContext } from './context';
import { tryDelivery } from './delivery-attempt';
import { label, nextAttempt, sendRecorded } from './send-recorded';
import { reportStep, type StepFailure, StepInputSchema } from './worker';

/** Delivered; or wait and call again; or the job ends with this failure. */
type DeliverResult = { delivered: true } | { retryInSeconds: number } | { failure: StepFailure };

/** Generous for a few hundred KB to a slow receiver; Step Functions retries on timeout. */
const DELIVERY_TIMEOUT_MS = 30_000;

export class DeliveryTargetMissingError extends Error {
  override name = 'DeliveryTargetMissingError';
}

/**
 * PUTs the PDF to the pre-signed URL, or as raw bytes to callback_url (job id in the `job_id` query
 * parameter and the X-Job-Id header, with the configured auth header). Every attempt is recorded on
 * the job. After a 2xx the artifact is deleted: Hale keeps no copy of a delivered report. A target
 * that is down answers `retryInSeconds` (the state machine waits and calls again); one that refuses,
 * or is still down at the last attempt, ends the job with `failure`.
 */
export const handler = reportStep('deliver', StepInputSchema.extend({ pdfKey: z.string() }), async ({ jobId, pdfKey }): Promise<DeliverResult> => {
  const { jobs, objects, http, bucket } = stepContext();
  const job = await loadJob(jobs, jobId);
  // A re-run after a delivery that succeeded but whose Lambda response was lost.
  if (job.deliveredAt) return { delivered: true };
  const target = deliveryTarget(job);
  if (!target) throw new DeliveryTargetMissingError('The delivery target was already removed from the job');

  const pdf = await objects.get(bucket, pdfKey);
  const presigned = target.s3_presigned_url;
  const kind = presigned ? ('presigned_url' as const) : ('callback' as const);
  const request: OutboundRequest = presigned
    ? { url: presigned, method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: pdf.body, timeoutMs: DELIVERY_TIMEOUT_MS }
    : {
        url: fileCallbackUrl(target.callback_url!, jobId),
        method: 'PUT',
        headers: { 'content-type': 'application/pdf', 'x-job-id': jobId, ...authHeaders(target) },
        body: pdf.body,
        timeoutMs: DELIVERY_TIMEOUT_MS,
      };

  const sent = await tryDelivery(nextAttempt(job, kind), async () => {
    checkDeliveryStatus(await sendRecorded({ jobs, http }, job, kind, request), kind, `The ${label(kind)}`);
  });
  if (!sent.delivered) return sent.retryInSeconds === undefined ? { failure: sent.failure } : { retryInSeconds: sent.retryInSeconds };

  await jobs.update(REPORT_JOB_KIND, jobId, {
    deliveredAt: new Date().toISOString(),
    s3Location: presigned ? objectLocation(presigned) : null,
  });
  await objects.delete(bucket, pdfKey);
  return { delivered: true };
});
