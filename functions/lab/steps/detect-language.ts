import { detectLanguage } from '../language/detect-language';
import { labKeys } from '../storage-keys';
import { readPages } from './pipeline-io';
import { labStep } from './stage';

/** A document that is not predominantly English is quarantined (spec §3.2) before PHI detection reads it. */
export const handler = labStep('detect_language', async (job, state, io) => {
  const pages = await readPages(io, labKeys(job.jobId).textItems);
  const verdict = detectLanguage(pages.flatMap((page) => page.items.map((item) => item.str)).join(' '));
  await io.jobs.update('lab', job.jobId, { detectedLanguage: verdict.language });
  if (verdict.english === false) return { ...state, outcome: { status: 'quarantined', detectedLanguage: verdict.language } };
  return state;
});
