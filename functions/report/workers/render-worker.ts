import { z } from '../../http/zod';
import { referenceRangeLookup } from '../biomarker-ranges';
import { reportFonts } from '../fonts';
import { renderReport } from '../layout/render-report';
import { REPORT_JOB_KIND, reportObjectKeys } from '../report-job';
import { ReportInputSchema } from '../schemas';
import { ScoredReportSchema } from '../scored-report';
import { stepContext } from './context';
import { reportStep, StepInputSchema } from './worker';

/** Renders the PDF from the stored scores and puts it in the artifacts bucket; the state gets its key. */
export const handler = reportStep('render', StepInputSchema.extend({ scoresKey: z.string() }), async ({ jobId, scoresKey }) => {
  const { jobs, objects, bucket } = stepContext();
  const keys = reportObjectKeys(jobId);
  const [input, scored] = await Promise.all([
    objects.get(bucket, keys.input).then((o) => ReportInputSchema.parse(JSON.parse(o.body.toString('utf8')))),
    objects.get(bucket, scoresKey).then((o) => ScoredReportSchema.parse(JSON.parse(o.body.toString('utf8')))),
  ]);
  const pdf = await renderReport(
    {
      variant: input.variant,
      uidExt: input.uid_ext,
      asOf: input.event_asof_dtutc,
      results: scored.results,
      ranges: referenceRangeLookup(scored.sex),
      scoringVersion: scored.scoring_version,
    },
    reportFonts(),
    new Date(),
  );
  await objects.put(bucket, keys.pdf, Buffer.from(pdf), 'application/pdf');
  await jobs.update(REPORT_JOB_KIND, jobId, { renderedAt: new Date().toISOString(), pdfBytes: pdf.length });
  return { pdfKey: keys.pdf, bytes: pdf.length };
});
