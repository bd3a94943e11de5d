import { ROUTES } from '../../../functions/routes';
import { toProxyEvent } from '../../../local/api-gateway-event';

/** The local gateway's proxy event carries whatever names a caller sends, as API Gateway does. */
describe('toProxyEvent', () => {
  const route = ROUTES.find((r) => r.id === 'LabRanges')!;
  const event = (query: string, rawHeaders: string[] = []) =>
    toProxyEvent(route, null, {
      method: 'GET',
      path: '/lab-ranges/',
      query,
      rawHeaders,
      body: Buffer.alloc(0),
      sourceIp: '203.0.113.9',
      requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
      receivedAt: new Date(),
      apiKey: 'k',
    });

  it("keeps query and header names that are Object.prototype's members as plain keys (was: a TypeError, answered 500)", () => {
    const built = event('hasOwnProperty=&__proto__=x&constructor=1&sex=male&sex=female', ['__proto__', 'a', 'toString', 'b']);
    expect(Object.entries(built.queryStringParameters!)).toEqual([
      ['hasOwnProperty', ''],
      ['__proto__', 'x'],
      ['constructor', '1'],
      ['sex', 'female'],
    ]);
    expect(Object.getPrototypeOf(built.queryStringParameters)).toBe(Object.prototype);
    expect(Object.entries(built.multiValueQueryStringParameters!)).toEqual([
      ['hasOwnProperty', ['']],
      ['__proto__', ['x']],
      ['constructor', ['1']],
      ['sex', ['male', 'female']],
    ]);
    expect(Object.entries(built.headers)).toEqual([
      ['__proto__', 'a'],
      ['toString', 'b'],
    ]);
  });
});
