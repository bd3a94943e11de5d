/**
 * The one way integration tests start Hale: the real local runtime (gateway → handler modules,
 * dynalite, s3rver, the local Step Functions endpoint running the ASL files), on a free port, in a
 * fresh temporary data folder, quiet, with retry/wait intervals scaled down 1000× and loopback
 * callbacks allowed.
 *
 *   import { startTestRuntime, type TestRuntime } from '../helpers/runtime';
 *
 *   let hale: TestRuntime;
 *   beforeAll(async () => { hale = await startTestRuntime(); });
 *   afterAll(() => hale.stop());                       // also deletes the temporary data folder
 *
 *   const res = await hale.post('/health-score/timeseries', body);     // sends hale.apiKey
 *   expect(res.status).toBe(200);
 *   const data = res.json<MyResponse>();
 *   await hale.get('/ping', { apiKey: hale.otherApiKey });             // a second tenant
 *   await hale.get('/ping', { apiKey: null });                         // no key at all
 *
 * Overrides are passed to startLocalRuntime (local/runtime.ts): e.g. `extraStateMachines` and
 * `extraWorkers` to run fixture ASL with fixture workers, `clock` to move the gateway's clock,
 * `dataDir` to reuse a folder across a restart (then the caller deletes it). Every answer of a
 * documented operation is checked against the OpenAPI document (./openapi-contract.ts): an
 * undocumented status or a body that does not match its schema fails the request with the reasons.
 * For the AWS side
 * (DynamoDB, S3, Step Functions clients pointed at the runtime, waiting for an execution) see
 * ./aws.ts. One runtime per test file at a time: it owns process.env while it runs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { resetAwsClientsForTests } from '../../../functions/platform/aws-clients';
import { type LocalRuntime, type LocalRuntimeOptions, startLocalRuntime } from '../../../local/runtime';
import { contractProblems } from './openapi-contract';

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON; throws when it is not JSON. */
  json<T = Record<string, unknown>>(): T;
}

export interface RequestOptions {
  /** Defaults to the runtime's first key; null sends no key. */
  apiKey?: string | null;
  headers?: Record<string, string>;
  /** Objects are sent as JSON; strings and Buffers as they are (strings as application/json unless headers say otherwise). */
  body?: unknown;
  /** false: do not check the answer against the OpenAPI document (default true). */
  contract?: boolean;
}

export interface TestRuntime extends LocalRuntime {
  apiKey: string;
  otherApiKey: string;
  request(method: string, pathAndQuery: string, options?: RequestOptions): Promise<TestResponse>;
  get(pathAndQuery: string, options?: Omit<RequestOptions, 'body'>): Promise<TestResponse>;
  post(pathAndQuery: string, body: unknown, options?: Omit<RequestOptions, 'body'>): Promise<TestResponse>;
}

function encodeBody(body: unknown, headers: Record<string, string>): string | Uint8Array<ArrayBuffer> | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string') {
    // A string is a JSON text as far as the API is concerned (malformed ones included); a test of another type says so.
    headers['content-type'] ??= 'application/json';
    return body;
  }
  // fetch's types take an ArrayBuffer-backed view, which a Buffer may not be; copying makes one.
  if (Buffer.isBuffer(body)) return new Uint8Array(body);
  headers['content-type'] ??= 'application/json';
  return JSON.stringify(body);
}

export async function startTestRuntime(overrides: LocalRuntimeOptions = {}): Promise<TestRuntime> {
  const ownDataDir = overrides.dataDir === undefined;
  const dataDir = overrides.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'hale-test-')));
  const keys = overrides.apiKeys ?? [`test-key-a-${path.basename(dataDir)}`, `test-key-b-${path.basename(dataDir)}`];
  const runtime = await startLocalRuntime({
    port: 0,
    quiet: true,
    timeScale: 0.001,
    allowPrivateTargets: true,
    shutdownGraceMs: 5_000,
    ...overrides,
    dataDir,
    apiKeys: keys,
  });

  const request = async (method: string, pathAndQuery: string, options: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...options.headers };
    const apiKey = options.apiKey === undefined ? runtime.apiKeys[0] : options.apiKey;
    if (apiKey !== null && apiKey !== undefined) headers['x-api-key'] = apiKey;
    const body = encodeBody(options.body, headers);
    const send = () => fetch(`${runtime.baseUrl}${pathAndQuery}`, { method, headers, body });
    // A kept-alive connection the server closed just as a GET went out (an event loop busy with OCR
    // outlasts the keep-alive timeout) is reset; a GET is safe to send again, as browsers do.
    // (fetch's TypeError comes from Node's realm, not the test's: checked by its cause's code.)
    const response = await send().catch((error: unknown) => {
      if (method !== 'GET' || (error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error;
      return send();
    });
    const text = await response.text();
    if (options.contract !== false) {
      const problems = contractProblems({ method, path: pathAndQuery, status: response.status, contentType: response.headers.get('content-type'), body: text });
      if (problems.length > 0) throw new Error(`The answer does not match the OpenAPI document:\n  ${problems.join('\n  ')}`);
    }
    return { status: response.status, headers: response.headers, text, json: <T>() => JSON.parse(text) as T };
  };

  return {
    ...runtime,
    apiKey: runtime.apiKeys[0]!,
    otherApiKey: runtime.apiKeys[1] ?? runtime.apiKeys[0]!,
    request,
    get: (pathAndQuery, options) => request('GET', pathAndQuery, options),
    post: (pathAndQuery, body, options) => request('POST', pathAndQuery, { ...options, body }),
    stop: async () => {
      await runtime.stop();
      // The handlers' cached SDK clients point at the ports that just closed.
      resetAwsClientsForTests();
      if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
