import { ReportInputError } from '../pipeline-errors';
import { REPORT_JOB_KIND, reportObjectKeys } from '../report-job';
import { ReportInputSchema } from '../schemas';
import { scoreReport } from '../score-report';
import { stepContext } from './context';
import { failureOf, reportStep, type StepFailure, StepInputSchema } from './worker';

/**
 * Scores the stored request and stores the results beside it; the state gets only their key. A
 * request that does not score (no sex, no result) ends the job: a failure, not an error.
 */
export const handler = reportStep('score', StepInputSchema, async ({ jobId }): Promise<{ scoresKey: string } | { failure: StepFailure }> => {
  const { jobs, objects, bucket } = stepContext();
  const keys = reportObjectKeys(jobId);
  const stored = await objects.get(bucket, keys.input);
  let scored: ReturnType<typeof scoreReport>;
  try {
    scored = scoreReport(ReportInputSchema.parse(JSON.parse(stored.body.toString('utf8'))));
  } catch (error) {
    if (error instanceof ReportInputError) return { failure: failureOf(error) };
    throw error;
  }
  await objects.put(bucket, keys.scores, JSON.stringify(scored), 'application/json');
  await jobs.update(REPORT_JOB_KIND, jobId, { scoredAt: new Date().toISOString() });
  return { scoresKey: keys.scores };
});
