import type { DocumentClassification } from '../classify-document';
import { extractLabResults } from '../parsers';
import { labKeys } from '../storage-keys';
import { readJson, readPages, writeJson } from './pipeline-io';
import { labStep } from './stage';

type ReportClassification = Extract<DocumentClassification, { kind: 'lab_report' }>;

/** Reads the panels and results from the redacted text; codes are left to the next two steps. */
export const handler = labStep('extract', async (job, state, io) => {
  const keys = labKeys(job.jobId);
  const classification = await readJson<ReportClassification>(io, keys.classification);
  const extraction = extractLabResults(await readPages(io, keys.textItems), classification, { codes: false });
  await writeJson(io, keys.extraction, extraction);
  return state;
});
