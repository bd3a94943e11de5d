import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { conditionalJsonResponses, errorResponses, jsonResponse } from '../http/openapi-components';
import {
  LabRangesQuerySchema,
  LabRangesResponseSchema,
  PredictorStatisticsRequestSchema,
  PredictorStatisticsResponseSchema,
  ReferenceDataResponseSchema,
} from './schemas';

const LIMITS = 'Limits per API key, shared by the reference routes: 50 requests/second and 1,000/day (429 with Retry-After).';

/** Registers this area's routes and schemas in the OpenAPI document (functions/http/openapi.ts). */
export function registerReferenceOpenApi(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/reference-data/',
    operationId: 'listReferenceData',
    tags: ['reference'],
    summary: 'Biomarker concepts',
    description:
      'Every concept Hale knows: common US lab tests (LOINC), the non-lab scoring inputs (LOINC) and the SNOMED CT ' +
      'codes the scoring engine accepts. `concept_id` is derived from vocabulary and code and never changes between ' +
      `releases. Send If-None-Match with the ETag to get 304. ${LIMITS}`,
    responses: {
      ...conditionalJsonResponses('The concepts', ReferenceDataResponseSchema),
      ...errorResponses('detail', [401, 429, 500, 502]),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/predictor-statistics/',
    operationId: 'getPredictorStatistics',
    tags: ['reference'],
    summary: 'Population, optimal and lab ranges per scoring predictor',
    description:
      'For a sex and age: the NHANES mean and 1st/99th percentiles of each scoring predictor for the 5-year age band ' +
      '(`source` names dataset, band and the rule that chose it: ages under the youngest band use it, ages 80 and over ' +
      'use the 80+ band), its optimal range (a cited guideline, else a two-sided lab reference range, else the band\'s ' +
      '5th-95th percentile; `source.optimal_rule` says which) and the Quest reference range (GT/GTE carry only the ' +
      `minimum, LT/LTE only the maximum, range both). Every number is in \`unit\`. ${LIMITS}`,
    request: { body: { content: { 'application/json': { schema: PredictorStatisticsRequestSchema } } } },
    responses: {
      200: jsonResponse('One statistic per predictor', PredictorStatisticsResponseSchema),
      ...errorResponses('detail', [400, 401, 422, 429, 500, 502]),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/lab-ranges/',
    operationId: 'listLabRanges',
    tags: ['reference'],
    summary: 'Quest and Labcorp reference ranges as printed',
    description:
      '`sex` (male/M, female/F, all; any case) keeps that sex\'s ranges and those printed for both sexes (gender_name ' +
      'ALL); `vendor_name` (Quest, Quest Diagnostics, Labcorp; any case) one vendor. Unknown values give an empty ' +
      'array. Rows carry both bounds; ranges printed with one bound only ("< 200") are added with ' +
      '`one_sided=include`, the open side null. `concept_id` matches GET /reference-data/. Send If-None-Match with ' +
      `the ETag to get 304. ${LIMITS}`,
    request: { query: LabRangesQuerySchema },
    responses: {
      ...conditionalJsonResponses('The ranges', LabRangesResponseSchema),
      ...errorResponses('detail', [401, 422, 429, 500, 502]),
    },
  });
}
