import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DynamoDBClient, waitUntilTableExists, waitUntilTableNotExists } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbJobsRepository } from '../../../functions/platform/dynamodb-jobs-repository';
import type { JobRecord } from '../../../functions/platform/ports';
import { JOBS_TABLE } from '../../../functions/platform/resources';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../../local/embedded-dynamodb';

let dataDir: string;
let dynamo: EmbeddedDynamoDb;
let client: DynamoDBDocumentClient;
const now = new Date('2026-11-22T10:00:00Z');
let repo: DynamoDbJobsRepository;

const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

function openJob(kind: JobRecord['kind'], deadlineMinutes: number | undefined, overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    kind,
    jobId: crypto.randomUUID(),
    tenant: 'tenant-a',
    status: 'pending',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + 86_400,
    deadlineAt: deadlineMinutes === undefined ? undefined : at(deadlineMinutes).toISOString(),
    ...overrides,
  };
}

function documentClient(endpoint: string): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'hale-open-jobs-'));
  dynamo = await startEmbeddedDynamoDb(dataDir);
  client = documentClient(dynamo.endpoint);
  repo = new DynamoDbJobsRepository(client, JOBS_TABLE.localName, () => now);
});

afterAll(async () => {
  client.destroy();
  await dynamo.close();
  await rm(dataDir, { recursive: true, force: true });
});

const ids = (jobs: { jobId: string }[]) => jobs.map((j) => j.jobId);

describe('the open-jobs index', () => {
  it('lists the overdue open jobs of one kind, oldest deadline first, up to the limit', async () => {
    const late = openJob('report', -30);
    const later = openJob('report', -10);
    const notYet = openJob('report', 10);
    const noDeadline = openJob('report', undefined);
    const otherKind = openJob('lab', -40, { status: 'queued' });
    for (const job of [notYet, later, noDeadline, late, otherKind]) await repo.create(job);

    const overdue = await repo.listOverdue('report', now, 10);
    expect(ids(overdue)).toEqual([late.jobId, later.jobId]);
    expect(overdue[0]).toEqual({ kind: 'report', jobId: late.jobId, status: 'pending', deadlineAt: late.deadlineAt });
    expect(ids(await repo.listOverdue('report', now, 1))).toEqual([late.jobId]);
    expect(ids(await repo.listOverdue('report', at(20), 10))).toEqual([late.jobId, later.jobId, notYet.jobId]);
    expect(ids(await repo.listOverdue('lab', now, 10))).toEqual([otherKind.jobId]);
    // The index key that names the kind is the repository's own; readers see the deadline only.
    expect(await repo.get('report', late.jobId)).toEqual(late);

    for (const job of [late, later, notYet]) await repo.transition('report', job.jobId, { from: ['pending'], to: 'failed', terminal: true });
    await repo.transition('lab', otherKind.jobId, { from: ['queued'], to: 'failed', terminal: true });
  });

  it('drops a job from the index in the write that ends it, and keeps or re-dates it before that', async () => {
    const job = openJob('report', -5);
    await repo.create(job);
    await repo.transition('report', job.jobId, { from: ['pending'], to: 'processing' });
    expect(ids(await repo.listOverdue('report', now, 10))).toEqual([job.jobId]);

    await repo.transition('report', job.jobId, { from: ['processing'], to: 'processing', deadlineAt: at(30).toISOString() });
    expect(await repo.listOverdue('report', now, 10)).toEqual([]);
    expect(await repo.listOverdue('report', at(31), 10)).toEqual([{ kind: 'report', jobId: job.jobId, status: 'processing', deadlineAt: at(30).toISOString() }]);

    const ended = await repo.transition('report', job.jobId, { from: ['processing'], to: 'completed', terminal: true });
    expect(ended.deadlineAt).toBeUndefined();
    expect(await repo.listOverdue('report', at(60), 10)).toEqual([]);
    const { Item } = await client.send(new GetCommand({ TableName: JOBS_TABLE.localName, Key: { pk: `job#report#${job.jobId}`, sk: 'job' } }));
    expect(Item).not.toHaveProperty('openKind');
    expect(Item).not.toHaveProperty('deadlineAt');
  });

  it('keeps a refused terminal transition from touching the index', async () => {
    const job = openJob('report', -5);
    await repo.create(job);
    await expect(repo.transition('report', job.jobId, { from: ['processing'], to: 'failed', terminal: true })).rejects.toThrow();
    expect(ids(await repo.listOverdue('report', now, 10))).toEqual([job.jobId]);
    await repo.transition('report', job.jobId, { from: ['pending'], to: 'failed', terminal: true });
  });

  it('skips jobs past their TTL that are still on the table and pages on to live ones', async () => {
    const expired = [1, 2, 3].map((n) => openJob('report', -60 + n, { expiresAt: Math.floor(now.getTime() / 1000) - 1 }));
    const live = openJob('report', -5);
    for (const job of [...expired, live]) await repo.create(job);
    expect(ids(await repo.listOverdue('report', now, 2))).toEqual([live.jobId]);
    await repo.transition('report', live.jobId, { from: ['pending'], to: 'failed', terminal: true });
  });

  it('never lets `set` write the index keys', async () => {
    const job = openJob('report', 5);
    await repo.create(job);
    await expect(repo.update('report', job.jobId, { deadlineAt: at(-5).toISOString() })).rejects.toThrow(TypeError);
    await expect(repo.update('report', job.jobId, { openKind: 'lab' })).rejects.toThrow(TypeError);
  });
});

describe('the local table', () => {
  it('answers reads and index queries as soon as the store has started, however long dynalite takes to create it', async () => {
    // AWS and dynalite answer ResourceNotFoundException while a table is CREATING; with a slow
    // creation a first read right after start would fail unless start waits for ACTIVE.
    const folder = await mkdtemp(path.join(tmpdir(), 'hale-slow-table-'));
    const store = await startEmbeddedDynamoDb(folder, { createTableMs: 300 });
    const db = documentClient(store.endpoint);
    try {
      const { Item } = await db.send(new GetCommand({ TableName: JOBS_TABLE.localName, Key: { pk: 'job#lab#none', sk: 'job' } }));
      expect(Item).toBeUndefined();
      const slowRepo = new DynamoDbJobsRepository(db, JOBS_TABLE.localName, () => now);
      await expect(slowRepo.listOverdue('lab', now, 10)).resolves.toEqual([]);
    } finally {
      db.destroy();
      await store.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('is rebuilt with its items and the index when an older data folder has it without the index', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'hale-old-table-'));
    try {
      let store = await startEmbeddedDynamoDb(folder);
      let db = documentClient(store.endpoint);
      const waiter = { client: db, maxWaitTime: 5, minDelay: 1 };
      await db.send(new DeleteTableCommand({ TableName: JOBS_TABLE.localName }));
      await waitUntilTableNotExists(waiter, { TableName: JOBS_TABLE.localName });
      await db.send(
        new CreateTableCommand({
          TableName: JOBS_TABLE.localName,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [
            { AttributeName: 'pk', AttributeType: 'S' },
            { AttributeName: 'sk', AttributeType: 'S' },
          ],
          KeySchema: [
            { AttributeName: 'pk', KeyType: 'HASH' },
            { AttributeName: 'sk', KeyType: 'RANGE' },
          ],
        }),
      );
      await waitUntilTableExists(waiter, { TableName: JOBS_TABLE.localName });
      await db.send(new PutCommand({ TableName: JOBS_TABLE.localName, Item: { pk: 'job#lab#old', sk: 'job', status: 'completed' } }));
      db.destroy();
      await store.close();

      store = await startEmbeddedDynamoDb(folder);
      db = documentClient(store.endpoint);
      const { Table } = await db.send(new DescribeTableCommand({ TableName: JOBS_TABLE.localName }));
      expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName)).toEqual([JOBS_TABLE.openJobsIndex.name]);
      const { Item } = await db.send(new GetCommand({ TableName: JOBS_TABLE.localName, Key: { pk: 'job#lab#old', sk: 'job' } }));
      expect(Item).toEqual({ pk: 'job#lab#old', sk: 'job', status: 'completed' });
      db.destroy();
      await store.close();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
