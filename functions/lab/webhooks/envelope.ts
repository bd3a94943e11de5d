import { eventFor, isTerminal, type LabTerminalState } from '../job-states';
import type { LabJob } from '../lab-job';
import type { ExtractionResults } from '../results-schema';

/**
 * The webhook body of spec §6.2: `{event, jobId, timestamp, data}`. `data` holds the full results for
 * job.completed and `error` (message, and rejection_reason for invalid documents) otherwise; it never
 * holds anything read from the document beyond the results themselves.
 */
export interface WebhookEnvelope {
  event: `job.${LabTerminalState}`;
  jobId: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export function webhookEnvelope(job: LabJob, results: ExtractionResults | undefined): WebhookEnvelope {
  if (!isTerminal(job.status)) throw new TypeError(`Job ${job.jobId} has not finished; there is no event to send`);
  const timestamp = job.finishedAt ?? job.updatedAt;
  const base = { event: eventFor(job.status), jobId: job.jobId, timestamp };
  if (job.status === 'completed') return { ...base, data: { ...results } };
  const error: Record<string, unknown> = { message: job.message ?? 'Processing did not complete' };
  if (job.status === 'failed') error.error_type = job.errorType ?? 'internal_error';
  if (job.status === 'invalid_document') {
    error.rejection_reason = job.rejectionReason;
    error.detected_lab = job.detectedLab ?? null;
  }
  if (job.status === 'quarantined') error.detected_language = job.detectedLanguage;
  if (job.status === 'rejected_phi') error.phi_categories = job.phiRedactions ?? {};
  return { ...base, data: { status: job.status, error } };
}

/**
 * The Standard Webhooks message id: the same for every attempt at one event, so a receiver can use it
 * to drop duplicates; the timestamp and signature are made anew for each attempt.
 */
export function webhookMessageId(job: Pick<LabJob, 'jobId' | 'status'>): string {
  return `msg_${job.jobId}_${job.status}`;
}
