import { NotFoundError } from '../http/errors';
import type { JobsRepository, ObjectStore } from '../platform/ports';
import type { StatusResponse } from './api-schemas';
import { asLabJob, type LabJob } from './lab-job';
import { type ExtractionResults, ExtractionResultsSchema } from './results-schema';
import { labKeys } from './storage-keys';

/**
 * Reading a lab job on behalf of a caller. A job of another API key answers exactly like a job that
 * does not exist, so ids cannot be probed across tenants.
 */
export async function tenantJob(jobs: JobsRepository, tenant: string, jobId: string): Promise<LabJob> {
  const record = await jobs.get('lab', jobId);
  if (!record || record.tenant !== tenant) throw new NotFoundError(`No lab job ${jobId}`);
  return asLabJob(record);
}

export async function jobResults(objects: ObjectStore, artifactsBucket: string, job: LabJob): Promise<ExtractionResults> {
  const { body } = await objects.get(artifactsBucket, labKeys(job.jobId).results);
  return ExtractionResultsSchema.parse(JSON.parse(body.toString('utf8')));
}

export function statusView(job: LabJob, results: ExtractionResults | undefined): StatusResponse {
  return {
    jobId: job.jobId,
    status: job.status,
    filename: job.filename,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    finishedAt: job.finishedAt ?? null,
    stages: job.stageTimes,
    rejection_reason: job.rejectionReason ?? null,
    // A completed job's lab is the one its results name; the job record holds one only for refused documents.
    detected_lab: results ? results.labName : (job.detectedLab ?? null),
    message: job.message ?? null,
    error_type: job.errorType ?? null,
    verification: job.verification ?? null,
    phiRedactions: job.phiRedactions ?? null,
    ...(results ? { results } : {}),
    deliveries: job.deliveries ?? [],
  };
}
