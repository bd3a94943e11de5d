import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type ErrorDialect, toErrorResponse } from '../functions/http/dialects';
import { NotFoundError, PayloadTooLargeError } from '../functions/http/errors';
import { GATEWAY_ERRORS, type GatewayErrorType, gatewayErrorBody, gatewayErrorHeaders } from '../functions/http/gateway-errors';
import { bodyTooLargeMessage, MAX_REQUEST_BODY_BYTES } from '../functions/http/request-limits';
import { API_GATEWAY_TIMEOUT_SECONDS, type RouteDefinition } from '../functions/routes';
import { fromProxyResult, type HttpResponse, toProxyEvent } from './api-gateway-event';
import { closeGracefully, listenOnLoopback } from './http-server';
import type { LambdaInvoker, SizedFunction } from './lambda-invoker';
import type { RateLimiter } from './rate-limiter';
import { dialectOfPath, dialectOfRoute, RouteTable } from './route-table';
import type { RuntimeLog } from './runtime-log';
import { WIDGET_PREFIX, widgetFile } from './widget-files';

/** A page served beside the API, e.g. the widget demo at /demo. */
export interface ExtraRoute {
  method: string;
  path: string;
  handler(req: IncomingMessage, res: ServerResponse): void | Promise<void>;
}

export interface GatewayOptions {
  port: number;
  routes: readonly SizedFunction<RouteDefinition>[];
  apiKeys: readonly string[];
  invoker: LambdaInvoker;
  /** One limiter per rate-limited route group (RouteDefinition.rateLimitGroup). */
  limiters: Record<NonNullable<RouteDefinition['rateLimitGroup']>, RateLimiter>;
  clock: () => number;
  widgetDir: string;
  extraRoutes: readonly ExtraRoute[];
  log: RuntimeLog;
  /** API Gateway's integration timeout, default API_GATEWAY_TIMEOUT_SECONDS; tests shorten it. */
  integrationTimeoutMs?: number;
}

export interface Gateway {
  port: number;
  close(graceMs: number): Promise<void>;
}

/**
 * A body up to this size that an early answer (401, 404, 413, 429 …) leaves unread is read and
 * dropped after the answer, so the connection can carry the client's next request; a larger one,
 * or one of unknown length, is not worth receiving: the answer says `Connection: close` instead.
 */
export const DRAIN_LIMIT_BYTES = 1024 * 1024;

class BodyTooLarge extends Error {}

/** What the race between a Lambda call and API Gateway's integration timeout gives when the timeout wins. */
const INTEGRATION_TIMED_OUT = Symbol('integration timed out');

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Reads the body; past MAX_REQUEST_BODY_BYTES it stops reading (without destroying the socket the 413 goes out on). */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData).off('end', onEnd).pause();
      reject(new BodyTooLarge());
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData).on('end', onEnd).once('error', reject);
  });
}

/**
 * Whether the connection must close after the answer: its request body is not (and will not be) read
 * to the end. Node drains a body nobody started reading once the response is sent (http server
 * `_dump`), which keeps a keep-alive connection usable; the gateway lets it do so for small bodies of
 * known length, and closes instead of promising keep-alive and then cutting the connection.
 */
function mustClose(req: IncomingMessage): boolean {
  if (req.complete) return false;
  if (req.readableDidRead) return true;
  if (req.headers['transfer-encoding'] !== undefined) return true;
  // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 §6.3): nothing to drain.
  const declared = req.headers['content-length'];
  return declared !== undefined && !(Number(declared) <= DRAIN_LIMIT_BYTES);
}

/**
 * The path and query of a request target as sent. Not through WHATWG URL: it reads `//host/…` as an
 * authority (`//` then threw, answered 500; `//ping` became host `ping`), and it rewrites dot segments
 * and escapes the caller sent, which API Gateway routes as they are. An absolute-form target
 * (`http://host/path`, what proxies send) keeps only its path.
 */
export function requestTarget(target: string): { pathname: string; query: string } {
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?]*/.exec(target);
  const origin = absolute ? target.slice(absolute[0].length) : target;
  const question = origin.indexOf('?');
  const pathname = question < 0 ? origin : origin.slice(0, question);
  return { pathname: pathname.startsWith('/') ? pathname : `/${pathname}`, query: question < 0 ? '' : origin.slice(question + 1) };
}

function write(req: IncomingMessage, res: ServerResponse, response: HttpResponse): void {
  const close = mustClose(req);
  res.writeHead(response.statusCode, { ...response.headers, 'content-length': response.body.length, ...(close ? { connection: 'close' } : {}) });
  res.end(response.body);
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };

function errorResponse(error: Error, dialect: ErrorDialect, requestId: string, now: Date): HttpResponse {
  const mapped = toErrorResponse(error, dialect, requestId, now);
  return { statusCode: mapped.statusCode, headers: { ...JSON_HEADERS, ...mapped.headers }, body: Buffer.from(JSON.stringify(mapped.body)) };
}

/** What API Gateway itself answers (functions/http/gateway-errors.ts), in the dialect of the API. */
function gatewayAnswer(
  type: Exclude<GatewayErrorType, 'DEFAULT_4XX'>,
  dialect: ErrorDialect,
  requestId: string,
  now: Date,
  overrides: { status?: number; retryAfterSeconds?: number } = {},
): HttpResponse {
  const error = GATEWAY_ERRORS[type];
  const retryAfterSeconds = overrides.retryAfterSeconds ?? error.retryAfterSeconds;
  const body = gatewayErrorBody(error, dialect, { message: error.message ?? '', requestId, timestamp: now.toISOString(), retryAfterSeconds });
  return {
    statusCode: overrides.status ?? error.status ?? 500,
    headers: { ...JSON_HEADERS, ...gatewayErrorHeaders(error, retryAfterSeconds) },
    body: Buffer.from(JSON.stringify(body)),
  };
}

/**
 * The local API Gateway: routes each request by ROUTES to its handler module as a REST (v1)
 * proxy event, and answers what API Gateway answers before a Lambda runs, with the same gateway
 * responses (functions/http/gateway-errors.ts): unknown path or method (404, as API Gateway's
 * MISSING_AUTHENTICATION_TOKEN becomes), API-key check (401), the reference group's usage plan
 * and the demo route's method throttling (429), payload limit (413), a failed Lambda call, also one
 * past the route's Lambda timeout (502), and a call past API Gateway's 29 s integration timeout (504),
 * all in the API's error dialect. Every response carries `x-request-id`.
 */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const table = new RouteTable(options.routes);
  const integrationTimeoutMs = options.integrationTimeoutMs ?? API_GATEWAY_TIMEOUT_SECONDS * 1000;
  const keysByHash = new Map(options.apiKeys.map((key) => [sha256(key), key]));
  const extras = new Map(options.extraRoutes.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route]));

  async function respond(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const receivedAt = new Date(options.clock());
    const url = requestTarget(req.url ?? '/');
    const method = req.method ?? 'GET';
    const extra = extras.get(`${method} ${url.pathname}`);
    if (extra) return extra.handler(req, res);
    if (method === 'GET' && url.pathname.startsWith(WIDGET_PREFIX)) {
      const file = await widgetFile(options.widgetDir, url.pathname.slice(WIDGET_PREFIX.length));
      return write(req, res, file ?? errorResponse(new NotFoundError('No such widget file'), 'detail', requestId, receivedAt));
    }

    const found = table.lookup(method, url.pathname);
    if (found.kind !== 'found') return write(req, res, gatewayAnswer('MISSING_AUTHENTICATION_TOKEN', dialectOfPath(url.pathname), requestId, receivedAt));
    const { route, pathParameters } = found;
    const dialect = dialectOfRoute(route);
    // What the WAF answers on AWS (infra/web-acl.ts), with the same limit and message.
    const tooLarge = () => errorResponse(new PayloadTooLargeError(bodyTooLargeMessage(dialect)), dialect, requestId, receivedAt);
    if (Number(req.headers['content-length'] ?? 0) > MAX_REQUEST_BODY_BYTES) return write(req, res, tooLarge());

    let apiKey: string | undefined;
    if (!route.anonymous) {
      const offered = req.headers['x-api-key'];
      apiKey = typeof offered === 'string' ? keysByHash.get(sha256(offered)) : undefined;
      if (!apiKey) return write(req, res, gatewayAnswer('INVALID_API_KEY', dialect, requestId, receivedAt));
    }
    if (route.rateLimitGroup) {
      // Keyed routes count per key (a usage plan); an anonymous one counts all its callers together (method throttling).
      const decision = options.limiters[route.rateLimitGroup].take(apiKey ? sha256(apiKey) : route.id);
      if (!decision.allowed) {
        // A second's window frees within a second, as THROTTLED says; the day quota's reset is exact here.
        const answer =
          decision.exceeded === 'day'
            ? gatewayAnswer('QUOTA_EXCEEDED', dialect, requestId, receivedAt, { retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterSeconds)) })
            : gatewayAnswer('THROTTLED', dialect, requestId, receivedAt);
        return write(req, res, answer);
      }
    }

    let body: Buffer;
    try {
      body = await readBody(req);
    } catch (error) {
      if (error instanceof BodyTooLarge) return write(req, res, tooLarge());
      throw error;
    }
    const event = toProxyEvent(route, pathParameters, {
      method,
      path: url.pathname,
      query: url.query,
      rawHeaders: req.rawHeaders,
      body,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      requestId,
      receivedAt,
      apiKey,
    });
    let timer: NodeJS.Timeout | undefined;
    const integrationTimedOut = new Promise<typeof INTEGRATION_TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(INTEGRATION_TIMED_OUT), integrationTimeoutMs);
    });
    try {
      const result = await Promise.race([options.invoker.invoke(route, event, { enforceTimeout: true }), integrationTimedOut]);
      if (result === INTEGRATION_TIMED_OUT) {
        options.log.error('route handler passed the integration timeout', { route: route.id, requestId });
        return write(req, res, gatewayAnswer('INTEGRATION_TIMEOUT', dialect, requestId, receivedAt));
      }
      write(req, res, fromProxyResult(result));
    } catch (error) {
      // API Gateway answers a crashed, timed-out or malformed Lambda with 502 (INTEGRATION_FAILURE, shaped by DEFAULT_5XX).
      options.log.error('route handler failed', { route: route.id, requestId, errorName: error instanceof Error ? error.name : typeof error });
      write(req, res, gatewayAnswer('DEFAULT_5XX', dialect, requestId, receivedAt, { status: 502 }));
    } finally {
      clearTimeout(timer);
    }
  }

  const server: Server = createServer((req, res) => {
    const requestId = randomUUID();
    res.setHeader('x-request-id', requestId);
    respond(req, res, requestId).catch((error: unknown) => {
      options.log.error('gateway failed', { requestId, errorName: error instanceof Error ? error.name : typeof error });
      if (!res.headersSent) write(req, res, gatewayAnswer('DEFAULT_5XX', 'detail', requestId, new Date()));
      else res.destroy();
    });
  });
  // An answer that said `Connection: close` (a body over the limit, see mustClose) stops the upload by closing.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    res.on('finish', () => {
      if (!req.complete && res.getHeader('connection') === 'close') req.socket.destroySoon();
    });
  });
  const port = await listenOnLoopback(server, options.port);
  return { port, close: (graceMs) => closeGracefully(server, graceMs) };
}
