import { startGateway, type Gateway } from '../../local/gateway';
import { LocalInvokeStore } from '../../local/invoke-store';
import { LambdaInvoker, withDefaults } from '../../local/lambda-invoker';
import { RateLimiter } from '../../local/rate-limiter';
import { runtimeLog } from '../../local/runtime-log';
import type { RouteDefinition } from '../../functions/routes';

/**
 * The local gateway enforces, in the default (in-process) mode, what AWS enforces on a route: its
 * Lambda timeout (the call fails, and API Gateway answers 502 as for any failed Lambda call) and API
 * Gateway's integration timeout (504); and a handler's context counts down from the route's timeout,
 * so httpRoute's deadline answers 504 upstream_timeout before it. Timeouts are seconds here, not the
 * deployed 25 s and 29 s, with a wide gap between each pair so a loaded machine keeps their order.
 */

jest.setTimeout(60_000);

const INTEGRATION_TIMEOUT_MS = 8000;
const SLEEP = 'test/fixtures/routes/sleep-handler.ts';

const route = (id: string, path: string, handler: string, timeoutSeconds: number): RouteDefinition => ({
  id,
  method: 'GET',
  path,
  api: path.startsWith('/extraction/') ? 'extraction' : 'main',
  handler,
  anonymous: true,
  timeoutSeconds,
});

const ROUTES = [
  route('ShortTimeout', '/short-timeout', SLEEP, 1),
  route('LongerThanGateway', '/longer-than-gateway', SLEEP, 60),
  route('Overrunning', '/extraction/overrunning', 'test/fixtures/routes/overrunning-route.ts', 3),
].map((definition) => withDefaults(definition, { memoryMb: 128, timeoutSeconds: 10 }));

let gateway: Gateway;
let invoker: LambdaInvoker;

beforeAll(async () => {
  const log = runtimeLog(true);
  invoker = new LambdaInvoker(log, new LocalInvokeStore());
  const unlimited = () => new RateLimiter({ perSecond: Number.POSITIVE_INFINITY, perDay: Number.POSITIVE_INFINITY }, Date.now);
  gateway = await startGateway({
    port: 0,
    routes: ROUTES,
    apiKeys: [],
    invoker,
    limiters: { reference: unlimited(), demo: unlimited() },
    clock: Date.now,
    widgetDir: '/nonexistent',
    extraRoutes: [],
    log,
    integrationTimeoutMs: INTEGRATION_TIMEOUT_MS,
  });
});

afterAll(async () => {
  await gateway.close(1000);
  await invoker.close();
});

async function get(pathAndQuery: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`http://127.0.0.1:${gateway.port}${pathAndQuery}`);
  return { status: response.status, body: await response.json() };
}

describe('local gateway timeouts (default mode)', () => {
  it('answers a call within its Lambda timeout as the handler does', async () => {
    expect(await get('/short-timeout?ms=10')).toEqual({ status: 200, body: { sleptMs: 10 } });
  });

  it('fails a call past its Lambda timeout as API Gateway does a failed Lambda call: 502 Internal server error', async () => {
    expect(await get('/short-timeout?ms=30000')).toEqual({ status: 502, body: { detail: 'Internal server error' } });
  });

  it("answers a call past API Gateway's integration timeout with 504, even when its Lambda timeout is longer", async () => {
    expect(await get('/longer-than-gateway?ms=30000')).toEqual({ status: 504, body: { detail: 'Upstream timeout; retry later' } });
  });

  it("gives the handler the route's timeout as its remaining time, so httpRoute's deadline answers 504 upstream_timeout before Lambda's timeout", async () => {
    const { status, body } = await get('/extraction/overrunning');
    expect(status).toBe(504);
    // Without the deadline, or with a context that does not count down from the route's 3 s, the
    // Lambda timeout would end the call first: 502. The gateway's own 504 comes only at 8 s.
    expect(body).toEqual({ error: 'upstream_timeout', message: 'Upstream timeout; retry later', timestamp: expect.any(String), requestId: expect.any(String) });
  });
});
