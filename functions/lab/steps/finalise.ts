import type { LabExtraction } from '../parsers';
import { validatePanels } from '../parsers';
import { ExtractionResultsSchema } from '../results-schema';
import { labKeys } from '../storage-keys';
import { readJson, writeJson } from './pipeline-io';
import { labStep } from './stage';

/** Assembles the ExtractionResults (spec §2.10), validates them against their schema and stores them. */
export const handler = labStep('finalise', async (job, state, io) => {
  const keys = labKeys(job.jobId);
  const extraction = await readJson<LabExtraction>(io, keys.extraction);
  const results = ExtractionResultsSchema.parse({
    jobId: job.jobId,
    status: 'completed',
    labName: extraction.labName,
    dateCollected: extraction.dateCollected,
    verification: job.verification ?? { dobFound: false, dobMatches: null },
    panels: extraction.panels,
    mergeActions: extraction.mergeActions,
    validationFlags: [...extraction.validationFlags, ...validatePanels(extraction.panels)],
  });
  await writeJson(io, keys.results, results);
  return { ...state, outcome: { status: 'completed' } };
});
