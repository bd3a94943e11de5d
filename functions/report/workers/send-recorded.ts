import { type DeliveryAttempt, type JobsRepository, type OutboundHttp, type OutboundRequest, OutboundRequestError } from '../../platform/ports';
import { TargetUnavailableError } from '../pipeline-errors';
import { REPORT_JOB_KIND, type ReportJob } from '../report-job';

type Target = DeliveryAttempt['target'];

/**
 * Sends one request to a caller's target and appends the attempt (number, status or error class,
 * duration; never headers or bodies) to the job's delivery log. A network failure or timeout becomes
 * TargetUnavailableError, which the state machine retries.
 */
export async function sendRecorded(
  deps: { jobs: JobsRepository; http: OutboundHttp },
  job: ReportJob,
  target: Target,
  request: OutboundRequest,
): Promise<number> {
  const previous = ((job.deliveries as DeliveryAttempt[] | undefined) ?? []).filter((d) => d.target === target).length;
  const attempt: DeliveryAttempt = { attempt: previous + 1, at: new Date().toISOString(), target, statusCode: null, error: null, durationMs: 0 };
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
