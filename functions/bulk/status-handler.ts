import { NotFoundError } from '../http/errors';
import { httpRoute } from '../http/handler';
import { setting } from '../platform/config';
import { jobsRepository } from '../platform/dynamodb-jobs-repository';
import { objectStore } from '../platform/s3-object-store';
import { type BulkJob, BULK_JOB_KIND } from './bulk-job';
import { statusView } from './job-view';
import { BulkJobParamsSchema } from './schemas';

/** GET /health-score/bulk/{job_id}: another key's job is as unknown as a missing one. */
export const handler = httpRoute({ dialect: 'detail', params: BulkJobParamsSchema }, async ({ params, tenant }) => {
  const job = await jobsRepository().get(BULK_JOB_KIND, params.job_id);
  if (!job || job.tenant !== tenant) throw new NotFoundError(`Bulk job ${params.job_id} not found`);
  return { body: await statusView(job as BulkJob, objectStore(), setting('HALE_ARTIFACTS_BUCKET'), new Date()) };
});
