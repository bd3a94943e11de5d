import { randomUUID } from 'node:crypto';
import type { Bundle, BundleEntry, CodeableConcept, DiagnosticReport, Observation, ObservationReferenceRange, Quantity, Reference } from 'fhir/r4';
import { loincRow } from '../loinc/map-to-loinc';
import { toNumber } from '../parsers/values';
import type { ExtractionResults, LabPanel, PanelResult, ResultFlag } from '../results-schema';
import { DATA_ABSENT_REASON, LOINC, OBSERVATION_CATEGORY, OBSERVATION_INTERPRETATION, UCUM, V2_0074 } from './terminology';

/**
 * ExtractionResults → FHIR R4 `collection` Bundle: one DiagnosticReport and one Observation per result
 * (aesthetics-and-ecosystem.md §3.6). Base R4 resources, not US Core: Hale keeps no patient, so there
 * is no `subject` unless the caller passes an opaque reference of its own. Units that map to UCUM are
 * coded; the others keep their printed text without a system rather than an invented code.
 */

export interface FhirExportOptions {
  /** When the results were released (instant); defaults to now. */
  issued?: string;
  /** A caller-owned, opaque subject reference (e.g. `Patient/123` on the caller's server). */
  subject?: Reference;
  /** Source of the `urn:uuid:` ids; tests pass a deterministic one. */
  newId?: () => string;
}

const INTERPRETATION_DISPLAY: Record<ResultFlag, string> = {
  H: 'High',
  L: 'Low',
  HH: 'Critical high',
  LL: 'Critical low',
  A: 'Abnormal',
  AA: 'Critical abnormal',
  N: 'Normal',
};

const LAB_CATEGORY: CodeableConcept = { coding: [{ system: OBSERVATION_CATEGORY, code: 'laboratory', display: 'Laboratory' }] };

function quantity(value: number, result: PanelResult): Quantity {
  const q: Quantity = { value };
  const unit = result.resultUnit ?? result.ucumCode ?? undefined;
  if (unit) q.unit = unit;
  if (result.ucumCode) {
    q.system = UCUM;
    q.code = result.ucumCode;
  }
  return q;
}

function observationCode(result: PanelResult): CodeableConcept {
  const concept: CodeableConcept = { text: result.biomarker };
  if (result.loincCode) {
    const display = loincRow(result.loincCode)?.longCommonName;
    concept.coding = [{ system: LOINC, code: result.loincCode, ...(display ? { display } : {}) }];
  }
  return concept;
}

function setValue(observation: Observation, result: PanelResult): void {
  const printed = result.resultValue;
  if (printed === null) {
    observation.dataAbsentReason = { coding: [{ system: DATA_ABSENT_REASON, code: 'unknown' }] };
    return;
  }
  if (result.resultType === 'string') {
    observation.valueString = printed;
    return;
  }
  const number = toNumber(printed.replace(/^[<>≤≥]\s*(?:=|\s*or\s*=)?\s*/i, ''));
  if (!Number.isFinite(number)) {
    observation.valueString = printed;
    return;
  }
  const q = quantity(number, result);
  if (result.resultOperator) q.comparator = result.resultOperator;
  observation.valueQuantity = q;
}

function referenceRange(result: PanelResult): ObservationReferenceRange[] | undefined {
  const range: ObservationReferenceRange = {};
  if (result.minRefRangeValue !== null) range.low = quantity(result.minRefRangeValue, result);
  if (result.maxRefRangeValue !== null) range.high = quantity(result.maxRefRangeValue, result);
  if (result.referenceRangeText) range.text = result.referenceRangeText;
  return Object.keys(range).length > 0 ? [range] : undefined;
}

function observation(result: PanelResult, panel: LabPanel, options: FhirExportOptions, issued: string): Observation {
  const obs: Observation = {
    resourceType: 'Observation',
    status: 'final',
    category: [LAB_CATEGORY],
    code: observationCode(result),
    issued,
  };
  if (panel.dateCollected) obs.effectiveDateTime = panel.dateCollected;
  if (options.subject) obs.subject = options.subject;
  setValue(obs, result);
  if (result.flag) {
    obs.interpretation = [{ coding: [{ system: OBSERVATION_INTERPRETATION, code: result.flag, display: INTERPRETATION_DISPLAY[result.flag] }] }];
  }
  const range = referenceRange(result);
  if (range) obs.referenceRange = range;
  return obs;
}

export function toFhirBundle(results: ExtractionResults, options: FhirExportOptions = {}): Bundle {
  const newId = options.newId ?? randomUUID;
  const issued = options.issued ?? new Date().toISOString();
  const observations: BundleEntry<Observation>[] = results.panels.flatMap((panel) =>
    panel.panelResults.map((result) => ({ fullUrl: `urn:uuid:${newId()}`, resource: observation(result, panel, options, issued) })),
  );
  const report: DiagnosticReport = {
    resourceType: 'DiagnosticReport',
    status: 'final',
    category: [{ coding: [{ system: V2_0074, code: 'LAB', display: 'Laboratory' }] }],
    code: { text: results.labName ? `${results.labName} laboratory report` : 'Laboratory report' },
    issued,
    result: observations.map((entry) => ({ reference: entry.fullUrl! })),
  };
  if (results.dateCollected) report.effectiveDateTime = results.dateCollected;
  if (results.labName) report.performer = [{ display: results.labName }];
  if (options.subject) report.subject = options.subject;
  return {
    resourceType: 'Bundle',
    type: 'collection',
    timestamp: issued,
    entry: [{ fullUrl: `urn:uuid:${newId()}`, resource: report }, ...observations],
  };
}
