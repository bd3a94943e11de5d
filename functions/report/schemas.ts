import { z } from '../http/zod';
import { PredictorInputSchema } from '../scoring/schemas';
import { ReportErrorTypeSchema } from './error-types';

/**
 * Request and response schemas of the report routes (spec §2.2–2.7). The 422 messages name the
 * failing field path (DESIGN §3); the cross-field rules below put their issue on the field a caller
 * has to fix.
 */

export const AuthTypeSchema = z.enum(['bearer', 'api_key', 'basic', 'none']);
const AUTH_TYPE =
  'How Hale authenticates to callback_url: bearer (`Authorization: Bearer <auth_token>`), api_key (header auth_key_name: auth_token), ' +
  'basic (`Authorization: Basic` of auth_token `user:password`) or none';
export type AuthType = z.infer<typeof AuthTypeSchema>;

/** RFC 9110 token; headers Hale sets itself may not be overridden by `auth_key_name`. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const RESERVED_HEADERS = new Set(['host', 'content-type', 'content-length', 'transfer-encoding', 'connection', 'x-job-id', 'authorization']);

export const NO_TARGET_MESSAGE = 'Either s3_presigned_url or callback_url is required';

export const ReportConfigurationSchema = z
  .object({
    s3_presigned_url: z
      .url({ protocol: /^https?$/ })
      .max(4096)
      .optional()
      .describe('Pre-signed S3 PUT URL (public https, up to 4,096 characters) the PDF is uploaded to; a pre-signed GET URL fails the job with 403'),
    callback_url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional()
      .describe('Public https URL (up to 2,048 characters) that receives the status callback (POST) and, without s3_presigned_url, the PDF (PUT)'),
    auth_type: AuthTypeSchema.default('none').describe(AUTH_TYPE),
    auth_token: z.string().min(1).max(4096).optional().describe('Credential sent to callback_url (up to 4,096 characters); required unless auth_type is none. Stored encrypted, never returned'),
    auth_key_name: z
      .string()
      .max(128)
      .regex(HEADER_NAME, 'must be an HTTP header name')
      .refine((name) => !RESERVED_HEADERS.has(name.toLowerCase()), 'is a header Hale sets itself')
      .default('X-API-Key')
      .describe('Header that carries auth_token when auth_type is api_key (an HTTP header name, not one Hale sets itself); default X-API-Key'),
  })
  .superRefine((configuration, ctx) => {
    if (!configuration.s3_presigned_url && !configuration.callback_url) {
      ctx.addIssue({ code: 'custom', message: NO_TARGET_MESSAGE, path: ['callback_url'] });
    }
    if (configuration.auth_type !== 'none' && !configuration.auth_token) {
      ctx.addIssue({ code: 'custom', message: `auth_token is required when auth_type is ${configuration.auth_type}`, path: ['auth_token'] });
    }
  })
  .meta({ id: 'ReportConfiguration', description: 'Where the PDF goes and how Hale authenticates to callback_url; s3_presigned_url or callback_url is required' });
export type ReportConfiguration = z.infer<typeof ReportConfigurationSchema>;

export const ReportMetadataSchema = z.object({
  event_id: z.uuid().describe('Caller\'s UUID of this report request'),
  event_asof_dtutc: z.iso.datetime({ offset: true }).describe('When the request was made (ISO 8601 date-time with Z or an offset); printed on the report as its date'),
  mode: z.literal('report').describe('Always `report`'),
  configuration: ReportConfigurationSchema,
}).describe('About this request: its id, its time and where the PDF goes');

export const ReportHealthEventSchema = z.object({
  health_event_id: z.string().min(1).max(128).describe('Caller\'s identifier of the event (1–128 characters); errors name it'),
  event_age: z.number().min(0).max(120).describe('Age in years at the event, fractional, 0–120; the report\'s timeline'),
  predictors: z.array(PredictorInputSchema).max(500).describe('The measurements of this event, at most 500'),
}).meta({ id: 'ReportHealthEvent', description: 'One measurement event, placed in time by the person\'s age' });
export type ReportHealthEvent = z.infer<typeof ReportHealthEventSchema>;

const UID_EXT = 'Caller\'s identifier of the person (1–256 characters); not printed on the report and not stored after the job';

export const FullReportRequestSchema = z.object({
  report_metadata: ReportMetadataSchema,
  uid_ext: z.string().min(1).max(256).describe(UID_EXT),
  health_events: z.array(ReportHealthEventSchema).min(1).max(200).describe('The events to report on, 1–200; with more than one the report shows trends'),
}).meta({ id: 'FullReportRequest', description: 'A full report: several events, scores per domain and their trends' });
export type FullReportRequest = z.infer<typeof FullReportRequestSchema>;

export const CondensedReportRequestSchema = z.object({
  report_metadata: ReportMetadataSchema,
  uid_ext: z.string().min(1).max(256).describe(UID_EXT),
  health_event: ReportHealthEventSchema,
}).meta({ id: 'CondensedReportRequest', description: 'A condensed report: one event, at most two pages' });
export type CondensedReportRequest = z.infer<typeof CondensedReportRequestSchema>;

export type ReportVariant = 'full' | 'condensed';

/** What the pipeline scores and renders, whichever endpoint accepted it (stored in S3, never in state). */
export const ReportInputSchema = z.object({
  variant: z.enum(['full', 'condensed']),
  uid_ext: z.string(),
  event_asof_dtutc: z.string(),
  health_events: z.array(ReportHealthEventSchema).min(1),
});
export type ReportInput = z.infer<typeof ReportInputSchema>;

export const ReportJobResponseSchema = z.object({
  job_id: z.uuid().describe('Hale\'s id of the job; follow it at GET /health-score/report/status/{job_id}'),
  status: z.enum(['accepted', 'failed']).describe('`accepted`, or `failed` when the pipeline could not be started (the job is then failed too)'),
  message: z.string().describe('What happens next, for a person to read'),
  estimated_completion_seconds: z.number().describe('Estimated seconds until the PDF is delivered, from measured step costs (≥ 0)'),
}).meta({ id: 'ReportJob', description: 'The job a report request created' });
export type ReportJobResponse = z.infer<typeof ReportJobResponseSchema>;

export const ReportJobStatusSchema = z
  .enum(['pending', 'processing', 'completed', 'failed'])
  .describe('pending (accepted, not started), processing, completed (PDF delivered) or failed');
export type ReportJobStatus = z.infer<typeof ReportJobStatusSchema>;

export const ReportStatusRecordSchema = z.object({
  job_id: z.string().describe('The job\'s id'),
  status: ReportJobStatusSchema,
  created_at: z.string().describe('When the job was accepted (ISO 8601, UTC)'),
  updated_at: z.string().describe('When the status last changed (ISO 8601, UTC)'),
  error_type: ReportErrorTypeSchema.nullable().describe('Why the job failed, one of a stable set (ReportErrorType), when status is failed; otherwise null'),
  error_message: z.string().nullable().describe('The failure for a person to read, without internals, when status is failed; otherwise null'),
}).meta({ id: 'ReportJobStatus', description: 'A report job\'s state' });
export type ReportStatusRecord = z.infer<typeof ReportStatusRecordSchema>;

export const ReportStatusParamsSchema = z.object({ job_id: z.string().min(1).max(64).describe('job_id from the 202 answer (1–64 characters)') });

/** The JSON POSTed to callback_url when the job ends (§2.7); `processing_time` in seconds (DESIGN §3). */
export const ReportStatusCallbackSchema = z.object({
  job_id: z.string().describe('The job\'s id'),
  status: z.enum(['success', 'failed']).describe('success (PDF delivered) or failed'),
  processing_time: z.number().describe('Seconds from the start of processing (from acceptance, if processing never began) to the end of the job, ≥ 0, two decimals'),
  timestamp: z.string().describe('When the job ended (ISO 8601, UTC)'),
  s3_location: z.string().optional().describe('On success with s3_presigned_url: that URL without its query string'),
  error_type: ReportErrorTypeSchema.optional().describe('On failure: why, one of a stable set (ReportErrorType, as in the status record)'),
  error_message: z.string().optional().describe('On failure: the failure for a person to read'),
  error_details: z.record(z.string(), z.unknown()).optional().describe('On failure: `retryable` (whether the same request may succeed later), `failed_step`, `delivery_attempts`, and for delivery_failed `reason` (target_unavailable, target_rejected, presigned_url_rejected or target_blocked)'),
}).meta({ id: 'ReportStatusCallback', description: 'The status callback POSTed to callback_url when a report job ends' });
export type ReportStatusCallback = z.infer<typeof ReportStatusCallbackSchema>;
