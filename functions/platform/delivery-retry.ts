/**
 * How often, and how far apart, a delivery to a caller's endpoint is tried (lab webhooks, report files
 * and status callbacks). The worker decides after each attempt and returns the wait; the state machine
 * waits (a Wait state with SecondsPath) and calls it again. A target that is down is an expected event,
 * not a fault: nothing throws, so Lambda's error metrics and Step Functions' failed executions count
 * only faults, and the final give-up is counted on its own (DELIVERY_FAILED_METRICS).
 */
export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  attempts: number;
  /** Wait after the first failed attempt. */
  firstDelaySeconds: number;
  /** Each further wait is this many times the one before. */
  backoffRate: number;
  /** Cap on any one wait. */
  maxDelaySeconds?: number;
}

/** Seconds to wait after failed attempt `attempt` (1-based) before the next one; undefined when none remains. */
export function retryDelaySeconds(policy: RetryPolicy, attempt: number): number | undefined {
  if (!Number.isInteger(attempt) || attempt < 1 || attempt >= policy.attempts) return undefined;
  const delay = policy.firstDelaySeconds * policy.backoffRate ** (attempt - 1);
  return Math.round(Math.min(delay, policy.maxDelaySeconds ?? Number.POSITIVE_INFINITY));
}

/** EMF metrics (namespace Hale, dimension service=hale) counting deliveries that finally failed; infra/observability.ts alarms on them. */
export const DELIVERY_FAILED_METRICS = {
  /** A lab job's webhook event, after its last attempt or refused outright. */
  webhook: 'WebhookDeliveryFailed',
  /** A report's file (pre-signed URL or callback PUT) or its status callback, likewise. */
  callback: 'CallbackDeliveryFailed',
} as const;
