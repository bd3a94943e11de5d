import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { version } from '../../package.json';
import { registerBulkOpenApi } from '../bulk/openapi';
import { registerLabOpenApi } from '../lab/openapi';
import { registerReferenceOpenApi } from '../reference/openapi';
import { registerReportOpenApi } from '../report/openapi';
import { type RouteDefinition, ROUTES } from '../routes';
import { registerScoringOpenApi } from '../scoring/openapi';
import { API_KEY_SECURITY, errorResponses, jsonResponse, registerSharedComponents } from './openapi-components';
import { addPlatformResponses } from './platform-responses';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

const PingResponseSchema = z
  .object({ status: z.literal('ok').meta({ description: 'Always ok' }) })
  .meta({ id: 'PingResponse', description: 'The key, the gateway and the handler chain work' });

function registerPlatformRoutes(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/ping',
    tags: ['platform'],
    summary: 'Check an API key',
    description: 'Authenticated no-op: answers 200 when the key, the gateway and the handler chain work.',
    responses: { 200: jsonResponse('The key works', PingResponseSchema), ...errorResponses('detail', [401, 403, 429, 500]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/openapi.json',
    tags: ['platform'],
    summary: 'This document',
    description: 'The OpenAPI 3.1 description of Hale, served without an API key. Send If-None-Match with the ETag to get 304.',
    security: [],
    responses: {
      200: jsonResponse('The OpenAPI document', z.record(z.string(), z.unknown())),
      304: { description: 'Not modified: the ETag in If-None-Match is current' },
      ...errorResponses('detail', [500]),
    },
  });
}

/** Every route of every area, generated from the zod schemas that also validate the requests. */
export function buildOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registerSharedComponents(registry);
  registerPlatformRoutes(registry);
  registerScoringOpenApi(registry);
  registerBulkOpenApi(registry);
  registerReportOpenApi(registry);
  registerReferenceOpenApi(registry);
  registerLabOpenApi(registry);
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Hale API',
      version,
      description:
        'Health scoring from lab timeseries, PDF health reports, lab-report extraction (Quest, Labcorp) and the ' +
        'reference data behind them. Scores and reports are for general wellness, not medical advice or a diagnosis. ' +
        'Extraction routes (under /extraction) answer errors as {error, message, timestamp, requestId}; all others as {detail}.',
    },
    servers: [
      { url: 'http://localhost:3000', description: 'Local runtime (`npm start`; PORT changes the port)' },
      {
        url: 'https://{apiDomain}',
        description: 'A deployment: its custom domain maps the main API at / and the extraction API at /extraction',
        variables: { apiDomain: { default: 'api.example.com', description: 'Custom domain of the deployment' } },
      },
    ],
    security: API_KEY_SECURITY,
  });
  addPlatformResponses(document.paths ?? {}, ROUTES);
  return document;
}

/** Routes the document does not describe (method and path as in ROUTES). */
export function undocumentedRoutes(document: OpenApiDocument, routes: readonly RouteDefinition[] = ROUTES): RouteDefinition[] {
  return routes.filter((route) => {
    const item = document.paths?.[route.path] as Record<string, unknown> | undefined;
    return item?.[route.method.toLowerCase()] === undefined;
  });
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Operations the document describes that no route serves (`GET /path`). */
export function unroutedOperations(document: OpenApiDocument, routes: readonly RouteDefinition[] = ROUTES): string[] {
  const served = new Set(routes.map((route) => `${route.method} ${route.path}`));
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => method in (item as object))
      .map((method) => `${method.toUpperCase()} ${path}`)
      .filter((operation) => !served.has(operation)),
  );
}
