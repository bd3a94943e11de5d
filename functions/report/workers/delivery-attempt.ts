import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { DELIVERY_FAILED_METRICS, type RetryPolicy, retryDelaySeconds } from '../../platform/delivery-retry';
import { logger, metrics } from '../../platform/observability';
import { BlockedTargetError } from '../../platform/ports';
import { PresignedUrlRejectedError, TargetRejectedError, TargetUnavailableError } from '../pipeline-errors';
import { failureOf, type StepFailure } from './worker';

/**
 * Report files and status callbacks: five attempts, 2 s after the first failure and twice as long each
 * time, at most a minute (2, 4, 8, 16 s).
 */
export const REPORT_DELIVERY_RETRY: RetryPolicy = { attempts: 5, firstDelaySeconds: 2, backoffRate: 2, maxDelaySeconds: 60 };

/** What a caller's endpoint can answer besides success: expected events, never faults. */
const TARGET_ANSWERS = [TargetUnavailableError, TargetRejectedError, PresignedUrlRejectedError, BlockedTargetError];

export type AttemptResult<T> = { delivered: true; value: T } | { delivered: false; failure: StepFailure; retryInSeconds?: number };

/**
 * Runs one delivery attempt (`send` throws the pipeline errors of delivery.ts and send-recorded.ts)
 * and turns the target's answer into a result: an unavailable target gets `retryInSeconds` while the
 * policy allows another attempt; a refusal, or the last failed attempt, is final and counts once in
 * the CallbackDeliveryFailed metric, which an alarm watches. Anything else thrown is a fault and
 * propagates.
 */
export async function tryDelivery<T>(attempt: number, send: () => Promise<T>, policy = REPORT_DELIVERY_RETRY): Promise<AttemptResult<T>> {
  try {
    return { delivered: true, value: await send() };
  } catch (error) {
    if (!TARGET_ANSWERS.some((answer) => error instanceof answer)) throw error;
    const failure = failureOf(error as Error);
    const retryInSeconds = error instanceof TargetUnavailableError ? retryDelaySeconds(policy, attempt) : undefined;
    logger.info('delivery attempt failed', { attempt, errorName: failure.error, retryInSeconds });
    if (retryInSeconds !== undefined) return { delivered: false, failure, retryInSeconds };
    metrics.addMetric(DELIVERY_FAILED_METRICS.callback, MetricUnit.Count, 1);
    metrics.publishStoredMetrics();
    return { delivered: false, failure };
  }
}
