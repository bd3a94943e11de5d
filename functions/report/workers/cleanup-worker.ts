import { REPORT_JOB_KIND, reportObjectKeys } from '../report-job';
import { type StepContext, stepContext } from './context';
import { reportStep, StepInputSchema } from './worker';

/**
 * Forgets the delivery target (URLs, token) and deletes whatever the job left in the artifacts bucket
 * (request, scores, an undelivered PDF); answers how many objects went. The bucket's lifecycle rule
 * removes anything a crashed execution could not.
 */
export async function cleanUpJob(context: Pick<StepContext, 'jobs' | 'objects' | 'bucket'>, jobId: string): Promise<number> {
  await context.jobs.update(REPORT_JOB_KIND, jobId, { sealedTarget: null });
  return context.objects.deletePrefix(context.bucket, reportObjectKeys(jobId).prefix);
}

/** Last step on every path. */
export const handler = reportStep('cleanup', StepInputSchema, async ({ jobId }) => ({ deletedObjects: await cleanUpJob(stepContext(), jobId) }));
