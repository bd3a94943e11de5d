import { withUcumCode } from '../parsers';
import { updateResults } from './extraction-artifact';
import { labStep } from './stage';

/**
 * Printed units → UCUM codes. Runs before LOINC mapping because the unit is what tells apart LOINC
 * codes that share a test name (mass vs molar concentration, nmol/L vs mg/dL Lp(a)).
 */
export const handler = labStep('standardise_ucum', async (job, state, io) => {
  await updateResults(io, job.jobId, withUcumCode);
  return state;
});
