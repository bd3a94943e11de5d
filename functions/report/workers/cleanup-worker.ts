import { REPORT_JOB_KIND, reportObjectKeys } from '../report-job';
import { stepContext } from './context';
import { reportStep, StepInputSchema } from './worker';

/**
 * Last step on every path: forgets the delivery target (URLs, token) and deletes whatever the job
 * left in the artifacts bucket (request, scores, an undelivered PDF). The bucket's lifecycle rule
 * removes anything a crashed execution could not.
 */
export const handler = reportStep('cleanup', StepInputSchema, async ({ jobId }) => {
  const { jobs, objects, bucket } = stepContext();
  await jobs.update(REPORT_JOB_KIND, jobId, { sealedTarget: null });
  const deleted = await objects.deletePrefix(bucket, reportObjectKeys(jobId).prefix);
  return { deletedObjects: deleted };
});
