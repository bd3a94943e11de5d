import { randomUUID } from 'node:crypto';
import absentReasons from '../../../data/lab/fhir-data-absent-reasons.json';
import { loincRow } from '../loinc/map-to-loinc';
import { toNumber } from '../parsers/values';
import type { ExtractionResults, LabPanel, PanelResult } from '../results-schema';
import type { FhirBundle, FhirBundleEntry, FhirCodeableConcept, FhirDiagnosticReport, FhirObservation, FhirReference } from './fhir-schemas';
import { interpretation, interpretationCode } from './interpretation';
import { panelCode } from './panel-code';
import { numericRange, quantityOf, referenceRange } from './reference-range';
import { DATA_ABSENT_REASON, LOINC, OBSERVATION_CATEGORY, US_CORE_DIAGNOSTIC_REPORT_LAB, US_CORE_OBSERVATION_LAB, V2_0074 } from './terminology';

/**
 * ExtractionResults → FHIR R4 `collection` Bundle: one DiagnosticReport per printed panel (its code
 * the panel's LOINC code, panel-code.ts), each followed by one Observation per printed result.
 *
 * With a subject (the caller's `fhirSubject`) every resource carries it and, when the report prints a
 * collection date, claims the US Core 6.1.0 profiles it meets: Laboratory Result Observation and DiagnosticReport for Laboratory Results
 * Reporting. Without one the bundle is plain R4 and claims no profile, because US Core requires a
 * subject (1..1) and Hale keeps no patient: it never derives one from the document's PHI.
 *
 * Values: numbers and censored numbers (`<0.5`, comparator) are Quantities with the printed unit and
 * its UCUM code; text results are strings; words that stand for a missing result (TNP, QNS) are a
 * dataAbsentReason. Ranges and interpretation: reference-range.ts and interpretation.ts.
 */

export interface FhirExportOptions {
  /** When the results were released (instant); defaults to now. */
  issued?: string;
  /** The caller's subject reference (functions/lab/fhir/subject.ts); makes the bundle US Core. */
  subject?: FhirReference;
  /** Source of the `urn:uuid:` ids; tests pass a deterministic one. */
  newId?: () => string;
}

interface Context {
  issued: string;
  subject?: FhirReference;
}

const LAB_CATEGORY: FhirCodeableConcept = { coding: [{ system: OBSERVATION_CATEGORY, code: 'laboratory', display: 'Laboratory' }] };
const LAB_SECTION: FhirCodeableConcept = { coding: [{ system: V2_0074, code: 'LAB', display: 'Laboratory' }] };
const ABSENT_REASONS: Record<string, { code: string; display: string }> = absentReasons.reasons;

function observationCode(result: PanelResult): FhirCodeableConcept {
  if (!result.loincCode) return { text: result.biomarker };
  const display = loincRow(result.loincCode)?.longCommonName;
  return { coding: [{ system: LOINC, code: result.loincCode, ...(display ? { display } : {}) }], text: result.biomarker };
}

/** The number of a numeric or censored result (`<0.5` → 0.5), else null. */
function numberOf(result: PanelResult): number | null {
  if (result.resultValue === null || result.resultType === 'string') return null;
  const number = toNumber(result.resultValue.replace(/^[<>≤≥]\s*(?:=|\s*or\s*=)?\s*/i, ''));
  return Number.isFinite(number) ? number : null;
}

function absentReason(reason: { code: string; display: string } | undefined, text: string | null): FhirCodeableConcept {
  const { code, display } = reason ?? { code: 'unknown', display: 'Unknown' };
  const coding = [{ system: DATA_ABSENT_REASON, code, display }];
  return text ? { coding, text } : { coding };
}

function value(result: PanelResult, number: number | null): Pick<FhirObservation, 'valueQuantity' | 'valueString' | 'dataAbsentReason'> {
  const printed = result.resultValue;
  if (printed === null) return { dataAbsentReason: absentReason(undefined, null) };
  if (number !== null) {
    return { valueQuantity: { ...quantityOf(number, result), ...(result.resultOperator ? { comparator: result.resultOperator } : {}) } };
  }
  const reason = ABSENT_REASONS[printed.trim().replace(/:$/, '').toUpperCase()];
  if (reason) return { dataAbsentReason: absentReason(reason, printed) };
  return { valueString: printed };
}

/** When the specimen was collected: the panel's date, else the report's; none when the report prints none. */
function effective(panel: LabPanel, results: ExtractionResults): Pick<FhirObservation, 'effectiveDateTime'> {
  const date = panel.dateCollected ?? results.dateCollected;
  return date ? { effectiveDateTime: date } : {};
}

/**
 * The subject, and the US Core claim when the resource meets the profile: with a subject and a
 * collection date (US Core wants effective[x]; us-core-8 requires it of a final DiagnosticReport).
 */
function profiled(profile: string, context: Context, panel: LabPanel, results: ExtractionResults) {
  if (!context.subject) return {};
  const dated = Boolean(panel.dateCollected ?? results.dateCollected);
  return { ...(dated ? { meta: { profile: [profile] } } : {}), subject: context.subject };
}

/**
 * The validation flags that name this result (its panel, name and page), as the Observation's notes: an
 * export read alone must say what the JSON results say of a value, that OCR doubted it or that it
 * contradicts its range, and not hand on a doubted reading as a plain final value.
 */
function notesOf(result: PanelResult, panel: LabPanel, results: ExtractionResults): { note?: { text: string }[] } {
  const flags = results.validationFlags.filter((flag) => flag.biomarker === result.biomarker && flag.panelName === panel.panelName && (flag.pageNumber ?? result.pageNumber) === result.pageNumber);
  return flags.length > 0 ? { note: flags.map((flag) => ({ text: `${flag.code}: ${flag.message}` })) } : {};
}

function observation(result: PanelResult, panel: LabPanel, results: ExtractionResults, context: Context): FhirObservation {
  const number = numberOf(result);
  const range = numericRange(result);
  const code = interpretationCode(result, number, range);
  const referenceRanges = referenceRange(result);
  return {
    resourceType: 'Observation',
    ...profiled(US_CORE_OBSERVATION_LAB, context, panel, results),
    status: 'final',
    category: [LAB_CATEGORY],
    code: observationCode(result),
    ...effective(panel, results),
    issued: context.issued,
    ...value(result, number),
    ...(code ? { interpretation: interpretation(code) } : {}),
    ...(referenceRanges ? { referenceRange: referenceRanges } : {}),
    ...notesOf(result, panel, results),
  };
}

function panelEntries(panel: LabPanel, results: ExtractionResults, context: Context, newId: () => string): FhirBundleEntry[] {
  const observations = panel.panelResults.map((result) => ({ fullUrl: `urn:uuid:${newId()}`, resource: observation(result, panel, results, context) }));
  const report: FhirDiagnosticReport = {
    resourceType: 'DiagnosticReport',
    ...profiled(US_CORE_DIAGNOSTIC_REPORT_LAB, context, panel, results),
    status: 'final',
    category: [LAB_SECTION],
    code: panelCode(panel),
    ...effective(panel, results),
    issued: context.issued,
    ...(results.labName ? { performer: [{ display: results.labName }] } : {}),
    ...(observations.length > 0 ? { result: observations.map((entry) => ({ reference: entry.fullUrl })) } : {}),
  };
  return [{ fullUrl: `urn:uuid:${newId()}`, resource: report }, ...observations];
}

export function toFhirBundle(results: ExtractionResults, options: FhirExportOptions = {}): FhirBundle {
  const newId = options.newId ?? randomUUID;
  const context: Context = { issued: options.issued ?? new Date().toISOString(), ...(options.subject ? { subject: options.subject } : {}) };
  return {
    resourceType: 'Bundle',
    type: 'collection',
    timestamp: context.issued,
    entry: results.panels.flatMap((panel) => panelEntries(panel, results, context, newId)),
  };
}
