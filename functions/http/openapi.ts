import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { version } from '../../package.json';
import { registerBulkOpenApi } from '../bulk/openapi';
import { registerDemoOpenApi } from '../demo/openapi';
import { registerLabOpenApi } from '../lab/openapi';
import { registerReferenceOpenApi } from '../reference/openapi';
import { registerReportOpenApi } from '../report/openapi';
import { type RouteDefinition, ROUTES } from '../routes';
import { registerScoringOpenApi } from '../scoring/openapi';
import {
  API_KEY_SECURITY,
  COMMON_RESPONSE_HEADERS,
  conditionalJsonResponses,
  errorResponses,
  headerRefs,
  jsonResponse,
  registerSharedComponents,
} from './openapi-components';
import { addPlatformResponses } from './platform-responses';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;
type ServerObject = NonNullable<OpenApiDocument['servers']>[number];

/**
 * The server of the committed docs/openapi.json: a placeholder for a deployment's own domain. The
 * document served at GET /openapi.json names instead the server it was served from
 * (openapi-handler.ts), so a client generated from it or a "try it" console calls that server.
 */
export const PLACEHOLDER_SERVER: ServerObject = {
  url: 'https://{apiDomain}',
  description:
    'Placeholder: set apiDomain to your deployment\'s custom domain (main API at /, extraction API at /extraction). ' +
    'GET /openapi.json on a running Hale (locally `npm start`) answers this document with the server it was served from.',
  variables: { apiDomain: { default: 'hale.invalid', description: 'Custom domain of the deployment' } },
};

/**
 * package.json says `UNLICENSED`: Hale is not licensed for use by others. SPDX has no identifier for
 * that, so the document names it with an SPDX `LicenseRef-` (a licence identified outside the list).
 */
const LICENSE = { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Hale-Proprietary' };

const PingResponseSchema = z
  .object({ status: z.literal('ok').meta({ description: 'Always ok' }) })
  .meta({ id: 'PingResponse', description: 'The key, the gateway and the handler chain work' });

function registerPlatformRoutes(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/ping',
    operationId: 'ping',
    tags: ['platform'],
    summary: 'Check an API key',
    description: 'Authenticated no-op: answers 200 when the key, the gateway and the handler chain work.',
    responses: { 200: jsonResponse('The key works', PingResponseSchema), ...errorResponses('detail', [401, 403, 429, 500]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tags: ['platform'],
    summary: 'This document',
    description:
      'The OpenAPI 3.1 description of Hale, served without an API key; `servers` names the server it was served from. ' +
      'Send If-None-Match with the ETag to get 304.',
    security: [],
    responses: {
      ...conditionalJsonResponses('The OpenAPI document', z.record(z.string(), z.unknown())),
      ...errorResponses('detail', [403, 500]),
    },
  });
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

type ResponseMap = Record<string, { $ref?: string; headers?: Record<string, unknown> }>;

/** Adds the headers every response carries to each inline response of each operation. */
function addCommonResponseHeaders(document: OpenApiDocument): void {
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const responses = (item as Record<string, { responses?: ResponseMap } | undefined>)[method]?.responses ?? {};
      for (const response of Object.values(responses)) {
        if (!response.$ref) response.headers = { ...headerRefs(COMMON_RESPONSE_HEADERS), ...response.headers };
      }
    }
  }
}

/** Drops the error response components no operation refers to (registerSharedComponents makes them all). */
function dropUnusedResponses(document: OpenApiDocument): void {
  const responses = document.components?.responses;
  if (!responses) return;
  const text = JSON.stringify({ paths: document.paths, webhooks: document.webhooks });
  for (const name of Object.keys(responses)) {
    if (!text.includes(`"#/components/responses/${name}"`)) delete responses[name];
  }
}

export interface OpenApiOptions {
  /** The server the document is served from; the committed file has PLACEHOLDER_SERVER. */
  server?: ServerObject;
}

/** Every route of every area, generated from the zod schemas that also validate the requests. */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registerSharedComponents(registry);
  registerPlatformRoutes(registry);
  registerScoringOpenApi(registry);
  registerBulkOpenApi(registry);
  registerReportOpenApi(registry);
  registerReferenceOpenApi(registry);
  registerLabOpenApi(registry);
  registerDemoOpenApi(registry);
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Hale API',
      version,
      description:
        'Health scoring from lab timeseries, PDF health reports, lab-report extraction (Quest, Labcorp) and the ' +
        'reference data behind them. Scores and reports are for general wellness, not medical advice or a diagnosis. ' +
        'Extraction routes (under /extraction) answer errors as {error, message, timestamp, requestId}; all others as {detail}.',
      license: LICENSE,
    },
    servers: [options.server ?? PLACEHOLDER_SERVER],
    security: API_KEY_SECURITY,
  });
  addPlatformResponses(document.paths ?? {}, ROUTES);
  addCommonResponseHeaders(document);
  dropUnusedResponses(document);
  return document;
}

/** Routes the document does not describe (method and path as in ROUTES). */
export function undocumentedRoutes(document: OpenApiDocument, routes: readonly RouteDefinition[] = ROUTES): RouteDefinition[] {
  return routes.filter((route) => {
    const item = document.paths?.[route.path] as Record<string, unknown> | undefined;
    return item?.[route.method.toLowerCase()] === undefined;
  });
}

/** Operations the document describes that no route serves (`GET /path`). */
export function unroutedOperations(document: OpenApiDocument, routes: readonly RouteDefinition[] = ROUTES): string[] {
  const served = new Set(routes.map((route) => `${route.method} ${route.path}`));
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => method in (item as object))
      .map((method) => `${method.toUpperCase()} ${path}`)
      .filter((operation) => !served.has(operation)),
  );
}
