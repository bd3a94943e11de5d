import { comprehendPhiDetector } from '../../platform/comprehend-phi-detector';
import { config, setting } from '../../platform/config';
import { countByCategory, mergeSpans, type PhiDetector } from '../phi/categories';
import { builtinPhiDetector, printedDatesOfBirth } from '../phi/builtin-detector';
import { verifyDateOfBirth } from '../phi/date-of-birth';
import { documentText } from '../phi/document-text';
import { redactPages } from '../phi/redact';
import { withoutServiceDates } from '../phi/service-dates';
import { labKeys } from '../storage-keys';
import { readPages, writeJson } from './pipeline-io';
import { labStep } from './stage';

/** HALE_PHI_DETECTOR chooses the twin: Comprehend Medical in AWS, the built-in detector locally. */
function phiDetector(): PhiDetector {
  return config().HALE_PHI_DETECTOR === 'builtin' ? builtinPhiDetector : comprehendPhiDetector();
}

/**
 * Finds PHI in the document's text. With rejectIfPHI and PHI found the job ends `rejected_phi`
 * (Finish deletes every file). Otherwise the text items are overwritten with their redacted copy
 * before any later step reads them. Either way the date-of-birth check is settled here and the
 * caller's date-of-birth digest is cleared; only counts per category are kept.
 */
export const handler = labStep('detect_phi', async (job, state, io) => {
  // A retry after a run that got as far as recording its findings: the stored text is already
  // redacted and the digest cleared, so running again would undercount and lose the DOB check.
  if (job.phiRedactions !== undefined) {
    const found = Object.keys(job.phiRedactions).length > 0;
    return job.rejectIfPHI && found ? { ...state, outcome: { status: 'rejected_phi' } } : state;
  }
  const key = labKeys(job.jobId).textItems;
  const pages = await readPages(io, key);
  const layout = documentText(pages);
  const spans = mergeSpans(withoutServiceDates(layout.text, await phiDetector().detect(layout.text)));
  const verification = verifyDateOfBirth(
    printedDatesOfBirth(layout.text),
    job.dobDigest ?? undefined,
    job.jobId,
    job.dobDigest ? setting('HALE_CREDENTIALS_KEY') : undefined,
  );
  const findings = { verification, phiRedactions: countByCategory(spans), dobDigest: null };
  if (job.rejectIfPHI && spans.length > 0) {
    await io.jobs.update('lab', job.jobId, findings);
    return { ...state, outcome: { status: 'rejected_phi' } };
  }
  await writeJson(io, key, redactPages(pages, layout, spans));
  await io.jobs.update('lab', job.jobId, findings);
  return state;
});
