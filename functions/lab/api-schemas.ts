import { MAX_REQUEST_BODY_BYTES } from '../http/request-limits';
import { z } from '../http/zod';
import { UPLOAD_LIMITS } from '../platform/resources';
import { DeliveryAttemptSchema } from './delivery-schema';
import { LabJobStateSchema, type LabTerminalState } from './job-states';
import { LabErrorTypeSchema, RejectionReasonSchema } from './lab-job';
import { PhiCountsSchema } from './phi/categories';
import { ExtractionResultsSchema, VerificationSchema } from './results-schema';

/** Request and response bodies of the extraction routes (spec §4.6–4.8); the OpenAPI document is built from these. */

export const UploadRequestSchema = z.object({
  pdfFile: z
    .string()
    .min(1)
    .optional()
    .describe(
      `The PDF, base64-encoded, at most ${UPLOAD_LIMITS.inlinePdfMaxBytes} bytes (4 MB) decoded, in a request body of at most ${MAX_REQUEST_BODY_BYTES} bytes; larger is 413 file_too_large. Omit it to get a pre-signed upload URL (up to 50 MB)`,
    ),
  filename: z
    .string()
    .min(1)
    .max(255)
    .refine((name) => !/[/\\]/.test(name) && [...name].every((c) => c.charCodeAt(0) >= 0x20), 'must be a file name without path separators or control characters')
    .optional(),
  dateOfBirth: z.iso
    .date()
    .refine((value) => value >= '1900-01-01' && value <= new Date().toISOString().slice(0, 10), 'must be a past date after 1900')
    .optional()
    .describe('Only used to compute verification.dobMatches; never stored or returned'),
  webhookUrl: z.url({ protocol: /^https?$/ }).max(2048).optional().describe('Public https endpoint that receives the job events (spec §6.2)'),
  rejectIfPHI: z.boolean().default(false),
});
export type UploadRequest = z.infer<typeof UploadRequestSchema>;

export const UploadAcceptedSchema = z.object({
  jobId: z.uuid(),
  status: z.literal('queued'),
  message: z.string(),
});

export const UploadUrlIssuedSchema = z.object({
  jobId: z.uuid(),
  status: z.literal('pending_upload'),
  uploadUrl: z.url().describe('HTTP PUT the PDF here with Content-Type application/pdf before expiresAt'),
  expiresAt: z.iso.datetime(),
  maxBytes: z.number().int().positive(),
});

// Any string: an id that is not a job's answers 404 like an unknown one.
export const JobIdParamsSchema = z.object({ jobId: z.string().min(1).max(100) });

export const ResultsQuerySchema = z.object({ format: z.enum(['json', 'fhir']).default('json') });

export const StatusResponseSchema = z.object({
  jobId: z.uuid(),
  status: LabJobStateSchema,
  filename: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  /** When each pipeline step began. */
  stages: z.record(z.string(), z.iso.datetime()),
  rejection_reason: RejectionReasonSchema.nullable(),
  detected_lab: z.string().nullable(),
  message: z.string().nullable(),
  error_type: LabErrorTypeSchema.nullable().describe('Why a failed job failed (stable codes); null unless status is failed'),
  verification: VerificationSchema.nullable(),
  /** How many PHI spans of each category were removed (or found, for rejected_phi). */
  phiRedactions: PhiCountsSchema.nullable(),
  results: ExtractionResultsSchema.optional(),
  deliveries: z.array(DeliveryAttemptSchema),
});
export type StatusResponse = z.infer<typeof StatusResponseSchema>;

/** The body POSTed to webhookUrl when a job ends (spec §6.2), built by webhooks/envelope.ts. */
export const WebhookEnvelopeSchema = z.object({
  event: z.enum(['job.completed', 'job.failed', 'job.quarantined', 'job.rejected_phi', 'job.invalid_document'] as const satisfies readonly `job.${LabTerminalState}`[]),
  jobId: z.uuid(),
  timestamp: z.iso.datetime({ offset: true }),
  data: z
    .union([
      ExtractionResultsSchema,
      z.object({
        status: LabJobStateSchema,
        error: z.object({
          message: z.string(),
          error_type: LabErrorTypeSchema.optional().describe('job.failed only: why the job failed'),
          rejection_reason: RejectionReasonSchema.optional(),
          detected_lab: z.string().nullable().optional(),
          detected_language: z.string().optional(),
          phi_categories: PhiCountsSchema.optional(),
        }),
      }),
    ])
    .describe('job.completed: the ExtractionResults; other events: the status and data.error'),
});
