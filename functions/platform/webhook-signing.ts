import { Webhook } from 'standardwebhooks';
import { ConfigError, setting } from './config';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com, the spec the `standardwebhooks`
 * package implements): the receiver recomputes `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<payload>">` with the shared `whsec_` secret, checks
 * the timestamp is recent, and uses `webhook-id` to drop duplicates.
 */
export interface WebhookSignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The Standard Webhooks specification asks for secrets of at least 24 random bytes. */
const MIN_SECRET_BYTES = 24;

function signer(secret: string): Webhook {
  const bytes = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  if (bytes.length < MIN_SECRET_BYTES) {
    throw new ConfigError(`HALE_WEBHOOK_SIGNING_SECRET must hold at least ${MIN_SECRET_BYTES} bytes after whsec_`);
  }
  return new Webhook(secret);
}

/**
 * Headers that sign `payload` (the exact bytes sent). `messageId` must stay the same across retries
 * of one event, so receivers can deduplicate; the timestamp is that of this attempt.
 */
export function signWebhook(
  payload: string,
  messageId: string,
  at: Date = new Date(),
  secret: string = setting('HALE_WEBHOOK_SIGNING_SECRET'),
): WebhookSignatureHeaders {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signer(secret).sign(messageId, at, payload),
  };
}
