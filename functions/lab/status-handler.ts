import { httpRoute } from '../http/handler';
import { setting } from '../platform/config';
import { jobsRepository } from '../platform/dynamodb-jobs-repository';
import { objectStore } from '../platform/s3-object-store';
import { JobIdParamsSchema } from './api-schemas';
import { jobResults, statusView, tenantJob } from './job-view';

/** GET /extraction/lab/status/{jobId}: where the job is, and its full results once completed (spec §4.7). */
export const handler = httpRoute({ dialect: 'extraction', params: JobIdParamsSchema }, async ({ params, tenant }) => {
  const job = await tenantJob(jobsRepository(), tenant, params.jobId);
  const results = job.status === 'completed' ? await jobResults(objectStore(), setting('HALE_ARTIFACTS_BUCKET'), job) : undefined;
  return { body: statusView(job, results) };
});
