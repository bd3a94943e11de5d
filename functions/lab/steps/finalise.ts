import type { LabExtraction } from '../parsers';
import { validatePanels } from '../parsers';
import { ExtractionResultsSchema } from '../results-schema';
import { labKeys } from '../storage-keys';
import { readJson, writeJson } from './pipeline-io';
import { labStep } from './stage';

/** Said when a document passed every check but the reader found no result in it. */
export const NO_RESULTS_MESSAGE =
  'No lab results could be read from this document: it passed the document checks (a Quest or Labcorp report) but no result row was found in it';

/**
 * Assembles the ExtractionResults (spec §2.10), validates them against their schema and stores them.
 * A document that yields no result ends `failed` (`no_results_found`): `completed` always carries one.
 */
export const handler = labStep('finalise', async (job, state, io) => {
  const keys = labKeys(job.jobId);
  const extraction = await readJson<LabExtraction>(io, keys.extraction);
  if (extraction.panels.every((p) => p.panelResults.length === 0)) {
    return { ...state, outcome: { status: 'failed', errorType: 'no_results_found', message: NO_RESULTS_MESSAGE } };
  }
  const results = ExtractionResultsSchema.parse({
    jobId: job.jobId,
    status: 'completed',
    labName: extraction.labName,
    dateCollected: extraction.dateCollected,
    verification: job.verification ?? { dobFound: false, dobMatches: null },
    panels: extraction.panels,
    mergeActions: extraction.mergeActions,
    validationFlags: [...extraction.validationFlags, ...validatePanels(extraction.panels)],
    summary: extraction.summary,
  });
  await writeJson(io, keys.results, results);
  return { ...state, outcome: { status: 'completed' } };
});
