import { randomUUID } from 'node:crypto';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { DescribeExecutionCommand, ExecutionDoesNotExist } from '@aws-sdk/client-sfn';
import { sealCredential } from '../../../functions/platform/credentials-cipher';
import { jobsRepository } from '../../../functions/platform/dynamodb-jobs-repository';
import { outboundHttp } from '../../../functions/platform/outbound-http';
import { objectStore } from '../../../functions/platform/s3-object-store';
import { executionArnOf } from '../../../functions/platform/sfn-workflow-starter';
import { TIMEOUT_FAILURE } from '../../../functions/report/failure';
import { type DeliveryTarget, REPORT_JOB_KIND, type ReportJob, reportObjectKeys, sealingContext } from '../../../functions/report/report-job';
import type { ReportJobResponse, ReportStatusCallback } from '../../../functions/report/schemas';
import { endOverdueReportJobs } from '../../../functions/report/workers/end-overdue-jobs-worker';
import { type AwsClients, awsClientsFor, eventually } from '../helpers/aws';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime';
import { Receiver } from './receiver';
import { finishedJob, fullReportBody } from './report-flow';

/**
 * Report jobs whose pipeline never finishes are failed by the runtime's own five-minute schedule
 * (every 300 ms at the test time scale). The stuck jobs are written straight to the jobs table, open
 * and past their deadline, with no execution, as after a timed-out or lost execution.
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

/** A report job stuck in `status` (overdue since a minute ago unless `deadlineInMs` says otherwise), with its request stored and a sealed target. */
async function stuckJob(status: 'pending' | 'processing', target: Partial<DeliveryTarget>, deadlineInMs = -60_000): Promise<string> {
  const jobId = randomUUID();
  const now = Date.now();
  const sealed: DeliveryTarget = { auth_key_name: 'X-API-Key', auth_type: 'api_key', ...target };
  const job: ReportJob = {
    kind: REPORT_JOB_KIND,
    jobId,
    tenant: 'tenant-overdue',
    status,
    createdAt: new Date(now - 20 * 60_000).toISOString(),
    updatedAt: new Date(now - 15 * 60_000).toISOString(),
    expiresAt: Math.floor(now / 1000) + 86_400,
    deadlineAt: new Date(now + deadlineInMs).toISOString(),
    variant: 'full',
    deliveryMode: target.s3_presigned_url ? 'presigned_url' : 'callback',
    notifies: target.callback_url !== undefined,
    sealedTarget: sealCredential(JSON.stringify(sealed), sealingContext(jobId)),
    estimatedCompletionSeconds: 30,
    ...(status === 'processing' ? { processingStartedAt: new Date(now - 15 * 60_000).toISOString() } : {}),
  };
  // The request first: the runtime's sweep (every 300 ms) may end the job as soon as it exists, and
  // an input stored after its clean-up would outlive it.
  await aws.s3.send(new PutObjectCommand({ Bucket: hale.buckets.artifacts, Key: reportObjectKeys(jobId).input, Body: '{}', ContentType: 'application/json' }));
  await jobsRepository().create(job);
  return jobId;
}

async function failedJob(jobId: string): Promise<ReportJob> {
  return eventually(async () => {
    const job = (await jobsRepository().get(REPORT_JOB_KIND, jobId)) as ReportJob | undefined;
    // Ended, target forgotten and out of the open-jobs index: the clean-up ran to its end.
    return job?.status === 'failed' && job.sealedTarget === null && job.deadlineAt === undefined ? job : undefined;
  });
}

/** Resolves once the job has nothing left in the artifacts bucket. */
async function artifactsGone(jobId: string): Promise<boolean> {
  return eventually(async () => {
    const listed = await aws.s3.send(new ListObjectsV2Command({ Bucket: hale.buckets.artifacts, Prefix: reportObjectKeys(jobId).prefix }));
    return listed.KeyCount === 0 ? true : undefined;
  });
}

const inIndex = async (jobId: string) =>
  (await jobsRepository().listOverdue(REPORT_JOB_KIND, new Date(Date.now() + 7 * 86_400_000), 1000)).some((j) => j.jobId === jobId);

it('a processing job whose execution never ended fails with error_type timeout, sends its failure callback and is cleaned up', async () => {
  const jobId = await stuckJob('processing', { callback_url: receiver.url('/status'), auth_type: 'bearer', auth_token: 'tok-7' });
  const job = await failedJob(jobId);
  expect(job).toMatchObject({ errorType: 'timeout', errorMessage: TIMEOUT_FAILURE.message, errorDetails: { failed_step: 'score', retryable: true } });
  expect(job.deadlineAt).toBeUndefined();
  expect(await inIndex(jobId)).toBe(false);
  expect(await artifactsGone(jobId)).toBe(true);

  await receiver.waitFor((requests) => requests.some((r) => r.method === 'POST' && r.headers['x-job-id'] === jobId));
  const [callback] = receiver.of('POST').filter((r) => r.headers['x-job-id'] === jobId);
  expect(callback!.headers.authorization).toBe('Bearer tok-7');
  const body = JSON.parse(callback!.body.toString('utf8')) as ReportStatusCallback;
  expect(body).toMatchObject({ job_id: jobId, status: 'failed', error_type: 'timeout', error_message: TIMEOUT_FAILURE.message });
  // The attempt is in the job's delivery log, as the pipeline's Notify records it.
  expect((await jobsRepository().get(REPORT_JOB_KIND, jobId))?.deliveries).toEqual([expect.objectContaining({ target: 'webhook', statusCode: 200 })]);
  // The sweep ended it itself: no execution was started for it.
  await expect(
    aws.stepFunctions.send(new DescribeExecutionCommand({ executionArn: executionArnOf(hale.stateMachineArn('report-generation'), jobId) })),
  ).rejects.toBeInstanceOf(ExecutionDoesNotExist);
});

it('a pending job without a callback fails the same way, with nothing sent', async () => {
  const before = receiver.requests.length;
  const jobId = await stuckJob('pending', { s3_presigned_url: 'https://caller.example.com/put?sig=x' });
  const job = await failedJob(jobId);
  expect(job).toMatchObject({ errorType: 'timeout', errorDetails: { failed_step: 'mark_processing' } });
  expect(await inIndex(jobId)).toBe(false);
  expect(await artifactsGone(jobId)).toBe(true);
  expect(receiver.requests.length).toBe(before);
});

it('a report job that completes leaves the open-jobs index and is never swept', async () => {
  const response = await hale.post('/health-score/report', fullReportBody({ callback_url: receiver.url('/completed'), auth_type: 'bearer', auth_token: 'tok-1' }));
  expect(response.status).toBe(202);
  const { job_id: jobId } = response.json<ReportJobResponse>();
  expect(await inIndex(jobId)).toBe(true);
  expect((await finishedJob(hale, aws, jobId)).status).toBe('completed');
  expect(await inIndex(jobId)).toBe(false);
  const stored = await jobsRepository().get(REPORT_JOB_KIND, jobId);
  expect(stored).toMatchObject({ status: 'completed' });
  expect(stored?.deadlineAt).toBeUndefined();
});

it('an ended job whose clean-up failed (S3 InternalError) stays due and the next sweep deletes its artifacts', async () => {
  const jobId = await stuckJob('processing', { s3_presigned_url: 'https://caller.example.com/put?sig=x' }, 3600_000);
  // The job completed, but its Cleanup never succeeded: ended, still in the index with its clean-up
  // due (a minute ahead, so that only this test's sweep, a few minutes ahead, sees it at first).
  const due = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
  await jobsRepository().transition(REPORT_JOB_KIND, jobId, { from: ['processing'], to: 'completed', deadlineAt: due(60_000) });
  const s3 = objectStore();
  const failingS3 = Object.assign(Object.create(s3) as typeof s3, {
    deletePrefix: async () => Promise.reject(Object.assign(new Error('We encountered an internal error'), { name: 'InternalError' })),
  });
  const context = { jobs: jobsRepository(), objects: failingS3, http: outboundHttp(), bucket: hale.buckets.artifacts };
  expect(await endOverdueReportJobs(context, new Date(Date.now() + 300_000))).toMatchObject({ cleanedUp: 0 });
  expect(await inIndex(jobId)).toBe(true);
  const left = await aws.s3.send(new ListObjectsV2Command({ Bucket: hale.buckets.artifacts, Prefix: reportObjectKeys(jobId).prefix }));
  expect(left.KeyCount).toBe(1);

  // Due now: the runtime's own sweep (every 300 ms here) retries with the real store.
  await jobsRepository().transition(REPORT_JOB_KIND, jobId, { from: ['completed'], to: 'completed', deadlineAt: due(-1000) });
  expect(await artifactsGone(jobId)).toBe(true);
  await eventually(async () => ((await inIndex(jobId)) ? undefined : true));
  expect(await jobsRepository().get(REPORT_JOB_KIND, jobId)).toMatchObject({ status: 'completed', sealedTarget: null });
});
