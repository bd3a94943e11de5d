import { z } from '../http/zod';

/**
 * `error_type` of a failed report job (status record and failure callback): one of a fixed set that
 * callers can branch on and that never changes with Hale's internals. What exactly failed inside (an
 * exception's class, a Step Functions error) goes to the logs only.
 */
export const REPORT_ERROR_TYPES = {
  invalid_input: 'The request was accepted but cannot be scored (e.g. it lacks a predictor every model needs); retrying the same request fails again',
  scoring_failed: 'Scoring the request failed unexpectedly',
  render_failed: 'The PDF could not be rendered',
  delivery_failed: 'The PDF could not be delivered to s3_presigned_url or callback_url; error_details.reason says why',
  timeout: 'The job did not finish within its time limit',
  start_failed: 'The report pipeline could not be started',
  internal_error: 'Report generation failed for another reason',
} as const;

export type ReportErrorType = keyof typeof REPORT_ERROR_TYPES;

/** Why a delivery failed (`error_details.reason` of a `delivery_failed` job). */
export const DELIVERY_FAILURE_REASONS = {
  target_unavailable: 'The target did not answer, or answered 408, 429 or 5xx, on every attempt',
  target_rejected: 'The target refused the request with another 4xx status',
  presigned_url_rejected: 'The pre-signed URL answered 403 (a GET URL, or an expired one)',
  target_blocked: 'The target is not allowed (not https, or resolves to a private, loopback or link-local address)',
} as const;

export type DeliveryFailureReason = keyof typeof DELIVERY_FAILURE_REASONS;

const describeEach = (entries: Record<string, string>) =>
  Object.entries(entries)
    .map(([name, description]) => `\`${name}\`: ${description}`)
    .join('; ');

export const ReportErrorTypeSchema = z
  .enum(Object.keys(REPORT_ERROR_TYPES) as [ReportErrorType, ...ReportErrorType[]])
  .meta({ id: 'ReportErrorType', description: `Why a report job failed, one of a stable set. ${describeEach(REPORT_ERROR_TYPES)}.` });
