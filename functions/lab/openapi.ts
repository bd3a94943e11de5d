import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { errorResponses, jsonResponse } from '../http/openapi-components';
import {
  JobIdParamsSchema,
  ResultsQuerySchema,
  StatusResponseSchema,
  UploadAcceptedSchema,
  UploadRequestSchema,
  UploadUrlIssuedSchema,
  WebhookEnvelopeSchema,
} from './api-schemas';
import { FhirBundleSchema } from './fhir/fhir-schemas';
import { ExtractionResultsSchema } from './results-schema';

/** Registers this area's routes and schemas in the OpenAPI document (functions/http/openapi.ts). */
export function registerLabOpenApi(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/extraction/lab/upload',
    operationId: 'uploadLabReport',
    tags: ['lab extraction'],
    summary: 'Upload a Quest or Labcorp lab report PDF',
    description:
      'With `pdfFile` (base64, at most 4 MB decoded: what one Lambda invocation can carry) the job is queued at once (202); ' +
      'a larger PDF or request body is 413 `file_too_large`. Without `pdfFile` a pre-signed URL is ' +
      'issued (200): PUT the PDF (at most 50 MB) to `uploadUrl` with Content-Type application/pdf before `expiresAt` ' +
      '(5 minutes); processing starts when the upload arrives and a job whose upload never arrives ends `failed`. ' +
      'Limit: 100 uploads per hour per API key (429 with Retry-After). `dateOfBirth` is only compared with the document ' +
      '(verification.dobMatches) and never stored. Bad PDFs answer 400 `invalid_pdf`.',
    request: { body: { content: { 'application/json': { schema: UploadRequestSchema } } } },
    responses: {
      202: jsonResponse('The PDF was accepted and is being processed', UploadAcceptedSchema),
      200: jsonResponse('A pre-signed upload URL was issued', UploadUrlIssuedSchema),
      ...errorResponses('extraction', [400, 401, 413, 429, 500, 502]),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/extraction/lab/status/{jobId}',
    operationId: 'getLabJobStatus',
    tags: ['lab extraction'],
    summary: 'Status of a lab extraction job',
    description:
      'Status (pending_upload, queued, processing_language, processing_phi, processing_extraction, then one of completed, ' +
      'failed, quarantined, rejected_phi, invalid_document), when each stage began, the rejection reason, counts of PHI ' +
      'removed per category, every webhook attempt, and the full results once completed.',
    request: { params: JobIdParamsSchema },
    responses: {
      200: jsonResponse('The job', StatusResponseSchema),
      ...errorResponses('extraction', [401, 404, 500, 502]),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/extraction/lab/results/{jobId}',
    operationId: 'getLabResults',
    tags: ['lab extraction'],
    summary: 'Results of a completed lab extraction job',
    description:
      'The ExtractionResults (spec §2.10), or with `format=fhir` a FHIR R4 Bundle (application/fhir+json, type ' +
      'collection): one DiagnosticReport per printed panel (LOINC panel code; a one-test panel takes its test\'s code; ' +
      'otherwise 11502-2 Laboratory report), each followed by its Observations (LOINC, UCUM, censored values with ' +
      '`comparator`, printed ranges with inclusive low/high and the printed `text`, interpretation from the printed flag ' +
      'or the range). With the upload\'s `fhirSubject` every resource carries `subject` and the bundle meets US Core ' +
      '6.1.0; without it the bundle is plain R4, since US Core requires a subject and Hale never derives one from the ' +
      'document. 425 while the job is still running; 404 for unknown jobs and for jobs that ended without results.',
    request: { params: JobIdParamsSchema, query: ResultsQuerySchema },
    responses: {
      200: {
        description: 'The results',
        content: {
          'application/json': { schema: ExtractionResultsSchema },
          'application/fhir+json': { schema: FhirBundleSchema },
        },
      },
      ...errorResponses('extraction', [401, 404, 425, 500, 502]),
    },
  });
  registry.registerWebhook({
    method: 'post',
    path: 'labJobEvent',
    operationId: 'labJobEvent',
    tags: ['lab extraction'],
    summary: 'Event POSTed to webhookUrl when a lab job ends',
    description:
      'Sent when the job becomes completed, failed, quarantined, rejected_phi or invalid_document. Headers: `X-API-Key` ' +
      '(the webhook key; check it first) and a Standard Webhooks signature (`webhook-id`, `webhook-timestamp`, ' +
      '`webhook-signature` = v1,base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`). `webhook-id` is the same on every ' +
      'attempt of one event; a non-2xx answer is retried 5 times with exponential backoff.',
    request: { body: { content: { 'application/json': { schema: WebhookEnvelopeSchema } } } },
    responses: { 200: { description: 'Any 2xx acknowledges the event' } },
  });
}
