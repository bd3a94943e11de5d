import { z } from '../http/zod';
import type { JobRecord } from '../platform/ports';
import { DeliveryAttemptSchema } from './delivery-schema';
import { FhirSubjectSchema } from './fhir/subject';
import { LabJobStateSchema } from './job-states';
import { PhiCountsSchema } from './phi/categories';
import { VerificationSchema } from './results-schema';

/**
 * The attributes a lab job keeps in the jobs table. Nothing here is PHI: the caller's date of birth
 * is held only as a keyed digest until the PHI step has compared it (phi/date-of-birth.ts) and then
 * cleared; PHI found in the document is kept as counts per category.
 */
export const RejectionReasonSchema = z
  .enum(['non_supported_lab', 'non_english_document', 'multiple_collection_dates', 'non_us_document', 'non_lab_document'])
  .describe(
    'Why the document was refused: non_supported_lab (not Quest or Labcorp), non_english_document, multiple_collection_dates (likely concatenated reports), ' +
      'non_us_document (dates that are not US month/day), non_lab_document (not a clinical lab report)',
  );
export type RejectionReason = z.infer<typeof RejectionReasonSchema>;

/**
 * Why a lab job ended `failed`: a documented, stable code (the message says it in words). Business
 * outcomes of the document each have their own; anything unexpected is `internal_error`.
 */
export const LabErrorTypeSchema = z
  .enum(['document_missing', 'file_too_large', 'not_a_pdf', 'invalid_pdf', 'too_many_pages', 'unreadable_document', 'no_results_found', 'upload_not_received', 'timeout', 'internal_error'])
  .describe(
    'Why the job failed: document_missing (the upload is gone), file_too_large, not_a_pdf, invalid_pdf (corrupt, encrypted or unreadable), too_many_pages (more scanned pages than one report has), unreadable_document (a page has no usable text layer and OCR could not read it either), no_results_found (a lab report with no result rows Hale could read), upload_not_received (the pre-signed upload never arrived), timeout (processing did not finish in time), internal_error',
  );
export type LabErrorType = z.infer<typeof LabErrorTypeSchema>;

export const LabJobSchema = z.object({
  kind: z.literal('lab'),
  jobId: z.string(),
  tenant: z.string(),
  status: LabJobStateSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  filename: z.string().nullable(),
  webhookUrl: z.string().nullable(),
  rejectIfPHI: z.boolean(),
  dobDigest: z.string().nullable().optional(),
  /** The caller's subject for the FHIR export (not read from the document); never logged. */
  fhirSubject: FhirSubjectSchema.optional(),
  /** Pre-signed flow: when the upload URL stops accepting the PUT. */
  uploadExpiresAt: z.string().optional(),
  /** When each pipeline step began (step name → ISO time). */
  stageTimes: z.record(z.string(), z.string()).default({}),
  verification: VerificationSchema.optional(),
  phiRedactions: PhiCountsSchema.optional(),
  detectedLanguage: z.string().optional(),
  rejectionReason: RejectionReasonSchema.optional(),
  detectedLab: z.string().nullable().optional(),
  /** Safe, caller-facing message of a failed, quarantined or rejected job. */
  message: z.string().optional(),
  errorType: LabErrorTypeSchema.optional(),
  finishedAt: z.string().optional(),
  /** When a sweep first found the job past its deadline and handed it to the state machine to fail it. */
  overdueSince: z.string().optional(),
  deliveries: z.array(DeliveryAttemptSchema).optional(),
});
export type LabJob = z.infer<typeof LabJobSchema>;

export function asLabJob(record: JobRecord): LabJob {
  return LabJobSchema.parse(record);
}
