import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DescribeExecutionCommand, ExecutionDoesNotExist } from '@aws-sdk/client-sfn';
import type { LabJob } from '../../../functions/lab/lab-job';
import { OVERDUE_MESSAGE } from '../../../functions/lab/steps/end-overdue-jobs';
import { finishJob } from '../../../functions/lab/steps/finish';
import { pipelineIo } from '../../../functions/lab/steps/pipeline-io';
import { labKeys } from '../../../functions/lab/storage-keys';
import { jobsRepository } from '../../../functions/platform/dynamodb-jobs-repository';
import { objectStore } from '../../../functions/platform/s3-object-store';
import { executionArnOf } from '../../../functions/platform/sfn-workflow-starter';
import { type AwsClients, awsClientsFor, eventually, waitForExecution } from '../helpers/aws';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime';
import { Receiver } from '../report/receiver';
import { bucketObjects } from './lab-test-kit';

/**
 * Lab jobs whose pipeline never finishes are ended by the runtime's own five-minute schedule (every
 * 300 ms at the test time scale): each job below is written straight to the jobs table, open and
 * already past its deadline, with no execution, as after a lost execution or a Finish that failed.
 */

let hale: TestRuntime;
let aws: AwsClients;
let hooks: Receiver;

beforeAll(async () => {
  hale = await startTestRuntime();
  aws = awsClientsFor(hale);
  hooks = await Receiver.start();
});

afterAll(async () => {
  aws.destroy();
  await hooks.close();
  await hale.stop();
});

/**
 * An open lab job with its document stored, overdue since a minute ago. The document goes first, and
 * the job is written only once the runtime has handled the document's upload notification (the
 * pending notifications under `<dataDir>/notifications`, local/pending-notifications.ts, are gone):
 * for a job already queued, upload-received starts the pipeline again, and that execution would race
 * the sweep to end the job.
 */
async function abandonedJob(status: LabJob['status'], extra: Record<string, unknown> = {}): Promise<string> {
  const jobId = randomUUID();
  await aws.s3.send(new PutObjectCommand({ Bucket: hale.buckets.uploads, Key: labKeys(jobId).document, Body: '%PDF-1.7\n', ContentType: 'application/pdf' }));
  await eventually(async () => ((await readdir(path.join(hale.dataDir, 'notifications'))).length === 0 ? true : undefined));
  const now = new Date();
  await jobsRepository().create({
    kind: 'lab',
    jobId,
    tenant: 'tenant-overdue',
    status,
    createdAt: new Date(now.getTime() - 2 * 3600_000).toISOString(),
    updatedAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + 86_400,
    deadlineAt: new Date(now.getTime() - 60_000).toISOString(),
    filename: null,
    webhookUrl: hooks.url(`/lab/${jobId}`),
    rejectIfPHI: false,
    dobDigest: null,
    stageTimes: {},
    ...extra,
  });
  return jobId;
}

async function ended(jobId: string) {
  return eventually(async () => {
    const job = await jobsRepository().get('lab', jobId);
    return job?.status === 'failed' ? job : undefined;
  });
}

async function webhookEvents(jobId: string): Promise<{ event: string; jobId: string }[]> {
  await hooks.waitFor((requests) => requests.some((r) => r.url === `/lab/${jobId}`));
  return hooks.of('POST', `/lab/${jobId}`).map((r) => JSON.parse(r.body.toString('utf8')) as { event: string; jobId: string });
}

const stillOpen = async (jobId: string) =>
  (await jobsRepository().listOverdue('lab', new Date(Date.now() + 24 * 3600_000), 1000)).some((j) => j.jobId === jobId);

it('a queued job whose execution never ran is failed through the state machine, its files deleted and its webhook sent', async () => {
  const jobId = await abandonedJob('queued');
  const job = await ended(jobId);
  expect(job).toMatchObject({ status: 'failed', message: OVERDUE_MESSAGE, overdueSince: expect.any(String) });
  expect(job.deadlineAt).toBeUndefined();
  expect(await stillOpen(jobId)).toBe(false);
  expect(await bucketObjects(aws, hale.buckets.uploads, `lab/${jobId}/`)).toEqual([]);
  expect((await webhookEvents(jobId)).map((e) => [e.event, e.jobId])).toEqual([['job.failed', jobId]]);
  // The receiver has the event before Notify has recorded it and the execution has ended.
  const execution = await waitForExecution(aws, executionArnOf(hale.stateMachineArn('lab-extraction'), jobId));
  expect(execution.status).toBe('SUCCEEDED');
});

it('a job a sweep already handed over and that is still open is ended by the sweep itself', async () => {
  const jobId = await abandonedJob('processing_extraction', { overdueSince: new Date(Date.now() - 5 * 60_000).toISOString() });
  const job = await ended(jobId);
  expect(job).toMatchObject({ status: 'failed', message: OVERDUE_MESSAGE, finishedAt: expect.any(String) });
  expect(await stillOpen(jobId)).toBe(false);
  expect(await bucketObjects(aws, hale.buckets.uploads, `lab/${jobId}/`)).toEqual([]);
  expect((await webhookEvents(jobId)).map((e) => e.event)).toEqual(['job.failed']);
  // No execution was involved: the sweep wrote the end and sent the event.
  await expect(
    aws.stepFunctions.send(new DescribeExecutionCommand({ executionArn: executionArnOf(hale.stateMachineArn('lab-extraction'), jobId) })),
  ).rejects.toBeInstanceOf(ExecutionDoesNotExist);
});

it('a finished job still in the index (its clean-up was due) is cleaned up and taken out of it, its outcome and results kept', async () => {
  const jobId = await abandonedJob('completed');
  await aws.s3.send(new PutObjectCommand({ Bucket: hale.buckets.artifacts, Key: labKeys(jobId).results, Body: '{}', ContentType: 'application/json' }));
  await eventually(async () => ((await stillOpen(jobId)) ? undefined : true));
  expect(await jobsRepository().get('lab', jobId)).toMatchObject({ status: 'completed' });
  expect(hooks.of('POST', `/lab/${jobId}`)).toEqual([]);
  expect(await bucketObjects(aws, hale.buckets.uploads, `lab/${jobId}/`)).toEqual([]);
  expect((await bucketObjects(aws, hale.buckets.artifacts, `lab/${jobId}/`)).map((o) => o.key)).toEqual([labKeys(jobId).results]);
});

it('a job whose files could not be deleted (S3 InternalError) still ends, stays due, and the sweep deletes its document and text', async () => {
  const jobId = await abandonedJob('processing_extraction', { deadlineAt: new Date(Date.now() + 3600_000).toISOString() });
  await aws.s3.send(new PutObjectCommand({ Bucket: hale.buckets.artifacts, Key: labKeys(jobId).textItems, Body: '[]', ContentType: 'application/json' }));
  const s3 = objectStore();
  const internalError = async () => Promise.reject(Object.assign(new Error('We encountered an internal error'), { name: 'InternalError' }));
  const failingS3 = Object.assign(Object.create(s3) as typeof s3, { delete: internalError, deletePrefix: internalError });
  const io = { ...pipelineIo(), objects: failingS3 };

  expect(await finishJob(io, jobId, { status: 'failed', errorType: 'timeout', message: OVERDUE_MESSAGE })).toBe(true);
  const job = await jobsRepository().get('lab', jobId);
  expect(job?.status).toBe('failed');
  expect(await stillOpen(jobId)).toBe(true);
  expect((await bucketObjects(aws, hale.buckets.uploads, `lab/${jobId}/`)).length).toBe(1);

  // Due now: the runtime's sweep (every 300 ms here) deletes what is left and takes the job out of the index.
  await jobsRepository().transition('lab', jobId, { from: ['failed'], to: 'failed', deadlineAt: new Date(Date.now() - 1000).toISOString() });
  await eventually(async () => ((await stillOpen(jobId)) ? undefined : true));
  expect(await bucketObjects(aws, hale.buckets.uploads, `lab/${jobId}/`)).toEqual([]);
  expect(await bucketObjects(aws, hale.buckets.artifacts, `lab/${jobId}/`)).toEqual([]);
});
