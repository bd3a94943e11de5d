import { logger } from '../../platform/observability';
import { cleanupRetryAt } from '../../platform/cleanup-retry';
import { JobTransitionError } from '../../platform/ports';
import { allowedPredecessors, isTerminal } from '../job-states';
import type { RejectionReason } from '../lab-job';
import { jobPrefix, labKeys } from '../storage-keys';
import { type PipelineIo, pipelineIo } from './pipeline-io';
import { type NotifyInput, type Outcome, PipelineStateSchema } from './pipeline-state';
import { labWorker } from './worker';

const REJECTION_MESSAGES: Record<RejectionReason, string> = {
  non_supported_lab: 'Only Quest Diagnostics and Labcorp reports are supported',
  non_english_document: 'The document is not in English; only English lab reports are supported',
  multiple_collection_dates: 'The document has several specimen collection dates; upload one lab visit per document',
  non_us_document: 'The document uses non-US date formats that cannot be read unambiguously',
  non_lab_document: 'The document is not a clinical lab report',
};

const GENERIC_FAILURE = 'The document could not be processed because of an internal error';

/**
 * An error a Catch caught is never a document's outcome (steps return those): its name and cause stay
 * in the logs and the caller gets the generic message.
 */
export function caughtFailure(): Extract<Outcome, { status: 'failed' }> {
  return { status: 'failed', errorType: 'internal_error', message: GENERIC_FAILURE };
}

function messageOf(outcome: Outcome): string | undefined {
  switch (outcome.status) {
    case 'completed':
      return undefined;
    case 'failed':
      return outcome.message;
    case 'quarantined':
      return REJECTION_MESSAGES.non_english_document;
    case 'rejected_phi':
      return 'The document contains protected health information and rejectIfPHI was set; every file of the job was deleted';
    case 'invalid_document':
      return REJECTION_MESSAGES[outcome.rejectionReason];
  }
}

/**
 * The uploaded PDF goes at every terminal state and the intermediates with it; only the results of
 * a completed job stay. A job rejected for PHI loses every file under its prefix in both buckets.
 */
export async function removeFiles(io: PipelineIo, jobId: string, status: Outcome['status']): Promise<void> {
  const keys = labKeys(jobId);
  if (status === 'rejected_phi') {
    await Promise.all([io.objects.deletePrefix(io.uploadsBucket, jobPrefix(jobId)), io.objects.deletePrefix(io.artifactsBucket, jobPrefix(jobId))]);
    return;
  }
  await Promise.all([
    io.objects.delete(io.uploadsBucket, keys.document),
    io.objects.delete(io.artifactsBucket, keys.textItems),
    io.objects.delete(io.artifactsBucket, keys.classification),
    io.objects.delete(io.artifactsBucket, keys.extraction),
  ]);
}

/**
 * Ends a job with `outcome`: removes its files, then writes the terminal status (from whatever
 * progress state it is in), taking it out of the open-jobs index. Answers whether its webhook event
 * should be sent: false when the job had already finished, which leaves it as it is. Files that
 * cannot be deleted now (an S3 error) do not hold the job open: it ends all the same and stays in the
 * index with its clean-up due, which the sweep retries until it succeeds (platform/cleanup-retry.ts).
 */
export async function finishJob(io: PipelineIo, jobId: string, outcome: Outcome): Promise<boolean> {
  // Files go first: whoever sees the terminal state (above all rejected_phi) finds them gone.
  const filesLeft = await removeFiles(io, jobId, outcome.status).then(
    () => false,
    (error: unknown) => {
      logger.warn('lab job files not deleted; the sweep retries', { jobId, errorName: error instanceof Error ? error.name : typeof error });
      return true;
    },
  );
  const now = new Date();
  try {
    await io.jobs.transition('lab', jobId, {
      from: allowedPredecessors(outcome.status),
      to: outcome.status,
      ...(filesLeft ? { deadlineAt: cleanupRetryAt(now) } : { terminal: true }),
      set: {
        finishedAt: now.toISOString(),
        message: messageOf(outcome),
        rejectionReason: outcome.status === 'invalid_document' ? outcome.rejectionReason : outcome.status === 'quarantined' ? 'non_english_document' : undefined,
        detectedLab: outcome.status === 'invalid_document' ? outcome.detectedLab : undefined,
        errorType: outcome.status === 'failed' ? outcome.errorType : undefined,
      },
    });
    return true;
  } catch (error) {
    if (!(error instanceof JobTransitionError) || (error.current !== undefined && !isTerminal(error.current))) throw error;
    return false;
  }
}

/**
 * The state machine's Finish: the outcome a step decided, or the error a Catch caught, which
 * becomes `failed`.
 */
export const handler = labWorker(async (event: unknown): Promise<NotifyInput> => {
  const state = PipelineStateSchema.parse(event);
  const outcome: Outcome = state.outcome ?? caughtFailure();
  const notify = await finishJob(pipelineIo(), state.jobId, outcome);
  logger.info('lab job finished', { jobId: state.jobId, status: outcome.status, errorName: state.error?.Error, notify });
  return { jobId: state.jobId, notify };
});
