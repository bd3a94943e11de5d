import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { errorResponses, jsonResponse } from '../http/openapi-components';
import { DEMO_LIMITS } from '../routes';
import { DemoDataResponseSchema } from './schemas';

/** Registers the widget demo's data route in the OpenAPI document (functions/http/openapi.ts). */
export function registerDemoOpenApi(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/demo/data',
    operationId: 'getDemoData',
    tags: ['widget'],
    summary: 'Data of the widget demo page',
    description:
      'A fictional person (four yearly check-ups) scored, and the predictor statistics for their age: what the demo ' +
      'page at /demo passes to HaleWidget.render. Served without an API key, so it never spends a customer\'s quota; ' +
      `limited on its own to ${DEMO_LIMITS.requestsPerSecond} requests per second across all callers (429 with Retry-After). ` +
      'Your own page calls POST /health-score/timeseries and POST /predictor-statistics/ from its backend with your key instead.',
    security: [],
    responses: {
      200: jsonResponse('The scoring response and the predictor statistics', DemoDataResponseSchema),
      ...errorResponses('detail', [429, 500, 502]),
    },
  });
}
