import { BlockedTargetError, type DeliveryAttempt, type OutboundHttp, OutboundRequestError } from '../../platform/ports';
import type { WebhookSignatureHeaders } from '../../platform/webhook-signing';

/** The body of any Hale webhook: `{event, jobId, timestamp, data}` (lab: ./envelope.ts; bulk scoring: functions/bulk). */
interface WebhookBody {
  event: string;
  jobId: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** Receivers get this long to answer one attempt. */
const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookAttempt {
  record: DeliveryAttempt;
  /** Whether another attempt may help: not after a 2xx, nor when the target is refused by policy. */
  retry: boolean;
}

/**
 * One delivery attempt of an envelope: POST with the webhook API key (spec §5.3) and a Standard
 * Webhooks signature made for this attempt. Never throws for the receiver's failures; it reports them.
 */
export async function attemptDelivery(options: {
  http: OutboundHttp;
  url: string;
  envelope: WebhookBody;
  apiKey: string;
  sign: (payload: string, at: Date) => WebhookSignatureHeaders;
  attempt: number;
  now?: () => Date;
}): Promise<WebhookAttempt> {
  const now = options.now ?? (() => new Date());
  const body = JSON.stringify(options.envelope);
  const at = now();
  const started = performance.now();
  const record = (statusCode: number | null, error: string | null): DeliveryAttempt => ({
    attempt: options.attempt,
    at: at.toISOString(),
    target: 'webhook',
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  try {
    const response = await options.http.send({
      url: options.url,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': options.apiKey, ...options.sign(body, at) },
      body,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
    });
    const ok = response.status >= 200 && response.status < 300;
    return { record: record(response.status, ok ? null : `HTTP ${response.status}`), retry: !ok };
  } catch (error) {
    if (error instanceof BlockedTargetError) return { record: record(null, `target refused: ${error.message}`), retry: false };
    if (error instanceof OutboundRequestError) return { record: record(null, error.reason), retry: true };
    throw error;
  }
}
