import { NotFoundError } from '../http/errors';
import { httpRoute } from '../http/handler';
import { jobsRepository } from '../platform/dynamodb-jobs-repository';
import { REPORT_JOB_KIND, type ReportJob, toStatusRecord } from './report-job';
import { ReportStatusParamsSchema } from './schemas';

/** GET /health-score/report/status/{job_id} (spec §4.4): another key's job is as unknown as a missing one. */
export const handler = httpRoute({ dialect: 'detail', params: ReportStatusParamsSchema }, async ({ params, tenant }) => {
  const job = await jobsRepository().get(REPORT_JOB_KIND, params.job_id);
  if (!job || job.tenant !== tenant) throw new NotFoundError(`Report job ${params.job_id} not found`);
  return { body: toStatusRecord(job as ReportJob) };
});
