import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  StartExecutionCommand,
  StateMachineDoesNotExist,
} from '@aws-sdk/client-sfn';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ROUTES } from '../../functions/routes';
import { fromProxyResult, toProxyEvent } from '../../local/api-gateway-event';
import { widgetFile } from '../../local/widget-files';
import { FIXTURE_SCHEDULED_WORKER, FIXTURE_STATE_MACHINE, FIXTURE_WORKERS, fixtureKey } from '../fixtures/workers/fixture-workers';
import { received as receivedTicks } from '../fixtures/workers/scheduled-tick';
import { type AwsClients, awsClientsFor, eventually, waitForExecution } from './helpers/aws';
import { startTestRuntime, type TestRuntime } from './helpers/runtime';

const fixtures = { extraStateMachines: [FIXTURE_STATE_MACHINE], extraWorkers: FIXTURE_WORKERS };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('local runtime gateway', () => {
  let hale: TestRuntime;
  beforeAll(async () => {
    hale = await startTestRuntime();
  });
  afterAll(() => hale.stop());

  it('listens on a free loopback port', () => {
    expect(hale.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(hale.port).toBeGreaterThan(0);
  });

  it('answers GET /ping with a valid key', async () => {
    const res = await hale.get('/ping');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers.get('x-request-id')).toMatch(UUID);
  });

  it('rejects a missing or unknown key with 401 in the {detail} dialect', async () => {
    for (const apiKey of [null, 'not-a-key']) {
      const res = await hale.get('/ping', { apiKey });
      expect(res.status).toBe(401);
      expect(res.json()).toEqual({ detail: expect.any(String) });
    }
  });

  it('rejects a missing key with 401 in the extraction dialect under /extraction', async () => {
    const res = await hale.get('/extraction/lab/status/some-job', { apiKey: null });
    expect(res.status).toBe(401);
    const body = res.json();
    expect(body).toEqual({ error: 'unauthorized', message: expect.any(String), timestamp: expect.any(String), requestId: res.headers.get('x-request-id') });
    expect(new Date(body.timestamp as string).toISOString()).toBe(body.timestamp);
  });

  it('serves anonymous routes without a key', async () => {
    const res = await hale.get('/openapi.json', { apiKey: null });
    expect(res.status).not.toBe(401);
  });

  it('answers an unknown route with 404 in the dialect of its path', async () => {
    const plain = await hale.get('/no/such/route');
    expect(plain.status).toBe(404);
    expect(plain.json()).toEqual({ detail: expect.any(String) });
    const extraction = await hale.get('/extraction/no-such-route');
    expect(extraction.status).toBe(404);
    expect(extraction.json()).toMatchObject({ error: 'not_found', requestId: extraction.headers.get('x-request-id') });
  });

  it('answers a known path with the wrong method as API Gateway does: 404 in the dialect, with CORS, before the key check', async () => {
    for (const [method, path] of [['DELETE', '/ping'], ['PUT', '/extraction/lab/upload'], ['PATCH', '/reference-data/'], ['OPTIONS', '/health-score/timeseries']] as const) {
      const res = await hale.request(method, path, { apiKey: null });
      expect(res.status).toBe(404);
      expect(res.headers.get('allow')).toBeNull();
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.json()).toMatchObject(path.startsWith('/extraction/') ? { error: 'not_found', message: 'Not found' } : { detail: 'Not found' });
    }
  });

  it('puts a distinct x-request-id on every response, gateway-made or handler-made', async () => {
    const responses = await Promise.all([
      hale.get('/ping'),
      hale.get('/ping', { apiKey: null }),
      hale.get('/nowhere'),
      hale.get('/widget/v1/no-such-file.js'),
      hale.get('/reference-data/'),
      hale.request('PUT', '/ping'),
    ]);
    const ids = responses.map((res) => res.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('rejects a body over the limit with 413 in the route dialect', async () => {
    const res = await hale.post('/extraction/lab/upload', Buffer.alloc(16 * 1024 * 1024, 0x61), { headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({ error: 'file_too_large' });
  });

  describe('early answers keep a keep-alive connection usable', () => {
    interface Sent {
      status: number;
      headers: http.IncomingHttpHeaders;
      /** Local port of the connection the request went out on: equal ports, same connection. */
      connection: number;
    }

    /** One request on `agent`; a body is sent with Content-Length unless `chunked`. */
    function send(agent: http.Agent, method: string, urlPath: string, options: { apiKey?: string; body?: Buffer; chunked?: boolean } = {}): Promise<Sent> {
      return new Promise((resolve, reject) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (options.apiKey) headers['x-api-key'] = options.apiKey;
        if (options.body && !options.chunked) headers['content-length'] = String(options.body.length);
        const req = http.request(`${hale.baseUrl}${urlPath}`, { method, agent, headers }, (res) => {
          const connection = res.socket.localPort ?? -1;
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, connection }));
        });
        req.on('error', reject);
        if (options.body && options.chunked) {
          // Several writes without Content-Length: Transfer-Encoding chunked, length unknown up front.
          for (let offset = 0; offset < options.body.length; offset += 1024 * 1024) req.write(options.body.subarray(offset, offset + 1024 * 1024));
        }
        req.end(options.body && !options.chunked ? options.body : undefined);
      });
    }

    let agent: http.Agent;
    beforeEach(() => {
      agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    });
    afterEach(() => agent.destroy());

    it('drains a small unread body (401, 404), keeps a bodyless request\'s connection, and serves the next request on the same connection', async () => {
      const body = Buffer.from(JSON.stringify({ padding: 'x'.repeat(200_000) }));
      const refused = await send(agent, 'POST', '/health-score/timeseries', { body, apiKey: 'not-a-key' });
      expect(refused.status).toBe(401);
      expect(refused.headers.connection).toBe('keep-alive');
      const unknown = await send(agent, 'POST', '/no/such/route', { body, apiKey: hale.apiKey });
      expect(unknown.status).toBe(404);
      const bodyless = await send(agent, 'GET', '/ping', { apiKey: 'not-a-key' });
      expect(bodyless.status).toBe(401);
      expect(bodyless.headers.connection).toBe('keep-alive');
      const next = await send(agent, 'GET', '/ping', { apiKey: hale.apiKey });
      expect(next.status).toBe(200);
      expect(new Set([refused.connection, unknown.connection, bodyless.connection, next.connection]).size).toBe(1);
    });

    it('answers a body it will not read (over the limit, or of unknown length) with Connection: close, and the client reconnects', async () => {
      const huge = Buffer.alloc(16 * 1024 * 1024, 0x61);
      const declared = await send(agent, 'POST', '/extraction/lab/upload', { body: huge, apiKey: hale.apiKey });
      expect(declared.status).toBe(413);
      expect(declared.headers.connection).toBe('close');
      const chunked = await send(agent, 'POST', '/health-score/timeseries', { body: huge, chunked: true, apiKey: hale.apiKey });
      expect(chunked.status).toBe(413);
      expect(chunked.headers.connection).toBe('close');
      const next = await send(agent, 'GET', '/ping', { apiKey: hale.apiKey });
      expect(next.status).toBe(200);
      expect(next.headers.connection).toBe('keep-alive');
    });
  });

  it('serves no widget file outside the build folder', async () => {
    for (const name of ['no-such-file.js', '..%2F..%2Fpackage.json', '.env']) {
      const res = await hale.get(`/widget/v1/${name}`, { apiKey: null });
      expect(res.status).toBe(404);
    }
  });
});

describe('widget files', () => {
  it('serves a built file with its content type and immutable caching, and nothing that is not a plain file name', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'hale-widget-'));
    try {
      await writeFile(path.join(dir, 'hale-widget.js'), 'window.HaleWidget = {};');
      const file = await widgetFile(dir, 'hale-widget.js');
      expect(file?.statusCode).toBe(200);
      expect(file?.headers).toMatchObject({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' });
      expect(file?.body.toString()).toBe('window.HaleWidget = {};');
      expect(await widgetFile(dir, '../hale-widget.js')).toBeUndefined();
      expect(await widgetFile(dir, 'missing.js')).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('API Gateway proxy event mapping', () => {
  const statusRoute = ROUTES.find((route) => route.id === 'ReportStatus')!;
  const request = {
    method: 'GET',
    path: '/health-score/report/status/job%201',
    query: 'a=1&a=2&b=x%20y',
    rawHeaders: ['X-Api-Key', 'k', 'Accept', 'text/plain', 'Accept', 'application/json', 'Content-Type', 'application/pdf'],
    body: Buffer.from('%PDF-1.7 binary'),
    sourceIp: '127.0.0.1',
    requestId: '11111111-2222-4333-8444-555555555555',
    receivedAt: new Date('2026-01-02T03:04:05Z'),
    apiKey: 'k',
  };

  it('builds a REST v1 event with the route template, parameters, both header forms and a base64 binary body', () => {
    const event = toProxyEvent(statusRoute, { job_id: 'job 1' }, request);
    expect(event.resource).toBe('/health-score/report/status/{job_id}');
    expect(event.path).toBe(request.path);
    expect(event.pathParameters).toEqual({ job_id: 'job 1' });
    expect(event.queryStringParameters).toEqual({ a: '2', b: 'x y' });
    expect(event.multiValueQueryStringParameters).toEqual({ a: ['1', '2'], b: ['x y'] });
    expect(event.headers.Accept).toBe('application/json');
    expect(event.multiValueHeaders.Accept).toEqual(['text/plain', 'application/json']);
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body!, 'base64').toString()).toBe('%PDF-1.7 binary');
    expect(event.requestContext.requestId).toBe(request.requestId);
    expect(event.requestContext.resourcePath).toBe(statusRoute.path);
    expect(event.requestContext.identity.apiKey).toBe('k');
    expect(event.requestContext.identity.apiKeyId).toMatch(/^[0-9a-f]{20}$/);
    expect(event.requestContext.requestTimeEpoch).toBe(request.receivedAt.getTime());
  });

  it('passes JSON bodies as text and no body as null', () => {
    const json = toProxyEvent(statusRoute, null, { ...request, rawHeaders: ['content-type', 'application/json'], body: Buffer.from('{"a":1}') });
    expect(json).toMatchObject({ body: '{"a":1}', isBase64Encoded: false });
    const empty = toProxyEvent(statusRoute, null, { ...request, query: '', body: Buffer.alloc(0) });
    expect(empty).toMatchObject({ body: null, isBase64Encoded: false, queryStringParameters: null });
  });

  it('turns a proxy result into HTTP, merging multi-value headers and decoding base64 bodies', () => {
    const response = fromProxyResult({
      statusCode: 200,
      headers: { 'Content-Type': 'application/pdf' },
      multiValueHeaders: { 'Set-Cookie': ['a=1', 'b=2'] },
      body: Buffer.from('%PDF').toString('base64'),
      isBase64Encoded: true,
    });
    expect(response.headers).toEqual({ 'content-type': 'application/pdf', 'set-cookie': ['a=1', 'b=2'] });
    expect(response.body.toString()).toBe('%PDF');
    expect(() => fromProxyResult({ body: 'no status' })).toThrow();
  });
});

describe('local Step Functions', () => {
  let hale: TestRuntime;
  let aws: AwsClients;
  let machineArn: string;
  beforeAll(async () => {
    hale = await startTestRuntime(fixtures);
    aws = awsClientsFor(hale);
    machineArn = hale.stateMachineArn(FIXTURE_STATE_MACHINE.name);
  });
  afterAll(async () => {
    aws.destroy();
    await hale.stop();
  });

  const start = (name: string, input: Record<string, unknown>) =>
    aws.stepFunctions.send(new StartExecutionCommand({ stateMachineArn: machineArn, name, input: JSON.stringify(input) }));

  it('retries a failing task with scaled backoff, then runs to the end against dynalite and s3rver', async () => {
    const { executionArn } = await start('retry-ok', { jobId: 'retry-ok' });
    const done = await waitForExecution(aws, executionArn!);
    expect(done.status).toBe('SUCCEEDED');
    expect(JSON.parse(done.output!)).toMatchObject({ jobId: 'retry-ok', flaky: { attempts: 3 }, strict: { checked: true } });

    const attempts = await aws.documents.send(new GetCommand({ TableName: hale.jobsTable, Key: fixtureKey('retry-ok', 'attempts') }));
    expect(attempts.Item?.attempts).toBe(3);
    const outcome = await aws.documents.send(new GetCommand({ TableName: hale.jobsTable, Key: fixtureKey('retry-ok', 'outcome') }));
    expect(outcome.Item).toMatchObject({ outcome: 'succeeded', attempts: 3 });
    const artifact = await aws.s3.send(new GetObjectCommand({ Bucket: hale.buckets.artifacts, Key: 'fixture/retry-ok/flaky.json' }));
    expect(JSON.parse(await artifact.Body!.transformToString())).toEqual({ attempts: 3 });

    const history = hale.stepFunctions.describe(executionArn!).history;
    const retries = history.filter((entry) => entry.type === 'StateRetried' && entry.state === 'Flaky').map((entry) => entry.timestamp);
    expect(retries).toHaveLength(2);
    // The ASL asks for 2 s + 4 s of backoff and a 60 s wait; timeScale 0.001 makes them milliseconds.
    // Between the two retries lie the first backoff and one warm attempt (the first attempt, before
    // them, also pays the worker's cold start): less than the 2 s the unscaled backoff alone would take.
    expect(retries[1]! - retries[0]!).toBeLessThan(2_000);
    const at = (type: string, state: string) => history.find((entry) => entry.type === type && entry.state === state)!.timestamp;
    expect(at('StateExited', 'Pause') - at('StateEntered', 'Pause')).toBeLessThan(1_000);
  });

  it('catches a named task error, records the failure and fails the execution', async () => {
    const { executionArn } = await start('catch-me', { jobId: 'catch-me', explode: true });
    const done = await waitForExecution(aws, executionArn!);
    expect(done).toMatchObject({ status: 'FAILED', error: 'FixtureJobFailed', cause: 'The strict step rejected the job' });
    const outcome = await aws.documents.send(new GetCommand({ TableName: hale.jobsTable, Key: fixtureKey('catch-me', 'outcome') }));
    expect(outcome.Item).toMatchObject({ outcome: 'failed', error: 'ValidationFailed' });
    // As in AWS, the Cause of a Lambda error is the runtime's JSON error report.
    expect(JSON.parse(outcome.Item!.cause as string)).toMatchObject({ errorType: 'ValidationFailed', errorMessage: 'the job asked to be rejected' });
  });

  it('refuses a reused execution name, but repeats a running one started with the same input', async () => {
    const first = await start('same-name', { jobId: 'same-name' });
    const repeat = await start('same-name', { jobId: 'same-name' });
    expect(repeat.executionArn).toBe(first.executionArn);
    await expect(start('same-name', { jobId: 'other-input' })).rejects.toBeInstanceOf(ExecutionAlreadyExists);
    await waitForExecution(aws, first.executionArn!);
    await expect(start('same-name', { jobId: 'same-name' })).rejects.toBeInstanceOf(ExecutionAlreadyExists);
  });

  it('answers unknown executions and state machines with the typed SDK errors', async () => {
    await expect(
      aws.stepFunctions.send(new DescribeExecutionCommand({ executionArn: `${machineArn.replace(':stateMachine:', ':execution:')}:nope` })),
    ).rejects.toBeInstanceOf(ExecutionDoesNotExist);
    await expect(
      aws.stepFunctions.send(new StartExecutionCommand({ stateMachineArn: hale.stateMachineArn('no-such-machine'), input: '{}' })),
    ).rejects.toBeInstanceOf(StateMachineDoesNotExist);
  });

  it('sends an object-created notification for the uploads bucket to the trigger worker, key URL-encoded', async () => {
    await aws.s3.send(new PutObjectCommand({ Bucket: hale.buckets.uploads, Key: 'incoming/lab report (1).pdf', Body: '%PDF-1.7', ContentType: 'application/pdf' }));
    const item = await eventually(async () => {
      const got = await aws.documents.send(new GetCommand({ TableName: hale.jobsTable, Key: { pk: 'upload#incoming/lab report (1).pdf', sk: 'trigger' } }));
      return got.Item;
    });
    expect(item).toMatchObject({ rawKey: 'incoming/lab+report+%281%29.pdf', bucket: hale.buckets.uploads, size: 8, eventName: 'ObjectCreated:Put' });
  });

  it('sends no notification for objects in the artifacts bucket', async () => {
    await aws.s3.send(new PutObjectCommand({ Bucket: hale.buckets.artifacts, Key: 'not-an-upload.pdf', Body: 'x' }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const got = await aws.documents.send(new GetCommand({ TableName: hale.jobsTable, Key: { pk: 'upload#not-an-upload.pdf', sk: 'trigger' } }));
    expect(got.Item).toBeUndefined();
  });
});

describe('local runtime schedules and extra routes', () => {
  it('calls five-minute workers every 5 min × timeScale and serves extra routes with a request id', async () => {
    const hale = await startTestRuntime({
      timeScale: 0.0002,
      extraWorkers: [FIXTURE_SCHEDULED_WORKER],
      extraRoutes: [
        {
          method: 'GET',
          path: '/demo',
          handler: (_req, res) => {
            res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>demo</h1>');
          },
        },
      ],
    });
    try {
      // 5 min × 0.0002 = 60 ms between ticks: three arrive long before a five-minute schedule's first.
      const ticks = await eventually(async () => (receivedTicks.length >= 3 ? receivedTicks.slice(0, 3) : undefined));
      for (const event of ticks) expect(event).toMatchObject({ 'detail-type': 'Scheduled Event', source: 'aws.events' });
      // Each tick is its own interval (a timer never fires early), not a burst: the events' times say when each fired.
      const fired = ticks.map((event) => Date.parse(event.time));
      for (let i = 1; i < fired.length; i++) expect(fired[i]! - fired[i - 1]!).toBeGreaterThanOrEqual(55);

      const demo = await hale.get('/demo', { apiKey: null });
      expect(demo.status).toBe(200);
      expect(demo.text).toBe('<h1>demo</h1>');
      expect(demo.headers.get('x-request-id')).toMatch(UUID);
    } finally {
      await hale.stop();
    }
  });
});

describe('local runtime shutdown', () => {
  it('lets a running execution finish before it closes the stores', async () => {
    // timeScale 0.02 turns the fixture's 60 s Wait into 1.2 s, so stop() arrives mid-execution.
    const hale = await startTestRuntime({ ...fixtures, timeScale: 0.02 });
    const aws = awsClientsFor(hale);
    const { executionArn } = await aws.stepFunctions.send(
      new StartExecutionCommand({ stateMachineArn: hale.stateMachineArn(FIXTURE_STATE_MACHINE.name), name: 'drain', input: '{"jobId":"drain"}' }),
    );
    aws.destroy();
    expect(hale.stepFunctions.describe(executionArn!).status).toBe('RUNNING');
    await hale.stop();
    // RecordSuccess wrote to dynalite after the Wait; had the store closed first, the execution would have failed.
    expect(hale.stepFunctions.describe(executionArn!).status).toBe('SUCCEEDED');
  });
});

describe('local runtime data folder', () => {
  it('keeps DynamoDB and S3 data, the development key and the secrets across a restart', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hale-restart-'));
    try {
      // No keys given: a development key is generated and kept in the data folder.
      const first = await startTestRuntime({ ...fixtures, dataDir, apiKeys: [] });
      expect(first.developmentKey).toEqual({ generated: true });
      expect((await first.get('/ping')).status).toBe(200);
      const firstAws = awsClientsFor(first);
      const { executionArn } = await firstAws.stepFunctions.send(
        new StartExecutionCommand({ stateMachineArn: first.stateMachineArn(FIXTURE_STATE_MACHINE.name), name: 'persisted', input: '{"jobId":"persisted"}' }),
      );
      expect((await waitForExecution(firstAws, executionArn!)).status).toBe('SUCCEEDED');
      const webhookSecret = process.env.HALE_WEBHOOK_SIGNING_SECRET;
      firstAws.destroy();
      await first.stop();

      const second = await startTestRuntime({ ...fixtures, dataDir, apiKeys: [] });
      const secondAws = awsClientsFor(second);
      try {
        expect(second.persistent).toBe(true);
        expect(second.developmentKey).toEqual({ generated: false });
        expect(second.apiKey).toBe(first.apiKey);
        const outcome = await secondAws.documents.send(new GetCommand({ TableName: second.jobsTable, Key: fixtureKey('persisted', 'outcome') }));
        expect(outcome.Item).toMatchObject({ outcome: 'succeeded', attempts: 3 });
        const artifact = await secondAws.s3.send(new GetObjectCommand({ Bucket: second.buckets.artifacts, Key: 'fixture/persisted/flaky.json' }));
        expect(JSON.parse(await artifact.Body!.transformToString())).toEqual({ attempts: 3 });
        expect(process.env.HALE_WEBHOOK_SIGNING_SECRET).toBe(webhookSecret);
        expect(webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      } finally {
        secondAws.destroy();
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
