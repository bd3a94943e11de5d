import { PresignedUrlRejectedError, TargetRejectedError, TargetUnavailableError } from './pipeline-errors';
import type { DeliveryTarget, ReportJob } from './report-job';
import type { ReportStatusCallback } from './schemas';

/**
 * Pure rules of report delivery (spec §2.3, §2.7, §4.5; DESIGN §3): which headers each auth type
 * sends, which answers are retried, and the status callback body.
 */

/**
 * Spec §2.3 table. For basic, auth_token is the `user:password` credential and is base64-encoded
 * here (RFC 7617); a token that is already base64 of such a pair is sent unchanged.
 */
export function authHeaders(target: DeliveryTarget): Record<string, string> {
  const token = target.auth_token ?? '';
  switch (target.auth_type) {
    case 'bearer':
      return { authorization: `Bearer ${token}` };
    case 'api_key':
      return { [target.auth_key_name]: token };
    case 'basic':
      return { authorization: `Basic ${isEncodedBasicCredential(token) ? token : Buffer.from(token, 'utf8').toString('base64')}` };
    case 'none':
      return {};
  }
}

function isEncodedBasicCredential(token: string): boolean {
  if (token.includes(':') || !/^[A-Za-z0-9+/]+={0,2}$/.test(token) || token.length % 4 !== 0) return false;
  return Buffer.from(token, 'base64').toString('utf8').includes(':');
}

/** The PDF PUT to callback_url carries the job id as a `job_id` query parameter (DESIGN §3). */
export function fileCallbackUrl(callbackUrl: string, jobId: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set('job_id', jobId);
  return url.toString();
}

/** `s3_location`: the object URL, i.e. the pre-signed URL without its signing query string. */
export function objectLocation(presignedUrl: string): string {
  const url = new URL(presignedUrl);
  url.search = '';
  url.hash = '';
  return url.toString();
}

/** Throws the pipeline error for a non-2xx answer; returns for 2xx. */
export function checkDeliveryStatus(status: number, target: 'presigned_url' | 'callback', what: string): void {
  if (status >= 200 && status < 300) return;
  if (status === 408 || status === 429 || status >= 500) {
    throw new TargetUnavailableError(`${what} answered HTTP ${status}`);
  }
  if (status === 403 && target === 'presigned_url') {
    throw new PresignedUrlRejectedError(
      'The pre-signed URL refused the upload with HTTP 403: it is likely a pre-signed GET URL (a PUT URL is required) or it has expired',
    );
  }
  throw new TargetRejectedError(`${what} refused the request with HTTP ${status}`);
}

function seconds(from: string | undefined, to: string | undefined): number {
  if (!from || !to) return 0;
  return Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 10) / 100);
}

/**
 * §2.7 status callback. `processing_time` is seconds from the start of processing to the end state
 * (from acceptance when the job failed before processing began).
 */
export function statusCallback(job: ReportJob): ReportStatusCallback {
  const started = job.processingStartedAt ?? job.createdAt;
  if (job.status === 'completed') {
    return {
      job_id: job.jobId,
      status: 'success',
      processing_time: seconds(started, job.completedAt),
      timestamp: job.completedAt ?? job.updatedAt,
      ...(job.s3Location ? { s3_location: job.s3Location } : {}),
    };
  }
  return {
    job_id: job.jobId,
    status: 'failed',
    processing_time: seconds(started, job.failedAt),
    timestamp: job.failedAt ?? job.updatedAt,
    error_type: job.errorType ?? 'internal_error',
    error_message: job.errorMessage ?? 'Report generation failed',
    error_details: job.errorDetails ?? {},
  };
}
