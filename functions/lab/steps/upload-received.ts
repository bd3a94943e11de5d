import type { S3Event } from 'aws-lambda';
import { setting } from '../../platform/config';
import { jobsRepository } from '../../platform/dynamodb-jobs-repository';
import { logger } from '../../platform/observability';
import { JobTransitionError } from '../../platform/ports';
import { objectStore } from '../../platform/s3-object-store';
import { workflowStarter } from '../../platform/sfn-workflow-starter';
import { processingDeadline } from '../job-deadlines';
import { isTerminal } from '../job-states';
import { jobIdOfDocumentKey } from '../storage-keys';
import type { PipelineState } from './pipeline-state';
import { labWorker } from './worker';

/** S3 notifications carry keys form-URL-encoded. */
const decodeKey = (key: string) => decodeURIComponent(key.replace(/\+/g, ' '));

/**
 * The uploads bucket's object-created notification. A document PUT to a pre-signed URL moves its job
 * from `pending_upload` to `queued` and starts the pipeline (the size limit is checked there, so an
 * oversized upload fails the job like any other unusable document). Notifications are delivered at
 * least once and also fire for base64 uploads, whose jobs are already queued. A queued job gets its
 * start again: the start is idempotent (the execution is named after the job, with the same input),
 * and it is what a job needs whose first start was lost (a crash between the move and the start, or
 * between a base64 upload's store and its start).
 */
export const handler = labWorker(async (event: S3Event): Promise<void> => {
  const jobs = jobsRepository();
  const uploadsBucket = setting('HALE_UPLOADS_BUCKET');
  for (const record of event.Records) {
    const key = decodeKey(record.s3.object.key);
    const jobId = jobIdOfDocumentKey(key);
    if (!jobId || record.s3.bucket.name !== uploadsBucket) continue;
    try {
      // The execution starts now, so the job's deadline runs from now.
      await jobs.transition('lab', jobId, { from: ['pending_upload'], to: 'queued', deadlineAt: processingDeadline(new Date()) });
    } catch (error) {
      if (!(error instanceof JobTransitionError)) throw error;
      if (error.current === 'queued') {
        await startPipeline(jobId, 'upload notification repeated');
        continue;
      }
      // A document for a job that has already ended (its URL expired mid-upload) has no use; one
      // without a job at all is left to the bucket's expiry rule.
      if (error.current !== undefined && isTerminal(error.current)) await objectStore().delete(uploadsBucket, key);
      logger.info('upload notification ignored', { jobId, status: error.current ?? 'missing' });
      continue;
    }
    await startPipeline(jobId, 'upload');
  }
});

async function startPipeline(jobId: string, trigger: string): Promise<void> {
  const input: PipelineState = { jobId };
  await workflowStarter().start(setting('HALE_LAB_STATE_MACHINE_ARN'), jobId, input);
  logger.info('lab pipeline started', { jobId, trigger });
}
