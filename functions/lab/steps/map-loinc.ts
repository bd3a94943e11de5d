import { withLoincCode } from '../parsers';
import { updateResults } from './extraction-artifact';
import { labStep } from './stage';

/**
 * Test names → LOINC codes, using the UCUM unit and the panel to choose between candidates (as the
 * extraction codes them: parsers/index.ts `withLoincCode`).
 */
export const handler = labStep('map_loinc', async (job, state, io) => {
  await updateResults(io, job.jobId, (result, panel) => withLoincCode(result, panel.panelName));
  return state;
});
