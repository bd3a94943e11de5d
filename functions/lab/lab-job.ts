import { z } from '../http/zod';
import type { JobRecord } from '../platform/ports';
import { DeliveryAttemptSchema } from './delivery-schema';
import { LabJobStateSchema } from './job-states';
import { PhiCountsSchema } from './phi/categories';
import { VerificationSchema } from './results-schema';

/**
 * The attributes a lab job keeps in the jobs table. Nothing here is PHI: the caller's date of birth
 * is held only as a keyed digest until the PHI step has compared it (phi/date-of-birth.ts) and then
 * cleared; PHI found in the document is kept as counts per category.
 */
export const RejectionReasonSchema = z.enum(['non_supported_lab', 'non_english_document', 'multiple_collection_dates', 'non_us_document', 'non_lab_document']);
export type RejectionReason = z.infer<typeof RejectionReasonSchema>;

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
  finishedAt: z.string().optional(),
  /** When a sweep first found the job past its deadline and handed it to the state machine to fail it. */
  overdueSince: z.string().optional(),
  deliveries: z.array(DeliveryAttemptSchema).optional(),
});
export type LabJob = z.infer<typeof LabJobSchema>;

export function asLabJob(record: JobRecord): LabJob {
  return LabJobSchema.parse(record);
}
