import { GetObjectCommand } from '@aws-sdk/client-s3';
import { objectStore } from '../../functions/platform/s3-object-store';
import type { ReportJobResponse } from '../../functions/report/schemas';
import { type AwsClients, awsClientsFor } from './helpers/aws';
import { startTestRuntime, type TestRuntime } from './helpers/runtime';
import { Receiver } from './report/receiver';
import { finishedJob, fullReportBody } from './report/report-flow';

/**
 * Requests repeated with one Idempotency-Key, all at once: one job, whose stored request is the
 * first one written and is never written again while the pipeline reads it (the probe saw 3 of 13
 * such jobs fail with SyntaxError when the repeats rewrote it).
 */

let hale: TestRuntime;
let aws: AwsClients;
let receiver: Receiver;

beforeAll(async () => {
  hale = await startTestRuntime();
  aws = awsClientsFor(hale);
  receiver = await Receiver.start();
});

afterAll(async () => {
  await receiver.close();
  aws.destroy();
  await hale.stop();
});

it('the local S3 honours If-None-Match: * : of 20 concurrent writes of one key exactly one lands, and stays', async () => {
  const store = objectStore();
  const key = `reports/conditional-${Date.now()}/input.json`;
  const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => store.putIfAbsent(hale.buckets.artifacts, key, JSON.stringify({ writer: i, padding: 'x'.repeat(200_000) }), 'application/json')));
  expect(outcomes.filter(Boolean)).toHaveLength(1);
  const winner = outcomes.indexOf(true);
  const stored = await aws.s3.send(new GetObjectCommand({ Bucket: hale.buckets.artifacts, Key: key }));
  expect(JSON.parse(await stored.Body!.transformToString()).writer).toBe(winner);
  expect(await store.putIfAbsent(hale.buckets.artifacts, key, '{}', 'application/json')).toBe(false);
});

it('20 parallel report requests with one Idempotency-Key make one job, which completes and delivers once', async () => {
  const body = fullReportBody({ callback_url: receiver.url('/parallel') });
  const headers = { 'idempotency-key': `parallel-${Date.now()}` };
  // A request that outlasts its function's deadline on a busy machine is answered 504, documented as
  // retryable; a client retries it with the same key, and the retry names the one job.
  const post = async (retries = 2): Promise<Awaited<ReturnType<typeof hale.post>>> => {
    const answer = await hale.post('/health-score/report', body, { headers });
    return answer.status === 504 && retries > 0 ? post(retries - 1) : answer;
  };
  const answers = await Promise.all(Array.from({ length: 20 }, () => post()));
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
  const ids = new Set(answers.map((a) => a.json<ReportJobResponse>().job_id));
  expect(ids.size).toBe(1);
  const [jobId] = [...ids];
  const status = await finishedJob(hale, aws, jobId!);
  expect(status).toMatchObject({ status: 'completed', error_type: null });
  await receiver.waitFor((requests) => requests.some((r) => r.method === 'POST' && r.url.startsWith('/parallel')));
  expect(receiver.of('PUT', '/parallel')).toHaveLength(1);
  expect(receiver.of('POST', '/parallel')).toHaveLength(1);

  // The same key with another request is refused, naming the header; the job stays the first one.
  const other = await hale.post('/health-score/report', { ...body, uid_ext: 'someone-else' }, { headers });
  expect(other.status).toBe(422);
  expect(other.json<{ errors: { path: string }[] }>().errors[0]?.path).toBe('headers.idempotency-key');
});
