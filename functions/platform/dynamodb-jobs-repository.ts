import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDocumentClient } from './aws-clients';
import { setting } from './config';
import {
  type DeliveryAttempt,
  JobConflictError,
  type JobKind,
  JobNotFoundError,
  type JobRecord,
  type JobsRepository,
  type JobTransition,
  JobTransitionError,
  type OverdueJob,
} from './ports';
import { JOBS_TABLE } from './resources';

/**
 * Jobs, idempotency claims and rate-limit counters share the one jobs table (resources.ts JOBS_TABLE):
 *   job          pk = job#<kind>#<jobId>                          sk = job
 *   idempotency  pk = idempotency#<kind>#<tenant>#<sha256(key)>   sk = idempotency
 *   counter      pk = counter#<name>                              sk = counter
 * An open job also carries openKind = <kind> and deadlineAt, the keys of the sparse open-jobs index
 * (JOBS_TABLE.openJobsIndex); a terminal transition removes both in its conditional write.
 * Every write that depends on the current state is conditional, so a job never moves backwards and
 * a concurrent writer is never overwritten. Expired items are filtered on read: DynamoDB TTL deletes
 * lazily (up to days late) and dynalite never does.
 */

const JOB_SK = 'job';
const IDEMPOTENCY_SK = 'idempotency';
const COUNTER_SK = 'counter';

/** Attributes `update`/`transition` may not set: keys, identity, and what the repository maintains. */
const PROTECTED_ATTRIBUTES = new Set(['pk', 'sk', 'kind', 'jobId', 'tenant', 'status', 'createdAt', 'updatedAt', 'openKind', 'deadlineAt']);

const OPEN_JOBS = JOBS_TABLE.openJobsIndex;

/** How often a claim whose job is not yet readable is re-read (the claimer is between its two writes). */
const CLAIM_READ_ATTEMPTS = 5;
const CLAIM_READ_DELAY_MS = 100;
const TRANSACTION_ATTEMPTS = 3;
const COUNTER_ATTEMPTS = 3;

type DocumentClient = Pick<DynamoDBDocumentClient, 'send'>;

const jobKey = (kind: JobKind, jobId: string) => ({ pk: `job#${kind}#${jobId}`, sk: JOB_SK });

const claimKey = (kind: JobKind, tenant: string, key: string) => ({
  pk: `idempotency#${kind}#${tenant}#${createHash('sha256').update(key).digest('hex')}`,
  sk: IDEMPOTENCY_SK,
});

const counterKey = (name: string) => ({ pk: `counter#${name}`, sk: COUNTER_SK });

const NOT_EXPIRED = '(attribute_not_exists(#expiresAt) OR #expiresAt > :now)';

function isConditionFailure(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException;
}

/** dynalite implements no transactions; it answers UnknownOperationException. */
function isUnsupportedOperation(error: unknown): boolean {
  return error instanceof Error && error.name === 'UnknownOperationException';
}

function toJob(item: Record<string, unknown>): JobRecord {
  const { pk: _pk, sk: _sk, [OPEN_JOBS.partitionKey]: _openKind, ...job } = item;
  return job as JobRecord;
}

/** SET clauses for caller-supplied attributes, with placeholder names so reserved words are safe. */
function setClauses(set: Record<string, unknown>) {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  Object.entries(set).forEach(([name, value], index) => {
    if (PROTECTED_ATTRIBUTES.has(name)) throw new TypeError(`Job attribute ${name} cannot be set directly`);
    if (value === undefined) return;
    clauses.push(`#a${index} = :a${index}`);
    names[`#a${index}`] = name;
    values[`:a${index}`] = value;
  });
  return { clauses, names, values };
}

/** What a transition writes to the open-jobs index keys: removes both when it ends the job, re-dates them on a new deadline. */
function openIndexClauses(kind: JobKind, change: JobTransition) {
  const names = { '#openKind': OPEN_JOBS.partitionKey, '#deadlineAt': OPEN_JOBS.sortKey };
  if (change.terminal) return { set: [], remove: ['REMOVE #openKind, #deadlineAt'], names, values: {} };
  if (change.deadlineAt === undefined) return { set: [], remove: [], names: {}, values: {} };
  return { set: ['#openKind = :openKind', '#deadlineAt = :deadlineAt'], remove: [], names, values: { ':openKind': kind, ':deadlineAt': change.deadlineAt } };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Switched off after the first UnknownOperationException (dynalite, the local runtime); kept per
 * process because handlers build a repository per request.
 */
let transactionsSupported = true;

export class DynamoDbJobsRepository implements JobsRepository {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private nowSeconds(): number {
    return Math.floor(this.clock().getTime() / 1000);
  }

  private isLive(item: Record<string, unknown> | undefined): item is Record<string, unknown> {
    if (!item) return false;
    const expiresAt = item.expiresAt;
    return typeof expiresAt !== 'number' || expiresAt > this.nowSeconds();
  }

  async create(job: JobRecord): Promise<void> {
    try {
      await this.db.send(new PutCommand(this.jobPut(job)));
    } catch (error) {
      if (isConditionFailure(error)) throw new JobConflictError(`Job ${job.kind} ${job.jobId} already exists`);
      throw error;
    }
  }

  async get(kind: JobKind, jobId: string): Promise<JobRecord | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: jobKey(kind, jobId), ConsistentRead: true }));
    return this.isLive(Item) ? toJob(Item) : undefined;
  }

  async transition(kind: JobKind, jobId: string, change: JobTransition): Promise<JobRecord> {
    if (change.from.length === 0) throw new TypeError('A transition needs at least one source status');
    const extra = setClauses(change.set ?? {});
    const fromValues = Object.fromEntries(change.from.map((status, i) => [`:from${i}`, status]));
    const open = openIndexClauses(kind, change);
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: jobKey(kind, jobId),
          UpdateExpression: [`SET ${['#status = :to', '#updatedAt = :updatedAt', ...open.set, ...extra.clauses].join(', ')}`, ...open.remove].join(' '),
          ConditionExpression: `attribute_exists(pk) AND ${NOT_EXPIRED} AND #status IN (${Object.keys(fromValues).join(', ')})`,
          ExpressionAttributeNames: { '#status': 'status', '#updatedAt': 'updatedAt', '#expiresAt': 'expiresAt', ...open.names, ...extra.names },
          ExpressionAttributeValues: {
            ':to': change.to,
            ':updatedAt': this.clock().toISOString(),
            ':now': this.nowSeconds(),
            ...fromValues,
            ...open.values,
            ...extra.values,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toJob(Attributes ?? {});
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = await this.get(kind, jobId);
      const expected = change.from.map((s) => `'${s}'`).join(', ');
      const problem = current ? `its status is '${current.status}', not one of ${expected}` : 'it does not exist';
      throw new JobTransitionError(`Job ${kind} ${jobId} cannot move to '${change.to}': ${problem}`, current?.status);
    }
  }

  async listOverdue(kind: JobKind, now: Date, limit: number): Promise<OverdueJob[]> {
    const overdue: OverdueJob[] = [];
    let startKey: Record<string, unknown> | undefined;
    // Pages until `limit` live jobs: an expired job TTL has not yet deleted (dynalite never does) is skipped.
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: OPEN_JOBS.name,
          KeyConditionExpression: '#openKind = :kind AND #deadlineAt <= :now',
          ExpressionAttributeNames: { '#openKind': OPEN_JOBS.partitionKey, '#deadlineAt': OPEN_JOBS.sortKey },
          ExpressionAttributeValues: { ':kind': kind, ':now': now.toISOString() },
          Limit: limit,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        if (overdue.length >= limit || !this.isLive(item)) continue;
        overdue.push({ kind, jobId: String(item.jobId), status: String(item.status), deadlineAt: String(item[OPEN_JOBS.sortKey]) });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey && overdue.length < limit);
    return overdue;
  }

  async update(kind: JobKind, jobId: string, set: Record<string, unknown>): Promise<void> {
    const extra = setClauses(set);
    await this.updateExisting(kind, jobId, ['#updatedAt = :updatedAt', ...extra.clauses], extra.names, extra.values);
  }

  async addToCounters(kind: JobKind, jobId: string, counters: Record<string, number>): Promise<void> {
    const entries = Object.entries(counters);
    for (const [name] of entries) if (PROTECTED_ATTRIBUTES.has(name)) throw new TypeError(`Job attribute ${name} cannot be set directly`);
    await this.updateExisting(
      kind,
      jobId,
      ['#updatedAt = :updatedAt', ...entries.map((_, i) => `#c${i} = if_not_exists(#c${i}, :zero) + :c${i}`)],
      Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
      { ':zero': 0, ...Object.fromEntries(entries.map(([, value], i) => [`:c${i}`, value])) },
    );
  }

  async recordDelivery(kind: JobKind, jobId: string, attempt: DeliveryAttempt): Promise<void> {
    await this.updateExisting(
      kind,
      jobId,
      ['#deliveries = list_append(if_not_exists(#deliveries, :noDeliveries), :attempt)', '#updatedAt = :updatedAt'],
      { '#deliveries': 'deliveries' },
      { ':noDeliveries': [], ':attempt': [attempt] },
    );
  }

  private async updateExisting(
    kind: JobKind,
    jobId: string,
    clauses: string[],
    names: Record<string, string>,
    values: Record<string, unknown>,
  ): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: jobKey(kind, jobId),
          UpdateExpression: `SET ${clauses.join(', ')}`,
          ConditionExpression: `attribute_exists(pk) AND ${NOT_EXPIRED}`,
          ExpressionAttributeNames: { '#updatedAt': 'updatedAt', '#expiresAt': 'expiresAt', ...names },
          ExpressionAttributeValues: { ':updatedAt': this.clock().toISOString(), ':now': this.nowSeconds(), ...values },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new JobNotFoundError(`Job ${kind} ${jobId} does not exist`);
      throw error;
    }
  }

  async createWithIdempotencyKey(job: JobRecord, key: string): Promise<{ job: JobRecord; created: boolean }> {
    if (!transactionsSupported) return this.createClaimingFirst(job, key);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.db.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: this.jobPut(job) },
              { Put: this.claimPut(job, key) },
            ],
          }),
        );
        return { job, created: true };
      } catch (error) {
        if (isUnsupportedOperation(error)) {
          transactionsSupported = false;
          return this.createClaimingFirst(job, key);
        }
        if (!(error instanceof TransactionCanceledException)) throw error;
        const [jobReason, claimReason] = error.CancellationReasons ?? [];
        if (claimReason?.Code === 'ConditionalCheckFailed') return { job: await this.jobOfClaim(job, key), created: false };
        if (jobReason?.Code === 'ConditionalCheckFailed') throw new JobConflictError(`Job ${job.kind} ${job.jobId} already exists`);
        // TransactionConflict: another request with the same key is writing right now; its claim wins.
        if (attempt >= TRANSACTION_ATTEMPTS) throw new JobConflictError('A concurrent request holds this idempotency key; retry');
      }
    }
  }

  private jobPut(job: JobRecord) {
    const open = job.deadlineAt === undefined ? {} : { [OPEN_JOBS.partitionKey]: job.kind };
    return { TableName: this.tableName, Item: { ...job, ...open, ...jobKey(job.kind, job.jobId) }, ConditionExpression: 'attribute_not_exists(pk)' };
  }

  private claimPut(job: JobRecord, key: string) {
    return {
      TableName: this.tableName,
      Item: { ...claimKey(job.kind, job.tenant, key), jobId: job.jobId, createdAt: job.createdAt, expiresAt: job.expiresAt },
      // An expired claim still on the table (TTL is lazy) no longer holds the key.
      ConditionExpression: 'attribute_not_exists(pk) OR #expiresAt <= :now',
      ExpressionAttributeNames: { '#expiresAt': 'expiresAt' },
      ExpressionAttributeValues: { ':now': this.nowSeconds() },
    };
  }

  /**
   * Without transactions (dynalite, i.e. the local runtime only) the claim is written first: the
   * conditional claim is what serialises concurrent requests, the job follows it.
   */
  private async createClaimingFirst(job: JobRecord, key: string): Promise<{ job: JobRecord; created: boolean }> {
    try {
      await this.db.send(new PutCommand(this.claimPut(job, key)));
    } catch (error) {
      if (isConditionFailure(error)) return { job: await this.jobOfClaim(job, key), created: false };
      throw error;
    }
    await this.create(job);
    return { job, created: true };
  }

  /** The job that holds the key `job` tried to claim. */
  private async jobOfClaim(job: JobRecord, key: string): Promise<JobRecord> {
    for (let attempt = 1; attempt <= CLAIM_READ_ATTEMPTS; attempt++) {
      const existing = await this.findByIdempotencyKey(job.kind, job.tenant, key);
      if (existing) return existing;
      await sleep(CLAIM_READ_DELAY_MS);
    }
    throw new JobConflictError('A concurrent request holds this idempotency key; retry');
  }

  async findByIdempotencyKey(kind: JobKind, tenant: string, key: string): Promise<JobRecord | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: claimKey(kind, tenant, key), ConsistentRead: true }),
    );
    if (!this.isLive(Item) || typeof Item.jobId !== 'string') return undefined;
    const job = await this.get(kind, Item.jobId);
    return job?.tenant === tenant ? job : undefined;
  }

  async incrementCounter(counter: string, expiresAt: number): Promise<number> {
    const names = { '#count': 'count', '#expiresAt': 'expiresAt' };
    for (let attempt = 1; attempt <= COUNTER_ATTEMPTS; attempt++) {
      try {
        const { Attributes } = await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: counterKey(counter),
            UpdateExpression: 'ADD #count :one SET #expiresAt = :expiresAt',
            ConditionExpression: `attribute_not_exists(pk) OR #expiresAt > :now`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: { ':one': 1, ':expiresAt': expiresAt, ':now': this.nowSeconds() },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        return Number(Attributes?.count);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      // The stored counter has expired but is still on the table: start it again at 1.
      try {
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: counterKey(counter),
            UpdateExpression: 'SET #count = :one, #expiresAt = :expiresAt',
            ConditionExpression: '#expiresAt <= :now',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: { ':one': 1, ':expiresAt': expiresAt, ':now': this.nowSeconds() },
          }),
        );
        return 1;
      } catch (error) {
        // Another writer restarted it first; add to theirs.
        if (!isConditionFailure(error)) throw error;
      }
    }
    throw new JobConflictError(`Counter ${counter} kept changing under concurrent writers; retry`);
  }
}

/** The jobs repository on HALE_JOBS_TABLE with the shared DynamoDB client. */
export function jobsRepository(): JobsRepository {
  return new DynamoDbJobsRepository(dynamoDocumentClient(), setting('HALE_JOBS_TABLE'));
}
