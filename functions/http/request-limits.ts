import { UPLOAD_LIMITS } from '../platform/resources';
import { BATCH_TOO_LARGE_MESSAGE } from '../scoring/batch-limits';
import type { ErrorDialect } from './dialects';

/**
 * How large a request Hale accepts, one number for every route, derived from the inline PDF limit and
 * enforced before any handler runs: by the WAF on AWS (infra/web-acl.ts, on Content-Length) and by the
 * local gateway (local/gateway.ts), both answering 413 `file_too_large` that points to the pre-signed
 * upload. The upload handler then checks the decoded PDF against UPLOAD_LIMITS.inlinePdfMaxBytes.
 */

/**
 * A synchronous Lambda invocation's payload limit, request and response alike: "For synchronous
 * invocations, the maximum payload size is 6 MB" (Lambda Invoke API reference); the service counts
 * 6 MiB (its error reads "must be smaller than 6291556 bytes", 6 MiB plus a little). API Gateway answers
 * an event over it with 502 (INTEGRATION_FAILURE) without calling the function.
 */
export const LAMBDA_SYNC_PAYLOAD_BYTES = 6 * 1024 * 1024;

/**
 * API Gateway REST quota "Total combined size of request line and header values: 10240 bytes" (API
 * Gateway quotas for configuring and running a REST API). The event repeats them (headers and
 * multiValueHeaders, query parameters in two forms).
 */
export const API_GATEWAY_REQUEST_LINE_AND_HEADERS_BYTES = 10_240;

/** Room in an upload's body for the JSON around `pdfFile`: the other fields are at most ~2.5 kB (webhookUrl 2,048). */
const UPLOAD_FIELDS_ALLOWANCE_BYTES = 16 * 1024;

/** Length of the base64 text of `bytes` bytes (padded, no line breaks). */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/** The largest request body any route accepts: the largest inline PDF in base64 with its fields. */
export const MAX_REQUEST_BODY_BYTES = base64Length(UPLOAD_LIMITS.inlinePdfMaxBytes) + UPLOAD_FIELDS_ALLOWANCE_BYTES;

const MEGABYTES = UPLOAD_LIMITS.inlinePdfMaxBytes / (1024 * 1024);

/** Says the limit and the way around it, wherever a body or a PDF is refused for its size. */
export const TOO_LARGE_MESSAGE =
  `Request too large: a PDF sent inline (pdfFile) may be at most ${MEGABYTES} MB (${UPLOAD_LIMITS.inlinePdfMaxBytes} bytes) and a request body ` +
  `${MAX_REQUEST_BODY_BYTES} bytes; for a larger PDF (up to ${UPLOAD_LIMITS.presignedMaxBytes / (1024 * 1024)} MB) POST /extraction/lab/upload without pdfFile and PUT the file to the pre-signed uploadUrl`;

/**
 * What a body over MAX_REQUEST_BODY_BYTES is answered (413) in each dialect, by the local gateway and
 * by the WAF alike: the extraction API's way around is the pre-signed upload (TOO_LARGE_MESSAGE); the
 * scoring and reference APIs' large requests are batches, whose way around is the bulk API.
 */
export function bodyTooLargeMessage(dialect: ErrorDialect): string {
  if (dialect === 'extraction') return TOO_LARGE_MESSAGE;
  return `Request too large: a request body may be at most ${MAX_REQUEST_BODY_BYTES} bytes. ${BATCH_TOO_LARGE_MESSAGE}`;
}
