import { createHash, randomUUID } from 'node:crypto';
import { type FieldIssue, ValidationError } from '../http/errors';
import { logger } from '../platform/observability';
import { BlockedTargetError, type JobsRepository, type ObjectStore, type WorkflowStarter } from '../platform/ports';
import { estimatedCompletionSeconds } from './estimate';
import { START_FAILURE } from './failure';
import { type DeliveryTarget, REPORT_JOB_KIND, REPORT_JOB_TTL_SECONDS, type ReportJob, reportDeadline, reportObjectKeys, sealingContext } from './report-job';
import type { ReportConfiguration, ReportHealthEvent, ReportInput, ReportJobResponse, ReportVariant } from './schemas';
import { validateReportEvents } from './score-report';

export interface CreateReportDependencies {
  jobs: JobsRepository;
  objects: ObjectStore;
  workflows: WorkflowStarter;
  artifactsBucket: string;
  stateMachineArn: string;
  seal: (plaintext: string, context: string) => string;
  /** Throws BlockedTargetError for a URL Hale may not call (outbound-http `assertSafeTargetUrl`). */
  checkTarget: (url: string) => Promise<unknown>;
}

export interface ReportRequest {
  variant: ReportVariant;
  uidExt: string;
  asOf: string;
  configuration: ReportConfiguration;
  events: ReportHealthEvent[];
}

export interface Caller {
  tenant: string;
  idempotencyKey?: string;
}

const CONFIGURATION_PATH = 'body.report_metadata.configuration';

/** Both URLs must pass the outbound rules now, so a bad target fails the request rather than the job. */
async function checkTargets(configuration: ReportConfiguration, checkTarget: CreateReportDependencies['checkTarget']): Promise<void> {
  const issues: FieldIssue[] = [];
  for (const field of ['s3_presigned_url', 'callback_url'] as const) {
    const url = configuration[field];
    if (!url) continue;
    try {
      await checkTarget(url);
    } catch (error) {
      if (!(error instanceof BlockedTargetError)) throw error;
      issues.push({ path: `${CONFIGURATION_PATH}.${field}`, message: error.message });
    }
  }
  if (issues.length > 0) throw new ValidationError(issues);
}

function accepted(job: ReportJob): ReportJobResponse {
  const failed = job.status === 'failed';
  return {
    job_id: job.jobId,
    status: failed ? 'failed' : 'accepted',
    message: failed
      ? `Report job could not be started${job.errorMessage ? `: ${job.errorMessage}` : ''}`
      : `Report job accepted; follow it at GET /health-score/report/status/${job.jobId}`,
    estimated_completion_seconds: job.estimatedCompletionSeconds,
  };
}

/** Identifies a request's content, so a reused Idempotency-Key with another request is refused. */
function requestDigest(request: ReportRequest): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex');
}

/**
 * Accepts a report request: checks the delivery targets, records the job (`pending`, tenant, sealed
 * target), stores the request body in the artifacts bucket and starts the state machine with an
 * execution named after the job. With an Idempotency-Key a repeated request returns the first job;
 * if that job never got its request stored or its execution started, this call does it (the store is
 * write-once, the start idempotent by name). The same key with another request is refused (422).
 */
export async function createReportJob(deps: CreateReportDependencies, request: ReportRequest, caller: Caller): Promise<ReportJobResponse> {
  validateReportEvents(request.variant, request.events);
  await checkTargets(request.configuration, deps.checkTarget);
  const now = new Date();
  const jobId = randomUUID();
  const { configuration } = request;
  const target: DeliveryTarget = {
    s3_presigned_url: configuration.s3_presigned_url,
    callback_url: configuration.callback_url,
    auth_type: configuration.auth_type,
    auth_token: configuration.auth_token,
    auth_key_name: configuration.auth_key_name,
  };
  const candidate: ReportJob = {
    kind: REPORT_JOB_KIND,
    jobId,
    tenant: caller.tenant,
    status: 'pending',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + REPORT_JOB_TTL_SECONDS,
    deadlineAt: reportDeadline(now),
    variant: request.variant,
    deliveryMode: configuration.s3_presigned_url ? 'presigned_url' : 'callback',
    notifies: configuration.callback_url !== undefined,
    sealedTarget: deps.seal(JSON.stringify(target), sealingContext(jobId)),
    estimatedCompletionSeconds: estimatedCompletionSeconds(request.variant, request.events.length),
    requestDigest: requestDigest(request),
  };

  let job: ReportJob = candidate;
  if (caller.idempotencyKey) {
    const claimed = await deps.jobs.createWithIdempotencyKey(candidate, caller.idempotencyKey);
    job = claimed.job as ReportJob;
    logger.info('report job requested', { jobId: job.jobId, variant: request.variant, replay: !claimed.created });
    if (!claimed.created && job.requestDigest !== undefined && job.requestDigest !== candidate.requestDigest) {
      throw new ValidationError([{ path: 'headers.idempotency-key', message: 'was already used for a different request; use a new key for a new request' }]);
    }
    if (job.status !== 'pending') return accepted(job);
  } else {
    await deps.jobs.create(candidate);
    logger.info('report job requested', { jobId, variant: request.variant, replay: false });
  }

  const input: ReportInput = { variant: request.variant, uid_ext: request.uidExt, event_asof_dtutc: request.asOf, health_events: request.events };
  const keys = reportObjectKeys(job.jobId);
  try {
    // Write-once: a repeat of the request (same Idempotency-Key) never replaces what the first stored,
    // which the pipeline may be reading; it only makes sure the job has its request and its execution.
    await deps.objects.putIfAbsent(deps.artifactsBucket, keys.input, JSON.stringify(input), 'application/json');
    await deps.workflows.start(deps.stateMachineArn, job.jobId, { jobId: job.jobId });
  } catch (error) {
    logger.error('report job could not be started', { jobId: job.jobId, errorName: error instanceof Error ? error.name : typeof error });
    const failed = await deps.jobs.transition(REPORT_JOB_KIND, job.jobId, {
      from: ['pending'],
      to: 'failed',
      // Due at once: the next sweep deletes the request stored for it (cleanup-retry.ts).
      deadlineAt: new Date().toISOString(),
      set: {
        errorType: START_FAILURE.type,
        errorMessage: START_FAILURE.message,
        errorDetails: START_FAILURE.details,
        failedAt: new Date().toISOString(),
        sealedTarget: null,
      },
    });
    return accepted(failed as ReportJob);
  }
  return accepted(job);
}
