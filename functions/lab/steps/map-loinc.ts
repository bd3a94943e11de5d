import { withLostUnitUncoded } from '../ocr/lost-unit';
import { mapToLoinc } from '../parsers';
import { updateResults } from './extraction-artifact';
import { labStep } from './stage';

/**
 * Test names → LOINC codes, using the UCUM unit and the panel to choose between candidates; a scanned
 * number that lost its unit has its UCUM code unknown once its test says it has one (ocr/lost-unit.ts).
 */
export const handler = labStep('map_loinc', async (job, state, io) => {
  await updateResults(io, job.jobId, (result, panel) => withLostUnitUncoded({ ...result, ...mapToLoinc(result.biomarker, { ucumCode: result.ucumCode, panelName: panel.panelName }) }));
  return state;
});
