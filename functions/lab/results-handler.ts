import { NotFoundError, TooEarlyError } from '../http/errors';
import { httpRoute } from '../http/handler';
import { setting } from '../platform/config';
import { jobsRepository } from '../platform/dynamodb-jobs-repository';
import { objectStore } from '../platform/s3-object-store';
import { JobIdParamsSchema, ResultsQuerySchema } from './api-schemas';
import { subjectReference } from './fhir/subject';
import { toFhirBundle } from './fhir/to-fhir-bundle';
import { isTerminal } from './job-states';
import { jobResults, tenantJob } from './job-view';

/**
 * GET /extraction/lab/results/{jobId} (spec §4.8): the ExtractionResults of a completed job; 425 while
 * it is still being processed; 404 for unknown ids, other tenants' jobs and jobs that ended without
 * results (so a poller stops).
 */
export const handler = httpRoute({ dialect: 'extraction', params: JobIdParamsSchema, query: ResultsQuerySchema }, async ({ params, query, tenant }) => {
  const job = await tenantJob(jobsRepository(), tenant, params.jobId);
  if (!isTerminal(job.status)) throw new TooEarlyError(`Job ${job.jobId} is still being processed (status ${job.status}); poll the status endpoint`);
  if (job.status !== 'completed') throw new NotFoundError(`Job ${job.jobId} ended with status ${job.status} and has no results`);
  const results = await jobResults(objectStore(), setting('HALE_ARTIFACTS_BUCKET'), job);
  if (query.format === 'fhir') {
    const subject = job.fhirSubject ? subjectReference(job.fhirSubject) : undefined;
    return { body: toFhirBundle(results, { issued: job.finishedAt, subject }), headers: { 'content-type': 'application/fhir+json; charset=utf-8' } };
  }
  return { body: results };
});
