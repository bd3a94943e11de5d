import fc from 'fast-check';
import { UploadRequestSchema } from '../../../../functions/lab/api-schemas';
import { FhirSubjectSchema, subjectReference } from '../../../../functions/lab/fhir/subject';

const fhirId = fc.stringMatching(/^[A-Za-z0-9.-]{1,64}$/);

describe('fhirSubject', () => {
  it('accepts Patient references, relative or absolute, with or without a version', () => {
    fc.assert(
      fc.property(fhirId, fc.option(fhirId, { nil: undefined }), fc.constantFrom('', 'https://fhir.example.org/r4/', 'http://ehr.test:8080/fhir/'), (id, version, base) => {
        const reference = `${base}Patient/${id}${version ? `/_history/${version}` : ''}`;
        expect(subjectReference(FhirSubjectSchema.parse({ reference }))).toEqual({ reference });
      }),
    );
  });

  it('refuses references to other resource types, ids FHIR does not allow, and anything else', () => {
    for (const reference of ['Practitioner/1', 'Patient/', 'Patient/a b', `Patient/${'x'.repeat(65)}`, 'urn:uuid:0d5c0f9e-1f1b-4c55-9a2b-0a0b0c0d0e0f', 'patient/1', 'Patient/1?x=y', 'javascript:Patient/1']) {
      expect({ reference, ok: FhirSubjectSchema.safeParse({ reference }).success }).toEqual({ reference, ok: false });
    }
    expect(FhirSubjectSchema.safeParse({ reference: 'Patient/1', display: 'Jane Doe' }).success).toBe(false);
    expect(FhirSubjectSchema.safeParse({ reference: 'Patient/1', identifier: { system: 'urn:x', value: '1' } }).success).toBe(false);
  });

  it('accepts an identifier with an absolute URI system and a visible value, as a logical Patient reference', () => {
    fc.assert(
      fc.property(fc.constantFrom('urn:oid:2.16.840.1.113883.19.5', 'https://hospital.test/mrn', 'urn:uuid:0d5c0f9e-1f1b-4c55-9a2b-0a0b0c0d0e0f'), fc.stringMatching(/^[!-~](?:[ -~]{0,40}[!-~])?$/), (system, value) => {
        expect(subjectReference(FhirSubjectSchema.parse({ identifier: { system, value } }))).toEqual({ type: 'Patient', identifier: { system, value } });
      }),
    );
    for (const identifier of [{ system: 'mrn', value: '1' }, { system: 'urn:x', value: ' 1' }, { system: 'urn:x', value: '' }, { system: 'urn:x', value: 'a\nb' }, { value: '1' }]) {
      expect(FhirSubjectSchema.safeParse({ identifier }).success).toBe(false);
    }
  });

  it('is optional on upload, and a bad one is named in the validation issues', () => {
    expect(UploadRequestSchema.parse({}).fhirSubject).toBeUndefined();
    const result = UploadRequestSchema.safeParse({ fhirSubject: { reference: 'Observation/1' } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path[0]).toBe('fhirSubject');
  });
});
