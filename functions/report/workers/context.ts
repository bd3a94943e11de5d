import { setting } from '../../platform/config';
import { openCredential } from '../../platform/credentials-cipher';
import { jobsRepository } from '../../platform/dynamodb-jobs-repository';
import { outboundHttp } from '../../platform/outbound-http';
import type { JobsRepository, ObjectStore, OutboundHttp } from '../../platform/ports';
import { objectStore } from '../../platform/s3-object-store';
import { type DeliveryTarget, REPORT_JOB_KIND, type ReportJob, sealingContext } from '../report-job';

/** What the report steps share, built on first use in each Lambda container. */
export interface StepContext {
  jobs: JobsRepository;
  objects: ObjectStore;
  http: OutboundHttp;
  bucket: string;
}

let context: StepContext | undefined;

export function stepContext(): StepContext {
  context ??= { jobs: jobsRepository(), objects: objectStore(), http: outboundHttp(), bucket: setting('HALE_ARTIFACTS_BUCKET') };
  return context;
}

export class ReportJobMissingError extends Error {
  override name = 'ReportJobMissingError';
}

export async function loadJob(jobs: JobsRepository, jobId: string): Promise<ReportJob> {
  const job = await jobs.get(REPORT_JOB_KIND, jobId);
  if (!job) throw new ReportJobMissingError(`Report job ${jobId} does not exist or has expired`);
  return job as ReportJob;
}

/** The delivery target, opened only in the step that uses it; undefined once cleanup removed it. */
export function deliveryTarget(job: ReportJob): DeliveryTarget | undefined {
  if (!job.sealedTarget) return undefined;
  return JSON.parse(openCredential(job.sealedTarget, sealingContext(job.jobId))) as DeliveryTarget;
}
