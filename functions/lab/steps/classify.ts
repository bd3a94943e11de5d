import { classifyDocument } from '../classify-document';
import { labKeys } from '../storage-keys';
import { readPages, writeJson } from './pipeline-io';
import { labStep } from './stage';

/**
 * The document check on the redacted text: a single-visit US Quest or Labcorp report goes on to
 * extraction (its classification kept as an artifact, collection date included); anything else ends
 * the job `invalid_document` with the reason and the lab name when one was found.
 */
export const handler = labStep('classify', async (job, state, io) => {
  const keys = labKeys(job.jobId);
  const classification = classifyDocument(await readPages(io, keys.textItems));
  if (classification.kind === 'invalid') {
    return { ...state, outcome: { status: 'invalid_document', rejectionReason: classification.reason, detectedLab: classification.detectedLab } };
  }
  await writeJson(io, keys.classification, classification);
  return state;
});
