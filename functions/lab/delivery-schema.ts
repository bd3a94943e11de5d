import { z } from '../http/zod';
import type { DeliveryAttempt } from '../platform/ports';

/** One webhook attempt as the status endpoint shows it (the shape of the ports' DeliveryAttempt). */
export const DeliveryAttemptSchema = z.object({
  attempt: z.number().int().positive(),
  at: z.iso.datetime(),
  target: z.enum(['webhook', 'callback', 'presigned_url']),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number(),
}) satisfies z.ZodType<DeliveryAttempt>;
