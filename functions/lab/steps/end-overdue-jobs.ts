import type { ScheduledEvent } from 'aws-lambda';
import { setting } from '../../platform/config';
import type { RetryPolicy } from '../../platform/delivery-retry';
import { logger } from '../../platform/observability';
import type { WorkflowStarter } from '../../platform/ports';
import { workflowStarter } from '../../platform/sfn-workflow-starter';
import { isTerminal } from '../job-states';
import { finishJob, removeFiles } from './finish';
import { sendTerminalEvent } from './notify';
import { type PipelineIo, pipelineIo } from './pipeline-io';
import type { Outcome, PipelineState } from './pipeline-state';
import { labWorker } from './worker';

export const ABANDONED_UPLOAD_MESSAGE = 'No document was uploaded to the upload URL before it expired';
export const OVERDUE_MESSAGE = 'The document could not be processed in time; upload it again';

/** A job ended here has no state machine to retry its webhook: one attempt, counted as final if it fails. */
const ONE_ATTEMPT: RetryPolicy = { attempts: 1, firstDelaySeconds: 0, backoffRate: 1 };

/** Jobs one sweep ends at most (a few requests each, well within the worker's 60 s); the rest wait five minutes. */
const SWEEP_LIMIT = 100;

export interface OverdueSweep {
  /** Handed to the state machine with the failed outcome. */
  handedOver: number;
  /** Ended here, because a sweep had handed them over before and they are still open. */
  ended: number;
  /** Ended jobs whose files were left by a failed clean-up, deleted now. */
  cleanedUp: number;
}

/**
 * Ends every lab job past its deadline (job-deadlines.ts) as `failed`. The first sweep that finds a
 * job hands it to the lab state machine with that outcome, exactly as a step would, so it is cleaned
 * up and notified like any other failed job; if the job's execution already exists (it timed out or
 * was aborted) that start is a no-op. A job still open on a later sweep is ended here: Finish's write
 * and file removal, then one webhook attempt (there is no state machine to retry it).
 */
export async function endOverdueLabJobs(io: PipelineIo, starter: WorkflowStarter, stateMachineArn: string, now: Date): Promise<OverdueSweep> {
  const sweep: OverdueSweep = { handedOver: 0, ended: 0, cleanedUp: 0 };
  for (const overdue of await io.jobs.listOverdue('lab', now, SWEEP_LIMIT)) {
    const { jobId } = overdue;
    try {
      const job = await io.jobs.get('lab', jobId);
      if (!job) continue;
      if (isTerminal(job.status)) {
        // Ended with its clean-up still due (finish.ts): delete what is left, then take it out of the index.
        await removeFiles(io, jobId, job.status as Outcome['status']);
        await io.jobs.transition('lab', jobId, { from: [job.status], to: job.status, terminal: true });
        sweep.cleanedUp++;
        continue;
      }
      const failure: Extract<Outcome, { status: 'failed' }> =
        job.status === 'pending_upload'
          ? { status: 'failed', errorType: 'upload_not_received', message: ABANDONED_UPLOAD_MESSAGE }
          : { status: 'failed', errorType: 'timeout', message: OVERDUE_MESSAGE };
      if (typeof job.overdueSince !== 'string') {
        await io.jobs.update('lab', jobId, { overdueSince: now.toISOString() });
        const input: PipelineState = { jobId, outcome: failure };
        await starter.start(stateMachineArn, jobId, input);
        sweep.handedOver++;
        continue;
      }
      if (await finishJob(io, jobId, failure)) await sendTerminalEvent(io, jobId, ONE_ATTEMPT);
      sweep.ended++;
    } catch (error) {
      // One job that cannot be ended now must not keep the others open; the next sweep tries it again.
      logger.warn('overdue lab job not ended', { jobId, errorName: error instanceof Error ? error.name : typeof error });
    }
  }
  return sweep;
}

/** Every five minutes (EventBridge schedule; the local runtime's timer). */
export const handler = labWorker(async (event: Pick<ScheduledEvent, 'time'>): Promise<OverdueSweep> => {
  const sweep = await endOverdueLabJobs(pipelineIo(), workflowStarter(), setting('HALE_LAB_STATE_MACHINE_ARN'), new Date(event.time));
  logger.info('overdue lab jobs swept', { ...sweep });
  return sweep;
});
