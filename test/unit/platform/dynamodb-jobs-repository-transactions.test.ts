import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbJobsRepository } from '../../../functions/platform/dynamodb-jobs-repository';
import { JobConflictError, type JobRecord } from '../../../functions/platform/ports';

// dynalite has no transactions, so the integration tests exercise the claim-first path; these cover
// how the adapter reads DynamoDB's transaction cancellation reasons.

const now = new Date('2026-11-22T10:00:00Z');
const job: JobRecord = {
  kind: 'report',
  jobId: 'new-job',
  tenant: 'tenant-a',
  status: 'accepted',
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
  expiresAt: now.getTime() / 1000 + 86_400,
};
const existing: JobRecord = { ...job, jobId: 'first-job' };

function cancelled(...codes: string[]) {
  return new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
}

/** A client that fails the first transactions with `failures`, then succeeds, and serves `items` to GetItem. */
function client(failures: Error[], items: Record<string, Record<string, unknown>> = {}) {
  const transactions: TransactWriteCommand[] = [];
  const send = async (command: unknown) => {
    if (command instanceof TransactWriteCommand) {
      transactions.push(command);
      const failure = failures.shift();
      if (failure) throw failure;
      return {};
    }
    if (command instanceof GetCommand) {
      const pk = String(command.input.Key?.pk);
      const match = Object.entries(items).find(([prefix]) => pk.startsWith(prefix));
      return { Item: match?.[1] };
    }
    throw new Error(`unexpected command ${String(command)}`);
  };
  // The repository only calls `send`; the SDK's overloaded signature cannot be met by a plain function.
  return { repo: new DynamoDbJobsRepository({ send } as never, 'jobs', () => now), transactions };
}

describe('DynamoDbJobsRepository.createWithIdempotencyKey with transactions', () => {
  it('writes the job and a claim keyed by a hash of the key in one transaction', async () => {
    const { repo, transactions } = client([]);
    expect(await repo.createWithIdempotencyKey(job, 'client-key-123')).toEqual({ job, created: true });
    const [jobPut, claimPut] = transactions[0]!.input.TransactItems!.map((item) => item.Put!);
    expect(jobPut).toMatchObject({ Item: { pk: 'job#report#new-job', sk: 'job', status: 'accepted' }, ConditionExpression: 'attribute_not_exists(pk)' });
    expect(claimPut?.Item?.pk).toMatch(/^idempotency#report#tenant-a#[0-9a-f]{64}$/);
    expect(JSON.stringify(claimPut)).not.toContain('client-key-123');
    expect(claimPut?.Item).toMatchObject({ jobId: 'new-job', expiresAt: job.expiresAt });
  });

  it('returns the job that holds the key when the claim condition fails', async () => {
    const { repo } = client([cancelled('None', 'ConditionalCheckFailed')], {
      'idempotency#': { jobId: 'first-job' },
      'job#report#first-job': { pk: 'job#report#first-job', sk: 'job', ...existing },
    });
    expect(await repo.createWithIdempotencyKey(job, 'client-key-123')).toEqual({ job: existing, created: false });
  });

  it('reports a job id that already exists as a conflict', async () => {
    const { repo } = client([cancelled('ConditionalCheckFailed', 'None')]);
    await expect(repo.createWithIdempotencyKey(job, 'k')).rejects.toThrow(new JobConflictError('Job report new-job already exists'));
  });

  it('retries a transaction conflict and gives up after three', async () => {
    const retried = client([cancelled('TransactionConflict', 'None')]);
    expect((await retried.repo.createWithIdempotencyKey(job, 'k')).created).toBe(true);
    expect(retried.transactions).toHaveLength(2);

    const busy = client([1, 2, 3].map(() => cancelled('None', 'TransactionConflict')));
    await expect(busy.repo.createWithIdempotencyKey(job, 'k')).rejects.toBeInstanceOf(JobConflictError);
    expect(busy.transactions).toHaveLength(3);
  });
});
