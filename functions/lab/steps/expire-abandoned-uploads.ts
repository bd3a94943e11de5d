import type { ScheduledEvent } from 'aws-lambda';
import { setting } from '../../platform/config';
import { jobsRepository } from '../../platform/dynamodb-jobs-repository';
import { logger } from '../../platform/observability';
import { workflowStarter } from '../../platform/sfn-workflow-starter';
import { sweepPendingUploads } from '../pending-uploads';
import type { PipelineState } from './pipeline-state';
import { labWorker } from './worker';

const ABANDONED_UPLOAD_MESSAGE = 'No document was uploaded to the upload URL before it expired';

/**
 * Every five minutes: pre-signed jobs whose URL expired without an upload end `failed`. Each is handed
 * to the lab state machine with that outcome, so it ends, is cleaned up and notified exactly like any
 * other job. If the upload did arrive meanwhile, its execution (named after the job, like this one)
 * already exists and this start is a no-op.
 */
export const handler = labWorker(async (event: Pick<ScheduledEvent, 'time'>): Promise<{ expired: number }> => {
  const jobs = jobsRepository();
  const starter = workflowStarter();
  const machine = setting('HALE_LAB_STATE_MACHINE_ARN');
  const now = new Date(event.time);
  let expired = 0;
  await sweepPendingUploads(jobs, now, async (jobId) => {
    const job = await jobs.get('lab', jobId);
    if (job?.status !== 'pending_upload') return;
    const input: PipelineState = { jobId, outcome: { status: 'failed', message: ABANDONED_UPLOAD_MESSAGE } };
    await starter.start(machine, jobId, input);
    expired++;
  });
  logger.info('abandoned uploads expired', { expired });
  return { expired };
});
