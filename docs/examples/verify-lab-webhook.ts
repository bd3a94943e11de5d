import { timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * How a receiver verifies a Hale lab webhook, with the `standardwebhooks` package (npm). Pass the raw
 * request body exactly as received (not re-serialised JSON) and the request headers. Throws when the
 * X-API-Key is not your webhook key, or the signature, id or timestamp (5 minutes' tolerance) does
 * not verify; returns the event. Deduplicate on the `webhook-id` header: retries of one event share it.
 * README.md shows these lines; test/integration/lab/lab-api.test.ts runs them on real deliveries.
 */
export function verifyLabWebhook(rawBody: string, headers: Record<string, string>, keys: { apiKey: string; signingSecret: string }): unknown {
  const offered = Buffer.from(headers['x-api-key'] ?? '');
  const expected = Buffer.from(keys.apiKey);
  if (offered.length !== expected.length || !timingSafeEqual(offered, expected)) throw new Error('Unknown X-API-Key');
  return new Webhook(keys.signingSecret).verify(rawBody, headers);
}
