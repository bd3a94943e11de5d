import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { errorResponses, jsonResponse } from '../http/openapi-components';
import { estimatedCompletionSeconds } from './estimate';
import {
  CondensedReportRequestSchema,
  FullReportRequestSchema,
  ReportJobResponseSchema,
  ReportStatusCallbackSchema,
  ReportStatusParamsSchema,
  ReportStatusRecordSchema,
} from './schemas';

const DELIVERY =
  'The PDF is delivered by HTTP PUT to `s3_presigned_url` (Content-Type application/pdf; a pre-signed GET URL fails ' +
  'with 403 and the job fails saying so), or, without one, as raw bytes PUT to `callback_url` with the job id in the ' +
  '`job_id` query parameter and the `X-Job-Id` header. When `callback_url` is set, the status callback is POSTed to it ' +
  'at the end, success or failure. Requests to callback_url carry the header of `auth_type`. Deliveries and callbacks ' +
  'are retried on network errors, timeouts, 408, 429 and 5xx with exponential backoff, 5 attempts in all; other 4xx ' +
  'answers are final. Targets must be https and must not resolve to private, loopback, link-local or metadata ' +
  'addresses. Hale keeps no copy of a delivered PDF; the request body is deleted when the job ends. Send an ' +
  '`Idempotency-Key` header to make a retried POST return the same job.';

const ESTIMATE = `\`estimated_completion_seconds\` comes from measured step costs (e.g. ${estimatedCompletionSeconds('full', 10)} s for a 10-event full report).`;

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description: 'Up to 255 visible ASCII characters; the same key from the same API key returns the first job.',
  schema: { type: 'string' as const, maxLength: 255 },
};

/** Registers this area's routes and schemas in the OpenAPI document (functions/http/openapi.ts). */
export function registerReportOpenApi(registry: OpenAPIRegistry): void {
  for (const [path, operationId, schema, summary] of [
    ['/health-score/report', 'createFullReport', FullReportRequestSchema, 'Generate a full PDF health report (several events, with trends)'],
    ['/health-score/report/condensed', 'createCondensedReport', CondensedReportRequestSchema, 'Generate a condensed PDF health report (one event, at most two pages)'],
  ] as const) {
    registry.registerPath({
      method: 'post',
      path,
      operationId,
      tags: ['report'],
      summary,
      description: `Accepts the job and answers 202 at once; follow it at GET /health-score/report/status/{job_id}. ${DELIVERY} ${ESTIMATE} The report is for general wellness and is not medical advice.`,
      parameters: [IDEMPOTENCY_HEADER],
      request: { body: { content: { 'application/json': { schema } } } },
      responses: {
        202: jsonResponse('Job accepted (or `failed` if the pipeline could not be started)', ReportJobResponseSchema),
        ...errorResponses('detail', [400, 401, 422, 429, 500, 502]),
      },
    });
  }
  registry.registerPath({
    method: 'get',
    path: '/health-score/report/status/{job_id}',
    operationId: 'getReportStatus',
    tags: ['report'],
    summary: 'Report job status',
    description: 'pending → processing → completed or failed. error_type and error_message are set only when failed. A job of another API key is answered 404.',
    request: { params: ReportStatusParamsSchema },
    responses: {
      200: jsonResponse('The job', ReportStatusRecordSchema),
      ...errorResponses('detail', [401, 404, 422, 500, 502]),
    },
  });
  registry.registerWebhook({
    method: 'post',
    path: 'reportStatus',
    operationId: 'reportStatusCallback',
    tags: ['report'],
    summary: 'Status callback POSTed to callback_url when a report job ends',
    description: '`processing_time` is in seconds; `s3_location` (success with a pre-signed URL) is that URL without its query string.',
    request: { body: { content: { 'application/json': { schema: ReportStatusCallbackSchema } } } },
    responses: { 200: { description: 'Any 2xx acknowledges the callback' } },
  });
  registry.registerWebhook({
    method: 'put',
    path: 'reportFile',
    operationId: 'reportFileDelivery',
    tags: ['report'],
    summary: 'The PDF PUT to callback_url when no s3_presigned_url was given',
    description: 'Raw PDF bytes (application/pdf); the job id is in the `job_id` query parameter and the `X-Job-Id` header.',
    request: { body: { content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } } },
    responses: { 200: { description: 'Any 2xx acknowledges the file' } },
  });
}
