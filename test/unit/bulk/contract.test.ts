import { BulkCreateRequestSchema, BulkCreateResponseSchema, BulkStatusSchema } from '../../../functions/bulk/schemas';
import { BatchPersonSchema, BatchRequestSchema, BatchResponseSchema, BatchResultSchema } from '../../../functions/scoring/batch-schemas';

/**
 * The contract of issue 16, field by field, as clients and tests rely on it: each schema (the single
 * source of the handlers' answers and of the OpenAPI document) carries at least these names and values.
 */

const fields = (schema: { shape: Record<string, unknown> }) => Object.keys(schema.shape);
const options = (schema: unknown) => (schema as { unwrap?: () => unknown }).unwrap?.() ?? schema;
const values = (schema: unknown) => [...((options(schema) as { options: readonly string[] }).options ?? [])];

describe('the batch and bulk contract (issue 16)', () => {
  it('POST /health-score/batch: {scoring_event_metadata, persons: [{uid_ext, date_of_birth, score_date, predictors}]}', () => {
    expect(fields(BatchRequestSchema)).toEqual(['scoring_event_metadata', 'persons']);
    expect(fields(BatchPersonSchema)).toEqual(['uid_ext', 'date_of_birth', 'score_date', 'predictors']);
  });

  it('answers {scoring_version, batch_results: [{uid_ext, status: scored | invalid, errors, scoring_event_date, scoring_event_age, disease_scores, scoring_predictors}]}', () => {
    expect(fields(BatchResponseSchema)).toEqual(['scoring_version', 'batch_results']);
    expect(fields(BatchResultSchema)).toEqual(expect.arrayContaining(['uid_ext', 'status', 'errors', 'scoring_event_date', 'scoring_event_age', 'disease_scores', 'scoring_predictors']));
    expect(values(BatchResultSchema.shape.status)).toEqual(['scored', 'invalid']);
  });

  it('POST /health-score/bulk: {format: jsonl | csv, size_bytes?, webhookUrl?} → 202 {job_id, upload_url, expires_at, max_bytes}', () => {
    // size_bytes is optional (the contract body is {format, webhookUrl?}); given, the upload URL binds the size.
    expect(fields(BulkCreateRequestSchema)).toEqual(['format', 'size_bytes', 'webhookUrl']);
    expect(values(BulkCreateRequestSchema.shape.format)).toEqual(['jsonl', 'csv']);
    expect(BulkCreateRequestSchema.shape.webhookUrl.safeParse(undefined).success).toBe(true);
    expect(BulkCreateRequestSchema.safeParse({ format: 'jsonl' }).success).toBe(true);
    expect(fields(BulkCreateResponseSchema)).toEqual(expect.arrayContaining(['job_id', 'upload_url', 'expires_at', 'max_bytes']));
  });

  it('GET /health-score/bulk/{job_id}: {job_id, status, progress: {items_total, items_done, items_failed}, results_url, errors_url, summary, created_at, updated_at}', () => {
    expect(fields(BulkStatusSchema)).toEqual(
      expect.arrayContaining(['job_id', 'status', 'progress', 'results_url', 'errors_url', 'summary', 'created_at', 'updated_at']),
    );
    expect(values(BulkStatusSchema.shape.status)).toEqual(['pending_upload', 'queued', 'processing', 'completed', 'failed']);
    expect(fields(BulkStatusSchema.shape.progress)).toEqual(expect.arrayContaining(['items_total', 'items_done', 'items_failed']));
  });
});
