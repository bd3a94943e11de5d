import { PLACEHOLDER_SERVER } from '../../../functions/http/openapi';
import { handler } from '../../../functions/http/openapi-handler';
import { apiGatewayEvent, lambdaContext } from './api-gateway-event';

describe('GET /openapi.json', () => {
  it('serves the document without an API key, with a strong ETag, and 304 when it is current', async () => {
    const first = await handler(apiGatewayEvent({ method: 'GET', path: '/openapi.json' }), lambdaContext);
    expect(first.statusCode).toBe(200);
    expect(JSON.parse(first.body)).toMatchObject({ openapi: '3.1.0', info: { title: 'Hale API' } });
    const etag = first.headers?.etag;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await handler(apiGatewayEvent({ method: 'GET', path: '/openapi.json', headers: { 'If-None-Match': String(etag) } }), lambdaContext);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const stale = await handler(apiGatewayEvent({ method: 'GET', path: '/openapi.json', headers: { 'if-none-match': '"old"' } }), lambdaContext);
    expect(stale.statusCode).toBe(200);
  });
});

describe('GET /openapi.json servers', () => {
  async function servers(event: ReturnType<typeof apiGatewayEvent>): Promise<{ url: string }[]> {
    const response = await handler(event, lambdaContext);
    return (JSON.parse(response.body) as { servers: { url: string }[] }).servers;
  }

  it('names the local server it was served from (Host header)', async () => {
    expect(await servers(apiGatewayEvent({ method: 'GET', path: '/openapi.json', headers: { Host: 'localhost:4123' } }))).toEqual([
      expect.objectContaining({ url: 'http://localhost:4123' }),
    ]);
  });

  it('names the API Gateway domain, scheme and stage it was served from', async () => {
    const event = apiGatewayEvent({ method: 'GET', path: '/openapi.json', headers: { Host: 'ignored.example', 'X-Forwarded-Proto': 'https' } });
    Object.assign(event.requestContext, { domainName: 'abc123.execute-api.eu-west-1.amazonaws.com', path: '/prod/openapi.json' });
    expect(await servers(event)).toEqual([expect.objectContaining({ url: 'https://abc123.execute-api.eu-west-1.amazonaws.com/prod' })]);

    const custom = apiGatewayEvent({ method: 'GET', path: '/openapi.json', headers: { 'X-Forwarded-Proto': 'https' } });
    Object.assign(custom.requestContext, { domainName: 'api.hale.test', path: '/openapi.json' });
    expect(await servers(custom)).toEqual([expect.objectContaining({ url: 'https://api.hale.test' })]);
  });

  it('falls back to the placeholder for a Host that is not a host name, and tags each server with its own ETag', async () => {
    expect(await servers(apiGatewayEvent({ method: 'GET', path: '/openapi.json', headers: { Host: 'evil.test/"><script>' } }))).toEqual([PLACEHOLDER_SERVER]);
    const a = await handler(apiGatewayEvent({ method: 'GET', path: '/openapi.json', headers: { Host: 'a.test' } }), lambdaContext);
    const b = await handler(apiGatewayEvent({ method: 'GET', path: '/openapi.json', headers: { Host: 'b.test' } }), lambdaContext);
    expect(a.headers?.etag).not.toBe(b.headers?.etag);
  });
});
