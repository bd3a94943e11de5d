/**
 * Errors of the report pipeline. Their `name` is what Step Functions matches: the Deliver and Notify
 * states retry `TargetUnavailableError` only, so every other name fails at once and goes to Catch.
 * Messages say what happened without URLs (a pre-signed URL or callback query may hold secrets) and
 * without any value from the request.
 */

/** Network failure, timeout, 408, 429 or 5xx: worth another attempt. */
export class TargetUnavailableError extends Error {
  override name = 'TargetUnavailableError';
}

/** Any other non-2xx answer: the target refused the request and will refuse it again. */
export class TargetRejectedError extends Error {
  override name = 'TargetRejectedError';
}

/** 403 from the pre-signed URL: the usual causes are a GET URL or an expired one. */
export class PresignedUrlRejectedError extends Error {
  override name = 'PresignedUrlRejectedError';
}

/** The stored request cannot be scored (e.g. no sex predictor); retrying cannot help. */
export class ReportInputError extends Error {
  override name = 'ReportInputError';
}

/** Error names whose message is safe and useful to show the caller as `error_message`. */
export const DESCRIBED_ERRORS = new Set([
  'TargetUnavailableError',
  'TargetRejectedError',
  'PresignedUrlRejectedError',
  'ReportInputError',
  'BlockedTargetError',
  'OutboundRequestError',
]);
