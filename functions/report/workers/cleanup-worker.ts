import { REPORT_JOB_KIND, reportObjectKeys } from '../report-job';
import { type StepContext, stepContext } from './context';
import { reportStep, StepInputSchema } from './worker';

const ENDED = ['completed', 'failed'];

/**
 * Forgets the delivery target (URLs, token) and deletes whatever the job left in the artifacts bucket
 * (request, scores, an undelivered PDF); answers how many objects went. Then, if the job has ended,
 * takes it out of the open-jobs index, where it stayed with its clean-up due: a clean-up that fails
 * leaves it there, and the five-minute sweep calls this again until it succeeds (cleanup-retry.ts).
 */
export async function cleanUpJob(context: Pick<StepContext, 'jobs' | 'objects' | 'bucket'>, jobId: string): Promise<number> {
  await context.jobs.update(REPORT_JOB_KIND, jobId, { sealedTarget: null });
  const deleted = await context.objects.deletePrefix(context.bucket, reportObjectKeys(jobId).prefix);
  const job = await context.jobs.get(REPORT_JOB_KIND, jobId);
  if (job && ENDED.includes(job.status)) await context.jobs.transition(REPORT_JOB_KIND, jobId, { from: [job.status], to: job.status, terminal: true });
  return deleted;
}

/** Last step on every path. */
export const handler = reportStep('cleanup', StepInputSchema, async ({ jobId }) => ({ deletedObjects: await cleanUpJob(stepContext(), jobId) }));
