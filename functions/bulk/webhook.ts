import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { attemptDelivery } from '../lab/webhooks/deliver';
import { setting } from '../platform/config';
import { logger, metrics } from '../platform/observability';
import { outboundHttp } from '../platform/outbound-http';
import type { JobsRepository } from '../platform/ports';
import { signWebhook } from '../platform/webhook-signing';
import { type BulkJob, BULK_JOB_KIND, isTerminal } from './bulk-job';

/**
 * The webhook of a finished bulk job, sent like a lab job's (POST with the webhook API key and a
 * Standard Webhooks signature, retried by the state machine, every attempt recorded): the outcome and
 * the counts, never results; the receiver fetches the status for download URLs and the summary.
 */
export function bulkWebhookEnvelope(job: BulkJob) {
  const status = job.status === 'completed' ? 'completed' : 'failed';
  return {
    event: `bulk.${status}`,
    jobId: job.jobId,
    timestamp: job.finishedAt ?? job.updatedAt,
    data: {
      status,
      progress: { items_total: job.itemsTotal ?? null, items_done: job.itemsDone ?? 0, items_failed: job.itemsFailed ?? 0 },
      error: status === 'failed' ? { type: job.errorType ?? 'internal_error', message: job.errorMessage ?? 'The job could not be completed' } : null,
      results_ready: status === 'completed',
    },
  };
}

/** One delivery attempt for a finished job with a webhook; says whether another attempt may help. */
export async function sendBulkTerminalEvent(jobs: JobsRepository, jobId: string): Promise<{ delivered: boolean; retry: boolean }> {
  const record = await jobs.get(BULK_JOB_KIND, jobId);
  if (!record || typeof record.webhookUrl !== 'string' || !isTerminal(record.status)) return { delivered: false, retry: false };
  const job = record as BulkJob;
  const messageId = `msg_${job.jobId}_${job.status}`;
  const outcome = await attemptDelivery({
    http: outboundHttp(),
    url: job.webhookUrl!,
    envelope: bulkWebhookEnvelope(job),
    apiKey: setting('HALE_WEBHOOK_API_KEY'),
    sign: (payload, at) => signWebhook(payload, messageId, at),
    attempt: (job.deliveries?.length ?? 0) + 1,
  });
  await jobs.recordDelivery(BULK_JOB_KIND, job.jobId, outcome.record);
  logger.info('bulk webhook attempt', { jobId, attempt: outcome.record.attempt, statusCode: outcome.record.statusCode, retry: outcome.retry });
  if (outcome.record.error === null) return { delivered: true, retry: false };
  metrics.addMetric('WebhookDeliveryFailed', MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
  return { delivered: false, retry: outcome.retry };
}
