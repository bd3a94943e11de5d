import type { DeliveryFailureReason, ReportErrorType } from './error-types';
import { DESCRIBED_ERRORS } from './pipeline-errors';
import type { ReportStep } from './report-job';

export interface FailureDescription {
  type: ReportErrorType;
  message: string;
  details: Record<string, unknown>;
}

const MESSAGES: Record<ReportErrorType, string> = {
  invalid_input: 'The request cannot be scored',
  scoring_failed: 'Scoring the request failed unexpectedly',
  render_failed: 'The report could not be rendered',
  delivery_failed: 'The report could not be delivered',
  timeout: 'A report step did not finish in time',
  start_failed: 'The report pipeline could not be started; retry the request',
  internal_error: 'Report generation failed unexpectedly',
};

/** The delivery errors a step raises (and the guard's), by the reason callers see. */
const DELIVERY_REASONS: Record<string, DeliveryFailureReason> = {
  TargetUnavailableError: 'target_unavailable',
  OutboundRequestError: 'target_unavailable',
  TargetRejectedError: 'target_rejected',
  PresignedUrlRejectedError: 'presigned_url_rejected',
  BlockedTargetError: 'target_blocked',
};

/** Lambda reports a thrown error's message inside Cause as JSON `{errorType, errorMessage}`. */
function causeMessage(cause: string | undefined): string | undefined {
  if (!cause) return undefined;
  try {
    const parsed = JSON.parse(cause) as { errorMessage?: unknown };
    return typeof parsed.errorMessage === 'string' ? parsed.errorMessage : undefined;
  } catch {
    return cause;
  }
}

function errorType(errorName: string, step: ReportStep): ReportErrorType {
  if (errorName === 'States.Timeout') return 'timeout';
  if (errorName in DELIVERY_REASONS || step === 'deliver') return 'delivery_failed';
  if (errorName === 'ReportInputError') return 'invalid_input';
  if (step === 'score') return 'scoring_failed';
  if (step === 'render') return 'render_failed';
  return 'internal_error';
}

/**
 * error_type / error_message / error_details of a failed job, from the error Step Functions caught
 * and the step the job stopped in. error_type is one of REPORT_ERROR_TYPES whatever was thrown; only
 * Hale's own pipeline errors pass their message through (they are written to be shown), any other
 * error gets its type's message, since its text could carry internals.
 */
export function describeFailure(errorName: string, cause: string | undefined, step: ReportStep): FailureDescription {
  const type = errorType(errorName, step);
  const message = (DESCRIBED_ERRORS.has(errorName) ? causeMessage(cause) : undefined) ?? MESSAGES[type];
  const reason = DELIVERY_REASONS[errorName];
  const retryable = type === 'timeout' || reason === 'target_unavailable';
  return { type, message, details: { retryable, ...(type === 'delivery_failed' && reason ? { reason } : {}) } };
}

/** The description of a job that never got its pipeline started. */
export const START_FAILURE: FailureDescription = { type: 'start_failed', message: MESSAGES.start_failed, details: { retryable: true } };

/** The description of a job the overdue sweep ended. */
export const TIMEOUT_FAILURE: FailureDescription = {
  type: 'timeout',
  message: 'The report was not generated within its time limit; retry the request',
  details: { retryable: true },
};
