import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { conditionalJsonResponses, errorResponses, jsonResponse } from '../http/openapi-components';
import { BatchRequestSchema, BatchResponseSchema } from './batch-schemas';
import { TimeseriesRequestSchema, TimeseriesResponseSchema, TopDiseasePredictorsResponseSchema } from './schemas';

/** Registers this area's routes and schemas in the OpenAPI document (functions/http/openapi.ts). */
export function registerScoringOpenApi(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/health-score/timeseries',
    operationId: 'scoreTimeseries',
    tags: ['scoring'],
    summary: 'Score a person over time',
    description:
      'Scores each date in `dates_to_score` from the health events on or before it (values carried forward up to ' +
      '365 days, adult height without limit; later events are never used). Six domains, each a published model: all_cause (PhenoAge), ' +
      'cardiovascular (PREVENT total CVD and ASCVD, 10- and 30-year), heart_failure (PREVENT HF, 10- and 30-year), type2_diabetes (ARIC, 9-year), kidney ' +
      '(CKD-EPI 2021 eGFR; KFRE 2- and 5-year when eGFR < 60 with UACR), liver (FIB-4; NAFLD fibrosis score when BMI and ' +
      'albumin are measured). Every domain is compared with same-sex NHANES 2017–2020 peers of the same age (interpolated between ' +
      '5-year bands): health_score, score_percentile, risk_ratios and disease_age all order people the same way. Inputs the caller did ' +
      'not send are set to the peers\' value, get no attribution and are listed in `not_measured`. Predictors by LOINC/SNOMED code ' +
      '(GET /reference-data/), values as text, units converted with UCUM (HbA1c also in IFCC mmol/mol). Accepted ranges: ' +
      'docs/accepted-ranges.md. Sex comes from a predictor 76689-9 (male/female). `mode`: `validate_and_score` and ' +
      '`validate` answer 422 naming each event, predictor and reason for a non-numeric value, an unconvertible unit, ' +
      'a value outside its accepted range or a second, different value for one code on one date (`validate` returns no results); `score` drops such predictors with a ' +
      'warning. Whatever the mode, 422 names a date of birth more than 120 years before a date to score, a date after event_asof_dtutc, ' +
      'a date to score given twice and a repeated event or predictor id. Unknown codes are ignored and listed in `warnings`.',
    request: { body: { content: { 'application/json': { schema: TimeseriesRequestSchema } } } },
    responses: {
      200: jsonResponse('One scoring result per date', TimeseriesResponseSchema),
      ...errorResponses('detail', [400, 401, 422, 500]),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/health-score/batch',
    operationId: 'scoreBatch',
    tags: ['scoring'],
    summary: 'Score many people, each at one date',
    description:
      'A point-in-time score for up to 100 people in one call (and at most 1 MB of request; beyond either limit 413 ' +
      'names the bulk API, POST /health-score/bulk). Each person is the timeseries request of one health event on ' +
      '`score_date`, scored at that date, and each element of `batch_results` (in request order) is exactly one ' +
      'timeseries result plus its own `status`, `errors` and `warnings`: a person that fails validation is ' +
      '`invalid` and the others are still scored (200). Draw an element with the widget through ' +
      '`HaleWidget.fromBatchResult(element)`.',
    request: { body: { content: { 'application/json': { schema: BatchRequestSchema } } } },
    responses: {
      200: jsonResponse('One result per person, in request order', BatchResponseSchema),
      ...errorResponses('detail', [400, 401, 413, 422, 500]),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/top-disease-predictors/',
    operationId: 'listTopDiseasePredictors',
    tags: ['reference'],
    summary: 'Most important inputs per health domain',
    description:
      'Each domain\'s model inputs ranked by strength: the survey-weighted SD, over NHANES 2017–2020 adults, of the ' +
      'change in the model\'s additive scale when the input is set to its population mean (|β| × SD of the term for ' +
      'a linear term), normalised to sum to 1 per domain. Send If-None-Match with the ETag to get 304. Limits per API ' +
      'key, shared by the reference routes: 50 requests/second and 1,000/day (429 with Retry-After).',
    responses: {
      ...conditionalJsonResponses('Ranked predictors per domain', TopDiseasePredictorsResponseSchema),
      ...errorResponses('detail', [401, 429, 500, 502]),
    },
  });
}
