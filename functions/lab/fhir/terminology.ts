/** Code systems of the FHIR export, named once (never inline URIs). */
export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
/** HL7 v3 ObservationInterpretation: Observation.interpretation (H, L, HH, LL, A, AA, N, IND). */
export const OBSERVATION_INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
/** Observation.category, code `laboratory`. */
export const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
/** HL7 v2 table 0074 (diagnostic service section): DiagnosticReport.category, code `LAB`. */
export const V2_0074 = 'http://terminology.hl7.org/CodeSystem/v2-0074';
/** Why an Observation has no value. */
export const DATA_ABSENT_REASON = 'http://terminology.hl7.org/CodeSystem/data-absent-reason';
/**
 * US Core 6.1.0 (STU6.1) profiles the export claims when the caller gives a subject:
 * https://hl7.org/fhir/us/core/STU6.1/StructureDefinition-us-core-observation-lab.html and
 * https://hl7.org/fhir/us/core/STU6.1/StructureDefinition-us-core-diagnosticreport-lab.html.
 */
export const US_CORE_OBSERVATION_LAB = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-observation-lab';
export const US_CORE_DIAGNOSTIC_REPORT_LAB = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-diagnosticreport-lab';
