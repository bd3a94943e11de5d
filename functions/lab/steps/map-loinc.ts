import { mapToLoinc } from '../parsers';
import { updateResults } from './extraction-artifact';
import { labStep } from './stage';

/** Test names → LOINC codes, using the UCUM unit and the panel to choose between candidates. */
export const handler = labStep('map_loinc', async (job, state, io) => {
  await updateResults(io, job.jobId, (result, panel) => ({ ...result, ...mapToLoinc(result.biomarker, { ucumCode: result.ucumCode, panelName: panel.panelName }) }));
  return state;
});
