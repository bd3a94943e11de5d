import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { resetAwsClientsForTests } from '../../../functions/platform/aws-clients';
import { resetConfigForTests } from '../../../functions/platform/config';
import { DynamoDbJobsRepository, jobsRepository } from '../../../functions/platform/dynamodb-jobs-repository';
import { JobConflictError, JobNotFoundError, type JobRecord, JobTransitionError } from '../../../functions/platform/ports';
import { JOBS_TABLE } from '../../../functions/platform/resources';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../../local/embedded-dynamodb';

let dataDir: string;
let dynamo: EmbeddedDynamoDb;
let client: DynamoDBDocumentClient;
let now = new Date('2026-11-22T10:00:00Z');
let repo: DynamoDbJobsRepository;

const nowSeconds = () => Math.floor(now.getTime() / 1000);

function job(overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    kind: 'report',
    jobId: crypto.randomUUID(),
    tenant: 'tenant-a',
    status: 'accepted',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    expiresAt: nowSeconds() + 86_400,
    ...overrides,
  };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'hale-jobs-'));
  dynamo = await startEmbeddedDynamoDb(dataDir);
  client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  repo = new DynamoDbJobsRepository(client, JOBS_TABLE.localName, () => now);
});

afterAll(async () => {
  resetAwsClientsForTests();
  client.destroy();
  await dynamo.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('DynamoDbJobsRepository against dynalite', () => {
  it('creates a job once and reads it back without key attributes', async () => {
    const record = job({ configuration: { delivery: 'presigned_url' } });
    await repo.create(record);
    await expect(repo.create(record)).rejects.toBeInstanceOf(JobConflictError);
    expect(await repo.get('report', record.jobId)).toEqual(record);
    expect(await repo.get('lab', record.jobId)).toBeUndefined();
  });

  it('moves a job forward only from the allowed states and names them when it refuses', async () => {
    const record = job();
    await repo.create(record);
    const processing = await repo.transition('report', record.jobId, { from: ['accepted'], to: 'processing', set: { attempts: 1 } });
    expect(processing).toMatchObject({ status: 'processing', attempts: 1 });

    await repo.transition('report', record.jobId, { from: ['processing'], to: 'completed' });
    const backwards = repo.transition('report', record.jobId, { from: ['accepted'], to: 'processing' });
    await expect(backwards).rejects.toBeInstanceOf(JobTransitionError);
    await expect(backwards).rejects.toThrow(`Job report ${record.jobId} cannot move to 'processing': its status is 'completed', not one of 'accepted'`);
    await expect(backwards).rejects.toMatchObject({ current: 'completed' });
    expect((await repo.get('report', record.jobId))?.status).toBe('completed');

    await expect(repo.transition('report', 'no-such-job', { from: ['accepted'], to: 'processing' })).rejects.toThrow('it does not exist');
  });

  it('lets exactly one of many concurrent transitions from the same state win', async () => {
    const record = job();
    await repo.create(record);
    const targets = ['failed', 'processing', 'cancelled', 'rejected', 'completed', 'quarantined'];
    const outcomes = await Promise.allSettled(targets.map((to) => repo.transition('report', record.jobId, { from: ['accepted'], to })));
    const winners = outcomes.filter((o) => o.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    const losers = outcomes.filter((o) => o.status === 'rejected');
    for (const loser of losers) expect(loser.reason).toBeInstanceOf(JobTransitionError);
    const final = await repo.get('report', record.jobId);
    expect(final?.status).toBe((winners[0] as PromiseFulfilledResult<JobRecord>).value.status);
  });

  it('updates attributes and appends delivery attempts without touching the status', async () => {
    const record = job();
    await repo.create(record);
    now = new Date(now.getTime() + 5_000);
    await repo.update('report', record.jobId, { s3Location: 's3://bucket/key.pdf', status_note: undefined });
    const attempt = { at: now.toISOString(), target: 'callback' as const, statusCode: 503, error: null, durationMs: 12 };
    await repo.recordDelivery('report', record.jobId, { ...attempt, attempt: 1 });
    await repo.recordDelivery('report', record.jobId, { ...attempt, attempt: 2, statusCode: 200 });
    const stored = (await repo.get('report', record.jobId))!;
    expect(stored).toMatchObject({ status: 'accepted', s3Location: 's3://bucket/key.pdf', updatedAt: now.toISOString() });
    expect((stored.deliveries as { attempt: number; statusCode: number }[]).map((d) => [d.attempt, d.statusCode])).toEqual([
      [1, 503],
      [2, 200],
    ]);
    await expect(repo.update('report', 'no-such-job', { a: 1 })).rejects.toBeInstanceOf(JobNotFoundError);
    await expect(repo.update('report', record.jobId, { status: 'completed' })).rejects.toThrow('cannot be set directly');
  });

  it('treats expired jobs as gone although dynalite never deletes them', async () => {
    const record = job({ expiresAt: nowSeconds() + 60 });
    await repo.create(record);
    expect(await repo.get('report', record.jobId)).toBeDefined();
    now = new Date(now.getTime() + 61_000);
    expect(await repo.get('report', record.jobId)).toBeUndefined();
    await expect(repo.transition('report', record.jobId, { from: ['accepted'], to: 'processing' })).rejects.toThrow('it does not exist');
    await expect(repo.recordDelivery('report', record.jobId, { attempt: 1, at: '', target: 'webhook', statusCode: null, error: 'x', durationMs: 1 })).rejects.toBeInstanceOf(JobNotFoundError);
  });

  it('returns the first job for a reused idempotency key, per tenant and kind', async () => {
    const first = job();
    expect(await repo.createWithIdempotencyKey(first, 'key-1')).toEqual({ job: first, created: true });
    const retry = await repo.createWithIdempotencyKey(job(), 'key-1');
    expect(retry).toEqual({ job: first, created: false });
    expect(await repo.findByIdempotencyKey('report', 'tenant-a', 'key-1')).toEqual(first);

    const otherTenant = job({ tenant: 'tenant-b' });
    expect((await repo.createWithIdempotencyKey(otherTenant, 'key-1')).created).toBe(true);
    expect((await repo.createWithIdempotencyKey(job({ kind: 'lab' }), 'key-1')).created).toBe(true);
    expect(await repo.findByIdempotencyKey('report', 'tenant-a', 'unused-key')).toBeUndefined();
  });

  it('creates one job for concurrent requests with the same idempotency key', async () => {
    const candidates = Array.from({ length: 5 }, () => job());
    const results = await Promise.all(candidates.map((c) => repo.createWithIdempotencyKey(c, 'concurrent-key')));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const winner = results.find((r) => r.created)!.job;
    for (const result of results) expect(result.job.jobId).toBe(winner.jobId);
  });

  it('frees an idempotency key once its claim has expired', async () => {
    const first = job({ expiresAt: nowSeconds() + 30 });
    await repo.createWithIdempotencyKey(first, 'short-lived');
    now = new Date(now.getTime() + 31_000);
    expect(await repo.findByIdempotencyKey('report', 'tenant-a', 'short-lived')).toBeUndefined();
    const second = job();
    expect(await repo.createWithIdempotencyKey(second, 'short-lived')).toEqual({ job: second, created: true });
  });

  it('counts atomically and restarts a counter whose expiry has passed', async () => {
    const expiresAt = nowSeconds() + 3600;
    const counts = await Promise.all(Array.from({ length: 10 }, () => repo.incrementCounter('uploads#tenant-a', expiresAt)));
    expect([...counts].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    now = new Date((expiresAt + 1) * 1000);
    expect(await repo.incrementCounter('uploads#tenant-a', nowSeconds() + 3600)).toBe(1);
    expect(await repo.incrementCounter('uploads#tenant-a', nowSeconds() + 3600)).toBe(2);
  });

  it('is what jobsRepository() builds from the configuration of the local runtime', async () => {
    process.env.HALE_RUNTIME = 'local';
    process.env.HALE_DYNAMODB_ENDPOINT = dynamo.endpoint;
    process.env.HALE_JOBS_TABLE = JOBS_TABLE.localName;
    resetConfigForTests();
    resetAwsClientsForTests();
    const record = job({ expiresAt: undefined });
    await jobsRepository().create(record);
    expect(await repo.get('report', record.jobId)).toEqual(record);
  });
});
