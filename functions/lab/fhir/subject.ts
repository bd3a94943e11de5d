import { z } from '../../http/zod';
import type { FhirReference } from './fhir-schemas';

/**
 * `fhirSubject` of a lab upload: who the results are about, in the caller's own terms. Either a
 * literal reference to a Patient on the caller's FHIR server (`Patient/123`, or its absolute URL), or
 * a logical reference by an identifier the caller chooses (system + value). Hale never derives it from
 * the document; it is kept with the job, used only in the FHIR export, and never logged.
 */

/** FHIR id: 1–64 of A–Z a–z 0–9 - . (https://hl7.org/fhir/R4/datatypes.html#id). */
const ID = '[A-Za-z0-9.-]{1,64}';
const PATIENT_REFERENCE = new RegExp(`^(?:https?://[A-Za-z0-9.-]+(?::\\d{1,5})?(?:/[A-Za-z0-9._~%!$&'()*+,;=:@-]+)*/)?Patient/${ID}(?:/_history/${ID})?$`);
/** An absolute URI (urn:oid:…, https://…): scheme, colon, no whitespace. */
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/;
/** Visible ASCII with inner spaces: a FHIR string (not blank, not padded) that no log or header can mangle. */
const VISIBLE_ASCII = /^[!-~](?:[ -~]*[!-~])?$/;

export const FhirSubjectSchema = z
  .union([
    z
      .object({
        reference: z
          .string()
          .max(2048)
          .regex(PATIENT_REFERENCE, 'must be a Patient reference such as Patient/123 or https://fhir.example.org/r4/Patient/123')
          .describe('Literal reference to the Patient on your FHIR server, e.g. `Patient/123`'),
      })
      .strict(),
    z
      .object({
        identifier: z
          .object({
            system: z.string().max(2048).regex(URI, 'must be an absolute URI, e.g. urn:oid:… or https://…').describe('Namespace of the identifier (an absolute URI)'),
            value: z.string().min(1).max(256).regex(VISIBLE_ASCII, 'must be visible ASCII characters, not blank or padded').describe('The identifier in that namespace'),
          })
          .strict()
          .describe('An identifier of the patient you choose'),
      })
      .strict(),
  ])
  .meta({
    id: 'LabFhirSubject',
    description:
      'Who the results are about, for the FHIR export: a Patient reference or an identifier you choose, never read from the document. ' +
      'With it the FHIR bundle meets US Core 6.1.0 (Laboratory Result Observation, DiagnosticReport for Laboratory Results Reporting); ' +
      'without it the bundle is plain FHIR R4 (US Core requires a subject). Stored with the job, never logged.',
  });
export type FhirSubject = z.infer<typeof FhirSubjectSchema>;

/** The subject as a FHIR Reference (a logical reference names its type, Patient). */
export function subjectReference(subject: FhirSubject): FhirReference {
  return 'reference' in subject ? { reference: subject.reference } : { type: 'Patient', identifier: { ...subject.identifier } };
}
