import { z } from '../http/zod';
import { PredictorInputSchema } from '../scoring/schemas';

/**
 * Request and response schemas of the report routes (spec §2.2–2.7). The 422 messages name the
 * failing field path (DESIGN §3); the cross-field rules below put their issue on the field a caller
 * has to fix.
 */

export const AuthTypeSchema = z.enum(['bearer', 'api_key', 'basic', 'none']);
export type AuthType = z.infer<typeof AuthTypeSchema>;

/** RFC 9110 token; headers Hale sets itself may not be overridden by `auth_key_name`. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const RESERVED_HEADERS = new Set(['host', 'content-type', 'content-length', 'transfer-encoding', 'connection', 'x-job-id', 'authorization']);

export const NO_TARGET_MESSAGE = 'Either s3_presigned_url or callback_url is required';

export const ReportConfigurationSchema = z
  .object({
    s3_presigned_url: z.url({ protocol: /^https?$/ }).max(4096).optional(),
    callback_url: z.url({ protocol: /^https?$/ }).max(2048).optional(),
    auth_type: AuthTypeSchema.default('none'),
    auth_token: z.string().min(1).max(4096).optional(),
    auth_key_name: z
      .string()
      .max(128)
      .regex(HEADER_NAME, 'must be an HTTP header name')
      .refine((name) => !RESERVED_HEADERS.has(name.toLowerCase()), 'is a header Hale sets itself')
      .default('X-API-Key'),
  })
  .superRefine((configuration, ctx) => {
    if (!configuration.s3_presigned_url && !configuration.callback_url) {
      ctx.addIssue({ code: 'custom', message: NO_TARGET_MESSAGE, path: ['callback_url'] });
    }
    if (configuration.auth_type !== 'none' && !configuration.auth_token) {
      ctx.addIssue({ code: 'custom', message: `auth_token is required when auth_type is ${configuration.auth_type}`, path: ['auth_token'] });
    }
  })
  .meta({ id: 'ReportConfiguration', description: 'Where the PDF goes and how Hale authenticates to callback_url' });
export type ReportConfiguration = z.infer<typeof ReportConfigurationSchema>;

export const ReportMetadataSchema = z.object({
  event_id: z.uuid(),
  event_asof_dtutc: z.iso.datetime({ offset: true }),
  mode: z.literal('report'),
  configuration: ReportConfigurationSchema,
});

export const ReportHealthEventSchema = z.object({
  health_event_id: z.string().min(1).max(128),
  /** Age in years at the event (fractional); the timeline of the report. */
  event_age: z.number().min(0).max(120),
  predictors: z.array(PredictorInputSchema).max(500),
}).meta({ id: 'ReportHealthEvent' });
export type ReportHealthEvent = z.infer<typeof ReportHealthEventSchema>;

export const FullReportRequestSchema = z.object({
  report_metadata: ReportMetadataSchema,
  uid_ext: z.string().min(1).max(256),
  health_events: z.array(ReportHealthEventSchema).min(1).max(200),
}).meta({ id: 'FullReportRequest' });
export type FullReportRequest = z.infer<typeof FullReportRequestSchema>;

export const CondensedReportRequestSchema = z.object({
  report_metadata: ReportMetadataSchema,
  uid_ext: z.string().min(1).max(256),
  health_event: ReportHealthEventSchema,
}).meta({ id: 'CondensedReportRequest' });
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
  job_id: z.uuid(),
  status: z.enum(['accepted', 'failed']),
  message: z.string(),
  estimated_completion_seconds: z.number(),
}).meta({ id: 'ReportJob' });
export type ReportJobResponse = z.infer<typeof ReportJobResponseSchema>;

export const ReportJobStatusSchema = z.enum(['pending', 'processing', 'completed', 'failed']);
export type ReportJobStatus = z.infer<typeof ReportJobStatusSchema>;

export const ReportStatusRecordSchema = z.object({
  job_id: z.string(),
  status: ReportJobStatusSchema,
  created_at: z.string(),
  updated_at: z.string(),
  error_type: z.string().nullable(),
  error_message: z.string().nullable(),
}).meta({ id: 'ReportJobStatus' });
export type ReportStatusRecord = z.infer<typeof ReportStatusRecordSchema>;

export const ReportStatusParamsSchema = z.object({ job_id: z.string().min(1).max(64) });

/** The JSON POSTed to callback_url when the job ends (§2.7); `processing_time` in seconds (DESIGN §3). */
export const ReportStatusCallbackSchema = z.object({
  job_id: z.string(),
  status: z.enum(['success', 'failed']),
  processing_time: z.number(),
  timestamp: z.string(),
  s3_location: z.string().optional(),
  error_type: z.string().optional(),
  error_message: z.string().optional(),
  error_details: z.record(z.string(), z.unknown()).optional(),
}).meta({ id: 'ReportStatusCallback' });
export type ReportStatusCallback = z.infer<typeof ReportStatusCallbackSchema>;
