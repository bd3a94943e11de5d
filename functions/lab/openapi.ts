import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

/** Registers this area's routes and schemas in the OpenAPI document (functions/http/openapi.ts). */
export function registerLabOpenApi(_registry: OpenAPIRegistry): void {}
