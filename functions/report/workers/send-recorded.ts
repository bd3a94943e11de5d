import { type DeliveryAttempt, type JobsRepository, type OutboundHttp, type OutboundRequest, OutboundRequestError } from '../../platform/ports';
import { TargetUnavailableError } from '../pipeline-errors';
import { REPORT_JOB_KIND, type ReportJob } from '../report-job';

type Target = DeliveryAttempt['target'];

/** The number of the next attempt at a target: one more than the job's delivery log holds for it. */
export function nextAttempt(job: ReportJob, target: Target): number {
  return ((job.deliveries as DeliveryAttempt[] | undefined) ?? []).filter((d) => d.target === target).length + 1;
}

/**
 * Sends one request to a caller's target and appends the attempt (number, status or error class,
 * duration; never headers or bodies) to the job's delivery log. A network failure or timeout becomes
 * TargetUnavailableError, which the worker answers with a wait for another attempt (delivery-attempt.ts).
 */
export async function sendRecorded(
  deps: { jobs: JobsRepository; http: OutboundHttp },
  job: ReportJob,
  target: Target,
  request: OutboundRequest,
): Promise<number> {
  const attempt: DeliveryAttempt = { attempt: nextAttempt(job, target), at: new Date().toISOString(), target, statusCode: null, error: null, durationMs: 0 };
  const started = performance.now();
  try {
    attempt.statusCode = (await deps.http.send(request)).status;
    return attempt.statusCode;
  } catch (error) {
    attempt.error = error instanceof Error ? error.name : 'Error';
    if (error instanceof OutboundRequestError) throw new TargetUnavailableError(`The request to the ${label(target)} failed (${error.reason})`);
    throw error;
  } finally {
    attempt.durationMs = Math.round(performance.now() - started);
    await deps.jobs.recordDelivery(REPORT_JOB_KIND, job.jobId, attempt);
  }
}

export function label(target: Target): string {
  return target === 'presigned_url' ? 'pre-signed URL' : target === 'callback' ? 'callback URL' : 'status callback';
}
