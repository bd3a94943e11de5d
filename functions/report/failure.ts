import { DESCRIBED_ERRORS } from './pipeline-errors';

export interface FailureDescription {
  type: string;
  message: string;
  details: Record<string, unknown>;
}

const STATES_MESSAGES: Record<string, string> = {
  'States.Timeout': 'A report step did not finish in time',
  'States.DataLimitExceeded': 'A report step produced more data than the pipeline can pass on',
  'States.Runtime': 'The report pipeline failed to run a step',
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

/**
 * error_type / error_message for a failed job from the error Step Functions caught. Only Hale's own
 * pipeline errors pass their message through (they are written to be shown); any other error keeps
 * its type name with a generic message, since its text could carry internals.
 */
export function describeFailure(errorName: string, cause: string | undefined): FailureDescription {
  if (DESCRIBED_ERRORS.has(errorName)) {
    return { type: errorName, message: causeMessage(cause) ?? errorName, details: { retryable: errorName === 'TargetUnavailableError' } };
  }
  const states = STATES_MESSAGES[errorName] ?? (errorName.startsWith('States.') ? 'The report pipeline stopped on a service error' : undefined);
  return { type: errorName, message: states ?? 'Report generation failed unexpectedly', details: { retryable: false } };
}
