import panelTable from '../../../data/lab/loinc-panels.json';
import { loincRow } from '../loinc/map-to-loinc';
import type { LabPanel } from '../results-schema';
import type { FhirCodeableConcept } from './fhir-schemas';
import { LOINC } from './terminology';

/**
 * DiagnosticReport.code of a printed panel, always LOINC-coded, with the printed name as text:
 * 1. the panel's LOINC panel code when its printed name is in data/lab/loinc-panels.json;
 * 2. else, for a panel of one test with a LOINC code (HEMOGLOBIN A1c, TSH), that test's code: the
 *    test was ordered on its own, and LOINC codes such tests for both order and result;
 * 3. else LOINC 11502-2 "Laboratory report", the generic code of a laboratory report.
 */

interface PanelRow {
  code: string;
  display: string;
  printedNames: string[];
}

const fold = (name: string): string => name.toUpperCase().replace(/[^A-Z0-9]/g, '');

const BY_NAME = new Map<string, PanelRow>((panelTable.panels as PanelRow[]).flatMap((row) => row.printedNames.map((name) => [fold(name), row] as const)));

export function panelCode(panel: LabPanel): FhirCodeableConcept {
  const known = BY_NAME.get(fold(panel.panelName));
  if (known) return { coding: [{ system: LOINC, code: known.code, display: known.display }], text: panel.panelName };
  const only = panel.panelResults.length === 1 ? panel.panelResults[0]!.loincCode : null;
  if (only) {
    const display = loincRow(only)?.longCommonName;
    return { coding: [{ system: LOINC, code: only, ...(display ? { display } : {}) }], text: panel.panelName };
  }
  const { code, display } = panelTable.fallback;
  return { coding: [{ system: LOINC, code, display }], text: panel.panelName };
}
