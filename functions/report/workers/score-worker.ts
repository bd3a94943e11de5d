import { REPORT_JOB_KIND, reportObjectKeys } from '../report-job';
import { ReportInputSchema } from '../schemas';
import { scoreReport } from '../score-report';
import { stepContext } from './context';
import { reportStep, StepInputSchema } from './worker';

/** Scores the stored request and stores the results beside it; the state gets only their key. */
export const handler = reportStep('score', StepInputSchema, async ({ jobId }) => {
  const { jobs, objects, bucket } = stepContext();
  const keys = reportObjectKeys(jobId);
  const stored = await objects.get(bucket, keys.input);
  const scored = scoreReport(ReportInputSchema.parse(JSON.parse(stored.body.toString('utf8'))));
  await objects.put(bucket, keys.scores, JSON.stringify(scored), 'application/json');
  await jobs.update(REPORT_JOB_KIND, jobId, { scoredAt: new Date().toISOString() });
  return { scoresKey: keys.scores };
});
