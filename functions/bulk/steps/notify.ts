import { boolean, object, uuid } from 'zod';
import { jobsRepository } from '../../platform/dynamodb-jobs-repository';
import { lambdaWorker } from '../../platform/lambda-worker';
import { sendBulkTerminalEvent } from '../webhook';
import { WebhookDeliveryFailed } from './errors';

const InputSchema = object({ job_id: uuid(), notify: boolean().default(true) });

/** Notify: one webhook attempt per invocation; the state machine retries it with backoff. */
export const handler = lambdaWorker(async (event: unknown): Promise<{ delivered: boolean }> => {
  const input = InputSchema.parse(event);
  if (!input.notify) return { delivered: false };
  const sent = await sendBulkTerminalEvent(jobsRepository(), input.job_id);
  if (sent.retry) throw new WebhookDeliveryFailed(`Webhook attempt for bulk job ${input.job_id} failed`);
  return { delivered: sent.delivered };
});
