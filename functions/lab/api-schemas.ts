import { MAX_REQUEST_BODY_BYTES } from '../http/request-limits';
import { z } from '../http/zod';
import { UPLOAD_LIMITS } from '../platform/resources';
import { DeliveryAttemptSchema } from './delivery-schema';
import { FhirSubjectSchema } from './fhir/subject';
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
    .optional()
    .describe('Original file name, for display (1–255 characters, no path separators or control characters)'),
  dateOfBirth: z.iso
    .date()
    .refine((value) => value >= '1900-01-01' && value <= new Date().toISOString().slice(0, 10), 'must be a past date after 1900')
    .optional()
    .describe('Date of birth of the person the report should belong to (YYYY-MM-DD, after 1900, not in the future); only used to compute verification.dobMatches, never stored or returned'),
  webhookUrl: z.url({ protocol: /^https?$/ }).max(2048).optional().describe('Public https endpoint (up to 2,048 characters) that receives the job\'s end event (spec §6.2)'),
  rejectIfPHI: z.boolean().default(false).describe('true: a document with PHI is rejected (rejected_phi) and deleted instead of redacted; default false'),
  fhirSubject: FhirSubjectSchema.optional(),
}).meta({ id: 'LabUploadRequest', description: 'A PDF inline (pdfFile), or nothing and a pre-signed upload URL comes back' });
export type UploadRequest = z.infer<typeof UploadRequestSchema>;

const JOB_ID = 'Hale\'s id of the job; follow it at GET /extraction/lab/status/{jobId}';

export const UploadAcceptedSchema = z.object({
  jobId: z.uuid().describe(JOB_ID),
  status: z.literal('queued').describe('Always queued'),
  message: z.string().describe('What happens next, for a person to read'),
}).meta({ id: 'LabUploadAccepted', description: 'The inline PDF was accepted and is being processed' });

export const UploadUrlIssuedSchema = z.object({
  jobId: z.uuid().describe(JOB_ID),
  status: z.literal('pending_upload').describe('Always pending_upload'),
  uploadUrl: z.url().describe('HTTP PUT the PDF here with Content-Type application/pdf before expiresAt'),
  expiresAt: z.iso.datetime().describe('When uploadUrl stops accepting the PDF (ISO 8601, UTC; 5 minutes after issue)'),
  maxBytes: z.number().int().positive().describe('Largest PDF uploadUrl accepts, in bytes (52,428,800 = 50 MB)'),
}).meta({ id: 'LabUploadUrl', description: 'A pre-signed URL to PUT the PDF to' });

// Any string: an id that is not a job's answers 404 like an unknown one.
export const JobIdParamsSchema = z.object({ jobId: z.string().min(1).max(100).describe('jobId from the upload answer (1–100 characters)') });

export const ResultsQuerySchema = z.object({
  format: z.enum(['json', 'fhir']).default('json').describe('json (the ExtractionResults, default) or fhir (a FHIR R4 Bundle, application/fhir+json)'),
});

export const StatusResponseSchema = z.object({
  jobId: z.uuid().describe('The job\'s id'),
  status: LabJobStateSchema,
  filename: z.string().nullable().describe('filename of the upload; null when none was given'),
  createdAt: z.iso.datetime().describe('When the job was created (ISO 8601, UTC)'),
  updatedAt: z.iso.datetime().describe('When the job last changed (ISO 8601, UTC)'),
  finishedAt: z.iso.datetime().nullable().describe('When the job reached its terminal state (ISO 8601, UTC); null while it runs'),
  stages: z
    .record(z.string(), z.iso.datetime().describe('When the step began (ISO 8601, UTC)'))
    .describe(
      'When each pipeline step began, by step, in pipeline order: validate_pdf, detect_language, detect_phi, classify, extract, standardise_ucum, map_loinc, finalise; ' +
        'steps not reached are absent',
    ),
  rejection_reason: RejectionReasonSchema.nullable().describe('Why the document was refused (invalid_document, quarantined); otherwise null'),
  detected_lab: z
    .string()
    .nullable()
    .describe('The laboratory named on the document: for a completed job the results\' labName; for invalid_document the lab found, null when none was; otherwise null'),
  message: z.string().nullable().describe('Why the job failed or was refused, for a person to read; otherwise null'),
  error_type: LabErrorTypeSchema.nullable().describe('Why a failed job failed (stable codes); null unless status is failed'),
  verification: VerificationSchema.nullable().describe('Date-of-birth check, once the PHI step has run; otherwise null'),
  phiRedactions: PhiCountsSchema.nullable().describe('How many PHI spans of each category were removed (found, for rejected_phi), once the PHI step has run; otherwise null'),
  // A named component: a property that refers to it takes its description from there.
  results: ExtractionResultsSchema.optional(),
  deliveries: z.array(DeliveryAttemptSchema).describe('Every webhook attempt so far, oldest first; empty without webhookUrl'),
}).meta({ id: 'LabJobStatus', description: 'Where a lab job is; `results` (the ExtractionResults) is present only when status is completed' });
export type StatusResponse = z.infer<typeof StatusResponseSchema>;

/** The body POSTed to webhookUrl when a job ends (spec §6.2), built by webhooks/envelope.ts. */
export const WebhookEnvelopeSchema = z.object({
  event: z
    .enum(['job.completed', 'job.failed', 'job.quarantined', 'job.rejected_phi', 'job.invalid_document'] as const satisfies readonly `job.${LabTerminalState}`[])
    .describe('job.<the terminal state the job reached>'),
  jobId: z.uuid().describe('The job\'s id'),
  timestamp: z.iso.datetime({ offset: true }).describe('When the job ended (ISO 8601 with offset); the same on every retry'),
  data: z
    .union([
      ExtractionResultsSchema,
      z.object({
        status: LabJobStateSchema,
        error: z.object({
          message: z.string().describe('Why, for a person to read'),
          error_type: LabErrorTypeSchema.optional().describe('job.failed only: why the job failed'),
          rejection_reason: RejectionReasonSchema.optional().describe('job.invalid_document: why the document was refused'),
          detected_lab: z.string().nullable().optional().describe('job.invalid_document: the lab named on the document; null when none was found'),
          detected_language: z.string().optional().describe('job.quarantined: the ISO 639-3 code of the language found (e.g. spa)'),
          phi_categories: PhiCountsSchema.optional().describe('job.rejected_phi: how many PHI spans of each category were found'),
        }).describe('What ended the job'),
      }).describe('Any event but job.completed'),
    ])
    .describe('job.completed: the ExtractionResults; other events: the status and data.error'),
}).meta({ id: 'LabWebhookEvent', description: 'The event POSTed to webhookUrl when a lab job ends' });
