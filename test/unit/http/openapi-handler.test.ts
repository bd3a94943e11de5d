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
