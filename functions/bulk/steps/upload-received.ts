import type { S3Event } from 'aws-lambda';
import { setting } from '../../platform/config';
import { jobsRepository } from '../../platform/dynamodb-jobs-repository';
import { lambdaWorker } from '../../platform/lambda-worker';
import { logger } from '../../platform/observability';
import { JobTransitionError } from '../../platform/ports';
import { workflowStarter } from '../../platform/sfn-workflow-starter';
import { BULK_JOB_KIND, processingDeadline } from '../bulk-job';
import { jobIdOfInputKey } from '../storage-keys';

/** S3 notifications carry keys form-URL-encoded. */
const decodeKey = (key: string) => decodeURIComponent(key.replace(/\+/g, ' '));

/**
 * The uploads bucket's object-created notification for `bulk/<jobId>/input`: the job moves from
 * pending_upload to queued and its execution starts (named after the job, so a repeated notification
 * starts nothing new). The size limit is the execution's first check, so an oversized file fails its
 * job like any other unusable input, with the failure webhook.
 */
export const handler = lambdaWorker(async (event: S3Event): Promise<void> => {
  const jobs = jobsRepository();
  for (const record of event.Records) {
    const jobId = jobIdOfInputKey(decodeKey(record.s3.object.key));
    if (!jobId || record.s3.bucket.name !== setting('HALE_UPLOADS_BUCKET')) continue;
    try {
      await jobs.transition(BULK_JOB_KIND, jobId, { from: ['pending_upload'], to: 'queued', deadlineAt: processingDeadline(new Date()) });
    } catch (error) {
      if (!(error instanceof JobTransitionError)) throw error;
      logger.info('bulk upload notification ignored', { jobId, status: error.current ?? 'missing' });
      continue;
    }
    await workflowStarter().start(setting('HALE_BULK_STATE_MACHINE_ARN'), jobId, { job_id: jobId });
    logger.info('bulk job started', { jobId, bytes: record.s3.object.size });
  }
});
