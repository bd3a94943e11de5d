import { z } from '../http/zod';
import type { DeliveryAttempt } from '../platform/ports';

/** One webhook attempt as the status endpoint shows it (the shape of the ports' DeliveryAttempt). */
export const DeliveryAttemptSchema = z.object({
  attempt: z.number().int().positive().describe('1 for the first attempt of a delivery, counting up with each retry'),
  at: z.iso.datetime().describe('When the attempt started (ISO 8601, UTC)'),
  target: z.enum(['webhook', 'callback', 'presigned_url']).describe('What was called: webhook (webhookUrl), callback (callback_url) or presigned_url'),
  statusCode: z.number().int().nullable().describe('HTTP status the target answered; null when no answer came (network error, timeout, refused address)'),
  error: z.string().nullable().describe('Why the attempt failed, without the URL; null on success'),
  durationMs: z.number().describe('How long the attempt took, in milliseconds'),
}).describe('One attempt to deliver to the caller\'s endpoint') satisfies z.ZodType<DeliveryAttempt>;
