import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { setting } from '../../platform/config';
import { DELIVERY_FAILED_METRICS, type RetryPolicy, retryDelaySeconds } from '../../platform/delivery-retry';
import { logger, metrics } from '../../platform/observability';
import type { DeliveryAttempt } from '../../platform/ports';
import { outboundHttp } from '../../platform/outbound-http';
import { signWebhook } from '../../platform/webhook-signing';
import { isTerminal } from '../job-states';
import { asLabJob } from '../lab-job';
import { type ExtractionResults, ExtractionResultsSchema } from '../results-schema';
import { labKeys } from '../storage-keys';
import { attemptDelivery } from '../webhooks/deliver';
import { webhookEnvelope, webhookMessageId } from '../webhooks/envelope';
import { type PipelineIo, pipelineIo, readJson } from './pipeline-io';
import { NotifyInputSchema, type NotifyResult } from './pipeline-state';
import { labWorker } from './worker';

/**
 * Lab webhooks: six attempts, 5 s after the first failure and three times longer each time (5, 15,
 * 45, 135, 405 s: about ten minutes in all), as spec §6.2's "retried with exponential backoff".
 */
export const WEBHOOK_RETRY: RetryPolicy = { attempts: 6, firstDelaySeconds: 5, backoffRate: 3 };

/**
 * One attempt to send a finished job's terminal event to its webhook, recorded on the job (visible as
 * `deliveries`); the job's state never depends on the outcome. Answers whether it was delivered and,
 * if not and `policy` allows another attempt, how long to wait for it. The last failed attempt (or one
 * refused by the outbound guard) counts once in the WebhookDeliveryFailed metric, which an alarm
 * watches. Nothing is sent for a job without a webhook, nor again for one whose event a receiver
 * already acknowledged (Notify re-run by a redrive after a crash).
 */
export async function sendTerminalEvent(io: PipelineIo, jobId: string, policy: RetryPolicy): Promise<NotifyResult> {
  const record = await io.jobs.get('lab', jobId);
  if (!record || typeof record.webhookUrl !== 'string' || !isTerminal(record.status)) return { delivered: false };
  if ((record.deliveries as DeliveryAttempt[] | undefined)?.some((attempt) => attempt.error === null)) return { delivered: true };
  const job = asLabJob(record);
  const results =
    job.status === 'completed' ? ExtractionResultsSchema.parse(await readJson<ExtractionResults>(io, labKeys(job.jobId).results)) : undefined;
  const messageId = webhookMessageId(job);
  const attempt = (job.deliveries?.length ?? 0) + 1;
  const outcome = await attemptDelivery({
    http: outboundHttp(),
    url: record.webhookUrl,
    envelope: webhookEnvelope(job, results),
    apiKey: setting('HALE_WEBHOOK_API_KEY'),
    sign: (payload, at) => signWebhook(payload, messageId, at),
    attempt,
  });
  await io.jobs.recordDelivery('lab', job.jobId, outcome.record);
  const retryInSeconds = outcome.retry ? retryDelaySeconds(policy, attempt) : undefined;
  logger.info('webhook attempt', { jobId: job.jobId, attempt, statusCode: outcome.record.statusCode, retryInSeconds });
  if (outcome.record.error === null) return { delivered: true };
  if (retryInSeconds !== undefined) return { delivered: false, retryInSeconds };
  metrics.addMetric(DELIVERY_FAILED_METRICS.webhook, MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
  return { delivered: false };
}

/**
 * The state machine's Notify, one attempt per invocation. A failed attempt is a result: with
 * `retryInSeconds` the machine waits that long and calls Notify again.
 */
export const handler = labWorker(async (event: unknown): Promise<NotifyResult> => {
  const input = NotifyInputSchema.parse(event);
  if (!input.notify) return { delivered: false };
  return sendTerminalEvent(pipelineIo(), input.jobId, WEBHOOK_RETRY);
});
