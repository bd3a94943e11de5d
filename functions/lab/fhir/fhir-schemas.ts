import { z } from '../../http/zod';

/**
 * The FHIR R4 resources Hale exports, as zod schemas: the single source of the exporter's types
 * (to-fhir-bundle.ts) and of the `application/fhir+json` response in the OpenAPI document. Each is
 * the subset of the R4 resource that Hale fills in (https://hl7.org/fhir/R4/); the tests validate
 * every exported bundle against the full R4 definitions as well.
 */

export const FhirCodingSchema = z
  .object({
    system: z.string().describe('Code system URI, e.g. http://loinc.org'),
    code: z.string().describe('Code in that system'),
    display: z.string().optional().describe('The code system\'s display name of the code'),
  })
  .meta({ id: 'FhirCoding', description: 'FHIR R4 Coding' });

export const FhirCodeableConceptSchema = z
  .object({
    coding: z.array(FhirCodingSchema).min(1).optional().describe('Codes of the concept'),
    text: z.string().optional().describe('The concept as printed on the report'),
  })
  .meta({ id: 'FhirCodeableConcept', description: 'FHIR R4 CodeableConcept: codes, the printed text, or both' });

const quantityShape = {
  value: z.number().describe('The number'),
  unit: z.string().optional().describe('Unit as printed on the report'),
  system: z.string().optional().describe('http://unitsofmeasure.org when `code` is a UCUM code'),
  code: z.string().optional().describe('UCUM code of the unit'),
};

export const FhirQuantitySchema = z
  .object({
    ...quantityShape,
    comparator: z.enum(['<', '<=', '>=', '>']).optional().describe('For a censored result (`<0.5`): the true value is on this side of `value`'),
  })
  .meta({ id: 'FhirQuantity', description: 'FHIR R4 Quantity' });

export const FhirSimpleQuantitySchema = z.object(quantityShape).meta({ id: 'FhirSimpleQuantity', description: 'FHIR R4 SimpleQuantity (a Quantity without comparator)' });

export const FhirIdentifierSchema = z
  .object({
    system: z.string().describe('Namespace of the identifier (a URI)'),
    value: z.string().describe('The identifier'),
  })
  .meta({ id: 'FhirIdentifier', description: 'FHIR R4 Identifier' });

export const FhirReferenceSchema = z
  .object({
    reference: z.string().optional().describe('Literal reference: `Patient/123`, an absolute URL, or `urn:uuid:` of an entry in this bundle'),
    type: z.string().optional().describe('Type of the resource referred to, with a logical (identifier) reference'),
    identifier: FhirIdentifierSchema.optional().describe('Logical reference: the identifier of the resource referred to'),
    display: z.string().optional().describe('Text alternative for the resource'),
  })
  .meta({ id: 'FhirReference', description: 'FHIR R4 Reference' });

export const FhirMetaSchema = z
  .object({ profile: z.array(z.string()).min(1).optional().describe('Profiles the resource claims to conform to') })
  .meta({ id: 'FhirMeta', description: 'FHIR R4 Meta' });

export const FhirReferenceRangeSchema = z
  .object({
    low: FhirSimpleQuantitySchema.optional().describe('Lowest value inside the range (inclusive)'),
    high: FhirSimpleQuantitySchema.optional().describe('Highest value inside the range (inclusive)'),
    text: z.string().optional().describe('The range as printed, e.g. `<5.7` or `NEGATIVE`'),
  })
  .meta({ id: 'FhirObservationReferenceRange', description: 'FHIR R4 Observation.referenceRange' });

const OBSERVATION_STATUS = ['registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error', 'unknown'] as const;
const REPORT_STATUS = ['registered', 'partial', 'preliminary', 'final', 'amended', 'corrected', 'appended', 'cancelled', 'entered-in-error', 'unknown'] as const;

export const FhirObservationSchema = z
  .object({
    resourceType: z.literal('Observation').describe('Always Observation'),
    meta: FhirMetaSchema.optional().describe('With fhirSubject: the US Core Laboratory Result Observation profile'),
    status: z.enum(OBSERVATION_STATUS).describe('Always `final`: the results as printed on a released report'),
    category: z.array(FhirCodeableConceptSchema).min(1).describe('`laboratory` (observation-category)'),
    code: FhirCodeableConceptSchema.describe('The test: LOINC when mapped, and the name as printed'),
    subject: FhirReferenceSchema.optional().describe('The caller\'s fhirSubject; absent without one'),
    effectiveDateTime: z.string().optional().describe('Date the specimen was collected'),
    issued: z.string().optional().describe('When the results were made available (the job\'s end)'),
    valueQuantity: FhirQuantitySchema.optional().describe('A numeric or censored result'),
    valueString: z.string().optional().describe('A text result (NEGATIVE, YELLOW, NONE SEEN)'),
    dataAbsentReason: FhirCodeableConceptSchema.optional().describe('Why there is no value (TNP, QNS, an unreadable cell)'),
    interpretation: z.array(FhirCodeableConceptSchema).min(1).optional().describe('HL7 v3 ObservationInterpretation: the printed flag, or the value against the range'),
    referenceRange: z.array(FhirReferenceRangeSchema).min(1).optional().describe('The printed reference range'),
    note: z
      .array(z.object({ text: z.string().describe('What to check, as the validation flag says it') }).describe('FHIR R4 Annotation'))
      .min(1)
      .optional()
      .describe('The validation flags of this result (validationFlags: a value read by OCR with low confidence, outside its range without a flag, …): check them before use'),
  })
  .meta({ id: 'FhirObservation', description: 'FHIR R4 Observation: one printed result' });

export const FhirDiagnosticReportSchema = z
  .object({
    resourceType: z.literal('DiagnosticReport').describe('Always DiagnosticReport'),
    meta: FhirMetaSchema.optional().describe('With fhirSubject: the US Core DiagnosticReport Profile for Laboratory Results Reporting'),
    status: z.enum(REPORT_STATUS).describe('Always `final`'),
    category: z.array(FhirCodeableConceptSchema).min(1).describe('`LAB` (HL7 v2 table 0074)'),
    code: FhirCodeableConceptSchema.describe('The panel: its LOINC panel code, and the name as printed'),
    subject: FhirReferenceSchema.optional().describe('The caller\'s fhirSubject; absent without one'),
    effectiveDateTime: z.string().optional().describe('Date the specimen was collected'),
    issued: z.string().optional().describe('When the results were made available (the job\'s end)'),
    performer: z.array(FhirReferenceSchema).min(1).optional().describe('The laboratory, by name'),
    result: z.array(FhirReferenceSchema).min(1).optional().describe('The panel\'s Observations (`urn:uuid:` of their entries)'),
  })
  .meta({ id: 'FhirDiagnosticReport', description: 'FHIR R4 DiagnosticReport: one printed panel' });

export const FhirBundleEntrySchema = z
  .object({
    fullUrl: z.string().describe('`urn:uuid:` id of the entry, which references inside the bundle use'),
    resource: z.discriminatedUnion('resourceType', [FhirDiagnosticReportSchema, FhirObservationSchema]).describe('A DiagnosticReport or an Observation'),
  })
  .meta({ id: 'FhirBundleEntry', description: 'FHIR R4 Bundle.entry' });

export const FhirBundleSchema = z
  .object({
    resourceType: z.literal('Bundle').describe('Always Bundle'),
    type: z.literal('collection').describe('Always `collection`'),
    timestamp: z.string().describe('When the bundle was assembled (the job\'s end)'),
    entry: z.array(FhirBundleEntrySchema).describe('One DiagnosticReport per panel, each followed by its Observations'),
  })
  .meta({ id: 'FhirBundle', description: 'FHIR R4 Bundle (type collection) of DiagnosticReports and Observations' });

export type FhirCoding = z.infer<typeof FhirCodingSchema>;
export type FhirCodeableConcept = z.infer<typeof FhirCodeableConceptSchema>;
export type FhirQuantity = z.infer<typeof FhirQuantitySchema>;
export type FhirSimpleQuantity = z.infer<typeof FhirSimpleQuantitySchema>;
export type FhirReference = z.infer<typeof FhirReferenceSchema>;
export type FhirReferenceRange = z.infer<typeof FhirReferenceRangeSchema>;
export type FhirObservation = z.infer<typeof FhirObservationSchema>;
export type FhirDiagnosticReport = z.infer<typeof FhirDiagnosticReportSchema>;
export type FhirBundleEntry = z.infer<typeof FhirBundleEntrySchema>;
export type FhirBundle = z.infer<typeof FhirBundleSchema>;
