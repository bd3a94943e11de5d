import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import dynalite from 'dynalite';
import { JOBS_TABLE } from '../functions/platform/resources';

export interface EmbeddedDynamoDb {
  endpoint: string;
  /** False when the LevelDB store could not be opened and data lives in memory only. */
  persistent: boolean;
  /** Why persistence was given up, when it was. */
  persistenceProblem?: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  // dynalite's close also closes its LevelDB store, flushing it to disk.
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

/**
 * One DynamoDB JSON-protocol call. The SDK client would do, but importing it costs a few hundred
 * ms of `npm start`; dynalite checks that a SigV4-shaped Authorization header is present, never
 * the signature itself.
 */
async function dynamoCall(endpoint: string, operation: string, request: Record<string, unknown>): Promise<Record<string, unknown>> {
  const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDB_20120810.${operation}`,
      'x-amz-date': amzDate,
      authorization: `AWS4-HMAC-SHA256 Credential=local/${amzDate.slice(0, 8)}/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=local`,
    },
    body: JSON.stringify(request),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`DynamoDB ${operation} failed: ${String(body.__type)} ${String(body.message ?? '')}`);
  return body;
}

const OPEN_JOBS = JOBS_TABLE.openJobsIndex;

const CREATE_JOBS_TABLE = {
  TableName: JOBS_TABLE.localName,
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [
    { AttributeName: JOBS_TABLE.partitionKey, AttributeType: 'S' },
    { AttributeName: JOBS_TABLE.sortKey, AttributeType: 'S' },
    { AttributeName: OPEN_JOBS.partitionKey, AttributeType: 'S' },
    { AttributeName: OPEN_JOBS.sortKey, AttributeType: 'S' },
  ],
  KeySchema: [
    { AttributeName: JOBS_TABLE.partitionKey, KeyType: 'HASH' },
    { AttributeName: JOBS_TABLE.sortKey, KeyType: 'RANGE' },
  ],
  GlobalSecondaryIndexes: [
    {
      IndexName: OPEN_JOBS.name,
      KeySchema: [
        { AttributeName: OPEN_JOBS.partitionKey, KeyType: 'HASH' },
        { AttributeName: OPEN_JOBS.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...OPEN_JOBS.projectedAttributes] },
    },
  ],
};

/** Every item of the jobs table, page by page. */
async function scanAll(endpoint: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: unknown;
  do {
    const page = (await dynamoCall(endpoint, 'Scan', { TableName: JOBS_TABLE.localName, ExclusiveStartKey: startKey })) as {
      Items?: Record<string, unknown>[];
      LastEvaluatedKey?: unknown;
    };
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Table status: dynalite creates and deletes on a timer, even a 0 ms one; undefined once deleted. */
async function tableStatus(endpoint: string): Promise<string | undefined> {
  try {
    const { Table } = (await dynamoCall(endpoint, 'DescribeTable', { TableName: JOBS_TABLE.localName })) as { Table: { TableStatus: string } };
    return Table.TableStatus;
  } catch (error) {
    if (error instanceof Error && error.message.includes('ResourceNotFoundException')) return undefined;
    throw error;
  }
}

async function untilTable(endpoint: string, status: 'ACTIVE' | undefined): Promise<void> {
  for (let attempt = 0; (await tableStatus(endpoint)) !== status; attempt++) {
    if (attempt > 500) throw new Error(`The jobs table did not become ${status ?? 'deleted'}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Creates the jobs table exactly as resources.ts describes it, once, and returns only when it is
 * ACTIVE: as in AWS, a table answers reads and writes with ResourceNotFoundException while it is
 * CREATING, and dynalite flips the status on a timer (a LevelDB write) after CreateTable has
 * answered, which a busy machine can delay past the first request. Time to live is not switched
 * on: dynalite has no UpdateTimeToLive, and readers filter expired items anyway. A table from an
 * older data folder that lacks the open-jobs index is rebuilt with its items, since dynalite cannot
 * add an index to a table that has one missing.
 */
async function ensureJobsTable(endpoint: string): Promise<void> {
  const { TableNames = [] } = (await dynamoCall(endpoint, 'ListTables', {})) as { TableNames?: string[] };
  let items: Record<string, unknown>[] = [];
  if (TableNames.includes(JOBS_TABLE.localName)) {
    const { Table } = (await dynamoCall(endpoint, 'DescribeTable', { TableName: JOBS_TABLE.localName })) as {
      Table: { GlobalSecondaryIndexes?: { IndexName: string }[] };
    };
    if (Table.GlobalSecondaryIndexes?.some((index) => index.IndexName === OPEN_JOBS.name)) return;
    items = await scanAll(endpoint);
    await untilTable(endpoint, 'ACTIVE');
    await dynamoCall(endpoint, 'DeleteTable', { TableName: JOBS_TABLE.localName });
    await untilTable(endpoint, undefined);
  }
  await dynamoCall(endpoint, 'CreateTable', CREATE_JOBS_TABLE);
  await untilTable(endpoint, 'ACTIVE');
  for (const item of items) await dynamoCall(endpoint, 'PutItem', { TableName: JOBS_TABLE.localName, Item: item });
}

export interface EmbeddedDynamoDbOptions {
  /** How long dynalite keeps a new table CREATING; 0 (the default) flips it on the next timer tick. */
  createTableMs?: number;
}

async function start(storePath: string | undefined, options: EmbeddedDynamoDbOptions): Promise<{ server: Server; endpoint: string }> {
  const server = dynalite({ path: storePath, createTableMs: options.createTableMs ?? 0, deleteTableMs: 0, updateTableMs: 0 });
  const endpoint = await listen(server);
  try {
    await ensureJobsTable(endpoint);
    return { server, endpoint };
  } catch (error) {
    await close(server).catch(() => undefined);
    throw error;
  }
}

/**
 * dynalite on loopback with its LevelDB store under `<dataDir>/dynamodb`, so jobs survive a
 * restart (lockDataDir keeps a second runtime away from it). If the LevelDB store cannot be opened
 * the table lives in memory instead and `persistenceProblem` says why.
 */
export async function startEmbeddedDynamoDb(dataDir: string, options: EmbeddedDynamoDbOptions = {}): Promise<EmbeddedDynamoDb> {
  let started: { server: Server; endpoint: string };
  let persistenceProblem: string | undefined;
  try {
    started = await start(path.join(dataDir, 'dynamodb'), options);
  } catch (error) {
    persistenceProblem = error instanceof Error ? error.message : String(error);
    started = await start(undefined, options);
  }
  const { server, endpoint } = started;
  return { endpoint, persistent: persistenceProblem === undefined, persistenceProblem, close: () => close(server) };
}
