// Named imports, not `z` (see functions/scoring/schemas.ts).
import { array, boolean, type infer as Infer, iso, literal, number, object, record, string, union, url, uuid, enum as zenum } from 'zod';
import { TimeseriesResponseSchema } from '../scoring/schemas';
import { BULK_LIMITS } from './limits';

/** Request and response schemas of the bulk scoring routes (POST /health-score/bulk, GET /health-score/bulk/{job_id}). */

/** States of a bulk job, in the one order they move in (bulk-job.ts). */
export const BULK_STATES = ['pending_upload', 'queued', 'processing', 'completed', 'failed'] as const;

export const BulkCreateRequestSchema = object({
  format: zenum(['jsonl', 'csv']).meta({
    description: '`jsonl`: one POST /health-score/timeseries request per line; `csv`: one row per person-date (see the README and docs/examples/bulk-input.csv)',
  }),
  size_bytes: number()
    .int()
    .min(1)
    .optional()
    .meta({
      description: `Size of the file in bytes, at most ${BULK_LIMITS.maxInputBytes} (a larger one answers 413). When given, the upload must send exactly this Content-Length (it is signed into upload_url, so the store refuses any other size at upload); without it, a file over max_bytes is accepted by the store and the job then fails with error_type input_too_large`,
    }),
  webhookUrl: url({ protocol: /^https?$/ })
    .max(2048)
    .optional()
    .meta({ description: 'Receives a signed POST when the job completes or fails (as lab-extraction webhooks): https, public address' }),
}).meta({ id: 'BulkCreateRequest', description: 'The format and size of the file to score, and where to announce the outcome' });
export type BulkCreateRequest = Infer<typeof BulkCreateRequestSchema>;

export const BulkCreateResponseSchema = object({
  job_id: uuid().meta({ description: 'The job; poll GET /health-score/bulk/{job_id}' }),
  upload_url: string().meta({ description: 'Pre-signed URL: PUT the file here, with the content type below (and a Content-Length of size_bytes when it was given), before expires_at' }),
  upload_content_type: zenum(['application/x-ndjson', 'text/csv']).meta({ description: 'The Content-Type the upload must carry (it is signed into the URL)' }),
  expires_at: iso.datetime().meta({ description: 'When the upload URL stops accepting a PUT' }),
  max_bytes: number().int().meta({ description: `Largest file accepted (${BULK_LIMITS.maxInputBytes} bytes); a larger size_bytes answers 413` }),
}).meta({ id: 'BulkCreateResponse', description: 'The job, and where and how to upload its file' });
export type BulkCreateResponse = Infer<typeof BulkCreateResponseSchema>;

export const BulkJobParamsSchema = object({
  // A UUID is the same in either case (RFC 9562); ids are issued and stored in lower case.
  job_id: uuid()
    .overwrite((id) => id.toLowerCase())
    .meta({ description: 'Job id from POST /health-score/bulk (either case)' }),
});

const DistributionSchema = object({
  count: number().int().meta({ description: 'Scored person-dates with a value' }),
  mean: number().nullable().meta({ description: 'Mean; null when count is 0' }),
  min: number().nullable().meta({ description: 'Smallest value' }),
  p5: number().nullable().meta({ description: '5th percentile (to within the bin width: 1 point, 0.25 years, 2 % of a ratio)' }),
  p25: number().nullable().meta({ description: '25th percentile' }),
  median: number().nullable().meta({ description: 'Median' }),
  p75: number().nullable().meta({ description: '75th percentile' }),
  p95: number().nullable().meta({ description: '95th percentile' }),
  max: number().nullable().meta({ description: 'Largest value' }),
});

export const BulkSummarySchema = object({
  items: number().int().meta({ description: 'Lines (JSONL) or rows (CSV) read' }),
  by_status: object({
    scored: number().int().meta({ description: 'Items scored (in results)' }),
    invalid: number().int().meta({ description: 'Items that could not be scored (in errors)' }),
  }).meta({ description: 'Items by status' }),
  person_dates_scored: number().int().meta({ description: 'Dates scored (a JSONL line may score several)' }),
  domains: record(
    string(),
    object({
      scored: number().int().meta({ description: 'Person-dates this domain scored' }),
      not_scored: number().int().meta({ description: 'Person-dates outside the model (e.g. age), see the result notes' }),
      health_score: DistributionSchema.meta({ description: 'Distribution of health_score (0–100)' }),
      disease_age_minus_age: DistributionSchema.meta({ description: 'Distribution of disease_age − chronological age, in years' }),
      risk_ratio: DistributionSchema.meta({ description: "Distribution of the risk ratio against same-sex, same-age peers, of the domain's primary outcome (the first of its risk_ratios)" }),
    }),
  ).meta({ description: 'Per health domain (disease_code)' }),
}).meta({ id: 'BulkSummary', description: 'Counts by status and per-domain distributions of a completed job' });
export type BulkSummary = Infer<typeof BulkSummarySchema>;

const DeliverySchema = object({
  attempt: number().int().meta({ description: 'Attempt number, from 1' }),
  at: iso.datetime().meta({ description: 'When it was sent' }),
  target: zenum(['webhook', 'callback', 'presigned_url']).meta({ description: 'Always webhook here' }),
  statusCode: number().int().nullable().meta({ description: "The receiver's HTTP status; null when it could not be reached" }),
  error: string().nullable().meta({ description: 'Why the attempt failed; null when delivered' }),
  durationMs: number().meta({ description: 'How long the attempt took' }),
});

export const BulkStatusSchema = object({
  job_id: uuid().meta({ description: 'The job' }),
  status: zenum(BULK_STATES).meta({ description: 'pending_upload → queued → processing → completed | failed' }),
  format: zenum(['jsonl', 'csv']).meta({ description: 'Input format' }),
  progress: object({
    items_total: number().int().nullable().meta({ description: 'Items in the file; null until it has been read' }),
    items_done: number().int().meta({ description: 'Items scored or found invalid so far' }),
    items_failed: number().int().meta({ description: 'Items found invalid so far' }),
    rate_per_second: number().nullable().meta({ description: 'Items per second since processing began' }),
    eta_seconds: number().int().nullable().meta({ description: 'Seconds left at that rate' }),
  }).meta({ description: 'How far scoring has come' }),
  results_url: string().nullable().meta({ description: 'Completed: pre-signed GET of results.jsonl (one line per scored item: its timeseries response with `line`)' }),
  results_csv_url: string().nullable().meta({ description: 'Completed: pre-signed GET of results.csv (one row per scored person-date, per-domain columns)' }),
  errors_url: string().nullable().meta({ description: 'Completed: pre-signed GET of errors.jsonl (one line per invalid item: line, uid_ext, errors)' }),
  urls_expire_at: iso.datetime().nullable().meta({ description: `When these URLs expire (${BULK_LIMITS.downloadUrlSeconds} s; ask again for fresh ones)` }),
  summary: BulkSummarySchema.nullable().meta({ description: 'Completed: counts and per-domain distributions' }),
  error: object({
    type: zenum(['invalid_input', 'input_too_large', 'upload_expired', 'job_timeout', 'internal_error']).meta({ description: 'Stable code' }),
    message: string().meta({ description: 'What went wrong' }),
  })
    .nullable()
    .meta({ description: 'Failed: why' }),
  created_at: iso.datetime().meta({ description: 'When the job was created' }),
  updated_at: iso.datetime().meta({ description: 'Last change' }),
  finished_at: iso.datetime().nullable().meta({ description: 'When it completed or failed' }),
  deliveries: array(DeliverySchema).meta({ description: 'Webhook attempts' }),
}).meta({ id: 'BulkStatus', description: 'A bulk job: its state, progress and, once completed, its results' });
export type BulkStatus = Infer<typeof BulkStatusSchema>;

/** A line of results.jsonl: the line's timeseries response and its line number (for the OpenAPI document). */
export const BulkResultLineSchema = TimeseriesResponseSchema.extend({
  line: number().int().min(1).meta({ description: 'Line of the input file (CSV: the header is line 1)' }),
}).meta({ id: 'BulkResultLine', description: 'A line of results.jsonl' });

export const BulkErrorLineSchema = object({
  line: number().int().min(1).meta({ description: 'Line of the input file (CSV: the header is line 1)' }),
  uid_ext: string().nullable().meta({ description: "The item's uid_ext, when it could be read" }),
  errors: array(
    object({
      field: string().meta({ description: 'JSONL: dotted path in the request; CSV: the column; empty for the line as a whole' }),
      message: string().meta({ description: 'Why' }),
    }),
  ).meta({ description: 'Every problem of the line' }),
}).meta({ id: 'BulkErrorLine', description: 'A line of errors.jsonl' });

export const BulkWebhookSchema = object({
  event: union([literal('bulk.completed'), literal('bulk.failed')]).meta({ description: 'What happened' }),
  jobId: uuid().meta({ description: 'The job' }),
  timestamp: iso.datetime().meta({ description: 'When the job ended' }),
  data: object({
    status: zenum(['completed', 'failed']).meta({ description: 'Terminal status' }),
    progress: object({
      items_total: number().int().nullable().meta({ description: 'Items in the file; null when it was never read' }),
      items_done: number().int().meta({ description: 'Items scored or found invalid' }),
      items_failed: number().int().meta({ description: 'Items found invalid' }),
    }).meta({ description: 'Final counts' }),
    error: BulkStatusSchema.shape.error,
    results_ready: boolean().meta({ description: 'True when results can be fetched through GET /health-score/bulk/{job_id}' }),
  }).meta({ description: 'The outcome; fetch the status for download URLs and the summary' }),
}).meta({ id: 'BulkWebhookEvent', description: 'POSTed to webhookUrl when a bulk job ends' });
