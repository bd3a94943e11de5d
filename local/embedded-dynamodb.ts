import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
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

function client(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/**
 * Creates the jobs table exactly as resources.ts describes it, once. Time to live is not switched
 * on: dynalite has no UpdateTimeToLive, and readers filter expired items anyway.
 */
async function ensureJobsTable(dynamo: DynamoDBClient): Promise<void> {
  const { TableNames = [] } = await dynamo.send(new ListTablesCommand({}));
  if (TableNames.includes(JOBS_TABLE.localName)) return;
  await dynamo.send(
    new CreateTableCommand({
      TableName: JOBS_TABLE.localName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: JOBS_TABLE.partitionKey, AttributeType: 'S' },
        { AttributeName: JOBS_TABLE.sortKey, AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: JOBS_TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: JOBS_TABLE.sortKey, KeyType: 'RANGE' },
      ],
    }),
  );
}

async function start(storePath: string | undefined): Promise<{ server: Server; endpoint: string }> {
  const server = dynalite({ path: storePath, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const endpoint = await listen(server);
  const dynamo = client(endpoint);
  try {
    await ensureJobsTable(dynamo);
    return { server, endpoint };
  } catch (error) {
    await close(server).catch(() => undefined);
    throw error;
  } finally {
    dynamo.destroy();
  }
}

function isLockHeld(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
  return /LOCK|lock/.test(text) && /held|unavailable|Resource temporarily/.test(text);
}

/**
 * dynalite on loopback with its LevelDB store under `<dataDir>/dynamodb`, so jobs survive a
 * restart. If LevelDB cannot work here (e.g. no native build of classic-level) the table lives in
 * memory instead and `persistenceProblem` says why; a store held by another running Hale is an
 * error, never a silent switch to memory.
 */
export async function startEmbeddedDynamoDb(dataDir: string): Promise<EmbeddedDynamoDb> {
  let started: { server: Server; endpoint: string };
  let persistenceProblem: string | undefined;
  try {
    started = await start(path.join(dataDir, 'dynamodb'));
  } catch (error) {
    if (isLockHeld(error)) {
      throw new Error(`${dataDir} is in use by another Hale runtime (its DynamoDB store is locked)`, { cause: error });
    }
    persistenceProblem = error instanceof Error ? error.message : String(error);
    started = await start(undefined);
  }
  const { server, endpoint } = started;
  return { endpoint, persistent: persistenceProblem === undefined, persistenceProblem, close: () => close(server) };
}
