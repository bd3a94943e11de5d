import type { DocumentClassification } from '../classify-document';
import { mapToLoinc } from '../loinc/map-to-loinc';
import type { PageText } from '../pdf-text';
import type { LabPanel, MergeAction, PanelResult, ValidationFlag } from '../results-schema';
import { toUcum } from '../ucum/to-ucum';
import { boundingBox } from './layout';
import { type RawPanel, type RawResult, readTables } from './table';
import { validatePanels } from './validate';
import { LAB_NAMES, LAYOUTS } from './vendors';

export { mapToLoinc } from '../loinc/map-to-loinc';
export { toUcum } from '../ucum/to-ucum';
export { validatePanels } from './validate';

/**
 * Extraction step of the lab pipeline: classified pages in, panels of results out. By default the
 * LOINC and UCUM steps and the validation run here too; a pipeline that runs them as separate steps
 * passes `{ codes: false }` and later calls `applyCodes` and `validatePanels`.
 */

export interface LabExtraction {
  panels: LabPanel[];
  mergeActions: MergeAction[];
  validationFlags: ValidationFlag[];
  labName: string | null;
  dateCollected: string | null;
}

export interface ExtractOptions {
  /** Map LOINC and UCUM codes and validate (default true). */
  codes?: boolean;
}

type ReportClassification = Extract<DocumentClassification, { kind: 'lab_report' }>;

export function panelCode(panelName: string): string {
  return (
    panelName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'panel'
  );
}

function toPanelResult(raw: RawResult): PanelResult {
  const result: PanelResult = {
    biomarker: raw.biomarker,
    resultValue: raw.value.resultValue,
    resultType: raw.value.resultType,
    resultUnit: raw.unit,
    loincCode: null,
    loincMatchType: null,
    ucumCode: null,
    ucumMatchMethod: null,
    minRefRangeValue: raw.range?.min ?? null,
    maxRefRangeValue: raw.range?.max ?? null,
    referenceRangeText: raw.range?.text ?? null,
    pageNumber: raw.pageNumber,
    provenance: {
      pageNumber: raw.pageNumber,
      bbox: boundingBox(raw.lines),
      sourceText: raw.lines.map((l) => l.text).join('\n'),
    },
    confidence: raw.confidence,
  };
  if (raw.flag) result.flag = raw.flag;
  if (raw.value.resultOperator) result.resultOperator = raw.value.resultOperator;
  return result;
}

function toPanel(raw: RawPanel, dateCollected: string): LabPanel {
  return {
    panelName: raw.name,
    panelCode: panelCode(raw.name),
    dateCollected: raw.dateCollected ?? dateCollected,
    pageNumber: raw.pageNumber,
    panelResults: raw.results.map(toPanelResult),
  };
}

/** Fills the UCUM and LOINC fields of every result (UCUM first: the unit helps choose the LOINC code). */
export function applyCodes(panels: readonly LabPanel[]): LabPanel[] {
  return panels.map((panel) => ({
    ...panel,
    panelResults: panel.panelResults.map((result) => {
      const ucum = toUcum(result.resultUnit, { numeric: result.resultType !== 'string' });
      const loinc = mapToLoinc(result.biomarker, { ucumCode: ucum.ucumCode, panelName: panel.panelName });
      return { ...result, ...ucum, ...loinc };
    }),
  }));
}

export function extractLabResults(pages: readonly PageText[], classification: ReportClassification, options: ExtractOptions = {}): LabExtraction {
  const tables = readTables(pages, LAYOUTS[classification.layout]);
  let panels = tables.panels.map((p) => toPanel(p, classification.collectionDate));
  let validationFlags: ValidationFlag[] = [];
  if (options.codes !== false) {
    panels = applyCodes(panels);
    validationFlags = validatePanels(panels);
  }
  return {
    panels,
    mergeActions: tables.mergeActions,
    validationFlags,
    labName: LAB_NAMES[classification.vendor],
    dateCollected: classification.collectionDate,
  };
}
