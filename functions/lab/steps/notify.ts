import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { setting } from '../../platform/config';
import { logger, metrics } from '../../platform/observability';
import { outboundHttp } from '../../platform/outbound-http';
import { signWebhook } from '../../platform/webhook-signing';
import { isTerminal } from '../job-states';
import { asLabJob } from '../lab-job';
import { type ExtractionResults, ExtractionResultsSchema } from '../results-schema';
import { labKeys } from '../storage-keys';
import { attemptDelivery } from '../webhooks/deliver';
import { webhookEnvelope, webhookMessageId } from '../webhooks/envelope';
import { type PipelineIo, pipelineIo, readJson } from './pipeline-io';
import { NotifyInputSchema } from './pipeline-state';
import { WebhookDeliveryFailed } from './step-errors';
import { labWorker } from './worker';

/**
 * One attempt to send a finished job's terminal event to its webhook, recorded on the job (visible as
 * `deliveries`); the job's state never depends on the outcome. Answers whether it was delivered and,
 * if not, whether another attempt may succeed. Nothing is sent for a job without a webhook.
 */
export async function sendTerminalEvent(io: PipelineIo, jobId: string): Promise<{ delivered: boolean; retry: boolean }> {
  const record = await io.jobs.get('lab', jobId);
  if (!record || typeof record.webhookUrl !== 'string' || !isTerminal(record.status)) return { delivered: false, retry: false };
  const job = asLabJob(record);
  const results =
    job.status === 'completed' ? ExtractionResultsSchema.parse(await readJson<ExtractionResults>(io, labKeys(job.jobId).results)) : undefined;
  const messageId = webhookMessageId(job);
  const outcome = await attemptDelivery({
    http: outboundHttp(),
    url: record.webhookUrl,
    envelope: webhookEnvelope(job, results),
    apiKey: setting('HALE_WEBHOOK_API_KEY'),
    sign: (payload, at) => signWebhook(payload, messageId, at),
    attempt: (job.deliveries?.length ?? 0) + 1,
  });
  await io.jobs.recordDelivery('lab', job.jobId, outcome.record);
  logger.info('webhook attempt', { jobId: job.jobId, attempt: outcome.record.attempt, statusCode: outcome.record.statusCode, retry: outcome.retry });
  if (outcome.record.error === null) return { delivered: true, retry: false };
  // The dashboard's webhook-failure alarm counts this metric (infra/observability.ts).
  metrics.addMetric('WebhookDeliveryFailed', MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
  return { delivered: false, retry: outcome.retry };
}

/**
 * The state machine's Notify, one attempt per invocation: it retries this task with exponential
 * backoff when it throws WebhookDeliveryFailed.
 */
export const handler = labWorker(async (event: unknown): Promise<{ delivered: boolean }> => {
  const input = NotifyInputSchema.parse(event);
  if (!input.notify) return { delivered: false };
  const sent = await sendTerminalEvent(pipelineIo(), input.jobId);
  if (sent.retry) throw new WebhookDeliveryFailed(`Webhook attempt for job ${input.jobId} failed`);
  return { delivered: sent.delivered };
});
