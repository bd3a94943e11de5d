import { z } from 'zod';
import { NotFoundError } from '../../../functions/http/errors';
import { httpRoute } from '../../../functions/http/handler';
import { apiGatewayEvent, lambdaContext } from './api-gateway-event';

const Body = z.object({ person: z.object({ name: z.string().min(1), age: z.number().int() }), tags: z.array(z.string()).max(2) });
const Query = z.object({ limit: z.coerce.number().int().positive().optional() });

const seen: { body?: unknown; query?: unknown; headers?: Record<string, string>; tenant?: string }[] = [];
const detailRoute = httpRoute({ dialect: 'detail', body: Body, query: Query }, async ({ body, query, headers, tenant }) => {
  seen.push({ body, query, headers, tenant });
  return { statusCode: 201, body: { ok: true } };
});
const extractionRoute = httpRoute({ dialect: 'extraction', body: Body }, async () => ({ body: { ok: true } }));
const failingRoute = httpRoute({ dialect: 'detail' }, async () => {
  throw new Error('connection string postgres://user:pw@db');
});
const missingRoute = httpRoute({ dialect: 'extraction' }, async () => {
  throw new NotFoundError('No job with that id');
});

/** Work that would run long past any Lambda timeout (unref'd: it keeps nothing alive). */
const overrun = () => new Promise<never>(() => setTimeout(() => undefined, 600_000).unref());
const slowDetailRoute = httpRoute({ dialect: 'detail' }, overrun);
const slowExtractionRoute = httpRoute({ dialect: 'extraction' }, overrun);
/** Lambda's context with `ms` of the call's time left. */
const withRemaining = (ms: number) => {
  const deadline = Date.now() + ms;
  return { ...lambdaContext, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
};

const valid = JSON.stringify({ person: { name: 'A', age: 40 }, tags: [] });
const call = (route: typeof detailRoute, options: Parameters<typeof apiGatewayEvent>[0]) =>
  route(apiGatewayEvent({ apiKeyId: 'key-1', ...options }), lambdaContext);

describe('httpRoute', () => {
  it('passes parsed input, lower-cased headers and the tenant to the route and answers with x-request-id', async () => {
    const response = await call(detailRoute, { body: valid, headers: { 'X-Custom': 'v' }, query: { limit: '5' }, requestId: 'req-42' });
    expect(response.statusCode).toBe(201);
    expect(JSON.parse(response.body)).toEqual({ ok: true });
    expect(response.headers).toMatchObject({ 'x-request-id': 'req-42', 'content-type': 'application/json; charset=utf-8' });
    expect(seen.at(-1)).toMatchObject({ body: JSON.parse(valid), query: { limit: 5 }, headers: { 'x-custom': 'v' } });
    expect(seen.at(-1)?.tenant).toMatch(/^[0-9a-f]{32}$/);
    expect(seen.at(-1)?.tenant).not.toContain('key-1');
  });

  it('answers malformed JSON with 400 in the route dialect', async () => {
    const detail = await call(detailRoute, { body: '{"person": ' });
    expect(detail.statusCode).toBe(400);
    expect(JSON.parse(detail.body)).toEqual({ detail: 'Malformed JSON in request body' });
    const extraction = await call(extractionRoute, { body: '{oops' });
    expect(extraction.statusCode).toBe(400);
    expect(JSON.parse(extraction.body)).toMatchObject({ error: 'invalid_request', message: 'Malformed JSON in request body', requestId: 'req-0001' });
  });

  it('answers a body that is not declared JSON with 415 in the route dialect, before parsing it', async () => {
    const before = seen.length;
    const types: Record<string, string>[] = [{ 'Content-Type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, { 'content-type': 'application/jsonp' }];
    for (const headers of types) {
      const response = await call(detailRoute, { body: valid, headers });
      expect(response.statusCode).toBe(415);
      expect(JSON.parse(response.body)).toEqual({ detail: 'The request body must be JSON, sent with Content-Type: application/json' });
    }
    const noType = await extractionRoute(
      { ...apiGatewayEvent({ apiKeyId: 'key-1', body: valid }), headers: {} },
      lambdaContext,
    );
    expect(noType.statusCode).toBe(415);
    expect(JSON.parse(noType.body)).toMatchObject({ error: 'unsupported_media_type' });
    expect(seen.length).toBe(before);
    for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/vnd.api+json', 'application/json;charset=UTF-8']) {
      expect((await call(detailRoute, { body: valid, headers: { 'content-type': type } })).statusCode).toBe(201);
    }
  });

  it('answers invalid input with 422 naming each failing field', async () => {
    const body = JSON.stringify({ person: { name: '', age: 40.5 }, tags: ['a', 'b', 'c'] });
    const response = await call(detailRoute, { body, query: { limit: '-1' } });
    expect(response.statusCode).toBe(422);
    const parsed = JSON.parse(response.body) as { detail: string; errors: { path: string }[] };
    expect(parsed.errors.map((issue) => issue.path).sort()).toEqual(['body.person.age', 'body.person.name', 'body.tags', 'query.limit']);
    expect(parsed.detail).toContain('body.person.name');
  });

  it('answers invalid input on extraction routes with 400 invalid_request and the issues', async () => {
    const response = await call(extractionRoute, { body: JSON.stringify({ person: { name: 'A' }, tags: [] }) });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({
      error: 'invalid_request',
      details: { issues: [{ path: 'body.person.age' }] },
    });
  });

  it('answers 401 without an API key and never runs the route', async () => {
    const before = seen.length;
    const response = await detailRoute(apiGatewayEvent({ body: valid, requestId: 'req-401' }), lambdaContext);
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toEqual({ detail: 'Missing or invalid API key' });
    expect(response.headers?.['x-request-id']).toBe('req-401');
    expect(seen.length).toBe(before);
  });

  it('hides unexpected errors behind a generic 500 and maps HaleErrors to their status', async () => {
    const failed = await call(failingRoute, {});
    expect(failed.statusCode).toBe(500);
    expect(failed.body).not.toContain('postgres');
    expect(JSON.parse(failed.body)).toEqual({ detail: 'Internal server error' });
    const missing = await call(missingRoute, {});
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ error: 'not_found', message: 'No job with that id' });
  });

  it('answers work that would overrun the Lambda timeout with 504 upstream_timeout in the route dialect, before the timeout', async () => {
    // 1.5 s left: the deadline (DEADLINE_MARGIN_MS before the end) is half a second away.
    const detail = await slowDetailRoute(apiGatewayEvent({ apiKeyId: 'key-1' }), withRemaining(1500));
    expect(detail.statusCode).toBe(504);
    expect(JSON.parse(detail.body)).toEqual({ detail: 'Upstream timeout; retry later' });
    expect(detail.headers).toMatchObject({ 'x-request-id': 'req-0001', 'content-type': 'application/json; charset=utf-8' });
    const extraction = await slowExtractionRoute(apiGatewayEvent({ apiKeyId: 'key-1', requestId: 'req-7' }), withRemaining(1500));
    expect(extraction.statusCode).toBe(504);
    expect(JSON.parse(extraction.body)).toEqual({ error: 'upstream_timeout', message: 'Upstream timeout; retry later', timestamp: expect.any(String), requestId: 'req-7' });
  });

  it('makes up a request id when the event has none', async () => {
    const event = apiGatewayEvent({ apiKeyId: 'key-1', body: valid });
    (event.requestContext as { requestId?: string }).requestId = undefined;
    const response = await detailRoute(event, lambdaContext);
    expect(response.headers?.['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
