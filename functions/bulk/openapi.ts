import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { errorResponses, jsonResponse } from '../http/openapi-components';
import { PERSON_COLUMNS } from './csv-input';
import { BULK_LIMITS } from './limits';
import { BulkCreateRequestSchema, BulkCreateResponseSchema, BulkJobParamsSchema, BulkStatusSchema, BulkWebhookSchema } from './schemas';

const CSV_COLUMNS = Object.entries(PERSON_COLUMNS)
  .map(([name, meaning]) => `\`${name}\` (${meaning})`)
  .join(', ');

/** Registers the bulk scoring routes and the shapes of their files in the OpenAPI document. */
export function registerBulkOpenApi(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/health-score/bulk',
    operationId: 'createBulkJob',
    tags: ['scoring'],
    summary: 'Score a population from a file',
    description:
      'Creates a bulk scoring job and answers where to upload its file: PUT it to `upload_url` with the ' +
      '`upload_content_type` before `expires_at` (the type is signed into the URL). Send `size_bytes` to have the size ' +
      'signed in too: an upload of another size or type is then refused (403 SignatureDoesNotMatch), and a `size_bytes` ' +
      'over `max_bytes` answers 413 before any job exists; without it, a file over `max_bytes` fails the job ' +
      '(`input_too_large`). `jsonl`: one POST /health-score/timeseries ' +
      `request per line. \`csv\`: one row per person-date; columns ${CSV_COLUMNS}, and one column per predictor named ` +
      '`<LOINC> [<unit>]` (e.g. `2093-3 [mg/dL]`; the code alone for unitless ones such as `76689-9` (sex) or ' +
      '`72166-2` (smoking)); an empty cell is not measured; a CSV row is one line of the file. A malformed line or row ' +
      '(lines numbered as an editor shows them) is an error for that line and never stops the job; a file that is not ' +
      'JSONL or CSV at all fails it. With `webhookUrl`, ' +
      'the job\'s completion or failure is POSTed there, signed as lab-extraction webhooks are (BulkWebhookEvent).',
    request: { body: { content: { 'application/json': { schema: BulkCreateRequestSchema } } } },
    responses: {
      202: jsonResponse('The job, waiting for its file', BulkCreateResponseSchema),
      ...errorResponses('detail', [400, 401, 413, 422, 500, 502]),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/health-score/bulk/{job_id}',
    operationId: 'getBulkJob',
    tags: ['scoring'],
    summary: 'Progress and results of a bulk job',
    description:
      'Status, progress (items done of the total, rate, time left) and, once completed, pre-signed download URLs ' +
      `(valid ${BULK_LIMITS.downloadUrlSeconds} s; ask again for fresh ones) of results.jsonl (per ` +
      'scored item, its timeseries response with `line`, its line in the input), results.csv (one row per scored person-date: ' +
      'line, uid_ext, score_date, age, then per domain status, health_score, disease_age and, for the domain\'s primary outcome ' +
      '(the first of its risk_ratios), risk_outcome, risk_horizon_years, risk, peer_risk, risk_ratio, then score_percentile) and errors.jsonl (per invalid item, `{line, uid_ext, errors: [{field, message}]}`), and the summary. Files ' +
      `are deleted ${BULK_LIMITS.retentionDays} day(s) after the job (bucket lifecycle rule). Another API key's job is 404.`,
    request: { params: BulkJobParamsSchema },
    responses: {
      200: jsonResponse('The job', BulkStatusSchema),
      ...errorResponses('detail', [401, 404, 422, 500, 502]),
    },
  });
  registry.registerWebhook({
    method: 'post',
    path: 'bulkJobEvent',
    operationId: 'bulkJobEvent',
    tags: ['scoring'],
    summary: 'Event POSTed to webhookUrl when a bulk job ends',
    description:
      'Sent when the job becomes completed or failed, with the same headers as lab webhooks: `X-API-Key` (the webhook ' +
      'key) and a Standard Webhooks signature (`webhook-id`, `webhook-timestamp`, `webhook-signature`). It carries the ' +
      'outcome and counts, never results: fetch GET /health-score/bulk/{job_id} for the download URLs and the summary. A ' +
      'non-2xx answer is retried 5 times with exponential backoff.',
    request: { body: { content: { 'application/json': { schema: BulkWebhookSchema } } } },
    responses: { 200: { description: 'Any 2xx acknowledges the event' } },
  });
}
