import { randomUUID } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { StartExecutionCommand } from '@aws-sdk/client-sfn';
import { FIXTURE_MAP_STATE_MACHINE, FIXTURE_MAP_WORKER } from '../fixtures/workers/fixture-workers';
import { type AwsClients, awsClientsFor, waitForExecution } from './helpers/aws';
import { startTestRuntime, type TestRuntime } from './helpers/runtime';

/**
 * The local runner's Distributed Map (local/distributed-map.ts) on the fixture state machine
 * test/fixtures/statemachines/distributed-map.asl.json: what a caller of Step Functions would see —
 * child inputs, the ResultWriter's files in S3, the Map state's output and errors.
 */

const LOCAL_CONCURRENCY = 3;
let hale: TestRuntime;
let aws: AwsClients;
beforeAll(async () => {
  hale = await startTestRuntime({ extraStateMachines: [FIXTURE_MAP_STATE_MACHINE], extraWorkers: [FIXTURE_MAP_WORKER], mapConcurrency: LOCAL_CONCURRENCY });
  aws = awsClientsFor(hale);
});
afterAll(async () => {
  aws?.destroy();
  await hale?.stop();
});

interface ChildEntry {
  Input: string;
  Output?: string;
  Status: string;
  Error?: string;
  Cause?: string;
  ExecutionArn: string;
  StateMachineArn: string;
}
interface Manifest {
  DestinationBucket: string;
  MapRunArn: string;
  ResultFiles: Record<'SUCCEEDED' | 'FAILED' | 'PENDING', { Key: string; Size: number }[]>;
}
interface BatchOutput {
  indices: number[];
  batchInput: { run: string; execution: string } | null;
  peakConcurrency: number;
}

async function put(key: string, body: string): Promise<void> {
  await aws.s3.send(new PutObjectCommand({ Bucket: hale.buckets.artifacts, Key: key, Body: body }));
}

async function getJson<T>(key: string): Promise<T> {
  const out = await aws.s3.send(new GetObjectCommand({ Bucket: hale.buckets.artifacts, Key: key }));
  return JSON.parse(await out.Body!.transformToString()) as T;
}

async function run(input: Record<string, unknown>) {
  const { executionArn } = await aws.stepFunctions.send(
    new StartExecutionCommand({ stateMachineArn: hale.stateMachineArn(FIXTURE_MAP_STATE_MACHINE.name), input: JSON.stringify({ bucket: hale.buckets.artifacts, ...input }) }),
  );
  return waitForExecution(aws, executionArn!, 30_000);
}

/** Input of the JSONL map with everything the fixture reads from it; tests override what they vary. */
function jsonlRun(key: string, overrides: Record<string, unknown> = {}) {
  return { inputType: 'JSONL', withoutWriter: false, key, run: randomUUID(), resultsPrefix: 'runs', maxItems: 0, maxItemsPerBatch: 4, maxBytesPerBatch: 262144, maxConcurrency: 0, toleratedPercentage: 0, ...overrides };
}

async function childEntries(manifest: Manifest, status: 'SUCCEEDED' | 'FAILED'): Promise<ChildEntry[]> {
  const files = manifest.ResultFiles[status];
  return (await Promise.all(files.map((file) => getJson<ChildEntry[]>(file.Key)))).flat();
}

const lines = (count: number, item: (i: number) => unknown = (i) => ({ n: i })) => Array.from({ length: count }, (_, i) => JSON.stringify(item(i))).join('\n');

describe('the local Distributed Map', () => {
  it('reads JSONL items, selects and batches them, and writes every child execution through the ResultWriter', async () => {
    await put('in/25.jsonl', `${lines(25)}\n`);
    const input = jsonlRun('in/25.jsonl');
    const done = await run(input);
    expect([done.status, done.error, done.cause]).toEqual(['SUCCEEDED', undefined, undefined]);
    const output = JSON.parse(done.output!) as { map: { MapRunArn: string; ResultWriterDetails: { Bucket: string; Key: string } } };
    expect(output.map.MapRunArn).toMatch(/^arn:aws:states:us-east-1:000000000000:mapRun:hale-fixture-distributed-map\/Jsonl:[0-9a-f-]{36}$/);
    const runId = output.map.MapRunArn.split(':').pop();
    expect(output.map.ResultWriterDetails).toEqual({ Bucket: hale.buckets.artifacts, Key: `runs/${runId}/manifest.json` });

    const manifest = await getJson<Manifest>(output.map.ResultWriterDetails.Key);
    expect(manifest).toEqual({
      DestinationBucket: hale.buckets.artifacts,
      MapRunArn: output.map.MapRunArn,
      ResultFiles: { FAILED: [], PENDING: [], SUCCEEDED: [{ Key: `runs/${runId}/SUCCEEDED_0.json`, Size: expect.any(Number) }] },
    });
    const children = await childEntries(manifest, 'SUCCEEDED');
    expect(children).toHaveLength(7);
    const inputs = children.map((child) => JSON.parse(child.Input) as { BatchInput: unknown; Items: { index: number; value: { n: number }; run: string }[] });
    const items = inputs.flatMap((batch) => batch.Items).sort((a, b) => a.index - b.index);
    // Every item exactly once, its index its position in the file, selected as the ItemSelector says.
    expect(items).toEqual(Array.from({ length: 25 }, (_, i) => ({ index: i, value: { n: i }, run: input.run })));
    for (const batch of inputs) {
      expect(batch.Items.length).toBeLessThanOrEqual(4);
      expect(batch.BatchInput).toEqual({ run: input.run, execution: done.name });
    }
    for (const child of children) {
      expect(child.Status).toBe('SUCCEEDED');
      expect(child.StateMachineArn).toBe('arn:aws:states:us-east-1:000000000000:stateMachine:hale-fixture-distributed-map/Jsonl');
      expect((JSON.parse(child.Output!) as BatchOutput).indices).toEqual((JSON.parse(child.Input) as { Items: { index: number }[] }).Items.map((i) => i.index));
    }
  });

  it('keeps each batch under MaxInputBytesPerBatch and stops at MaxItems', async () => {
    await put('in/sized.jsonl', lines(60, (i) => ({ n: i, text: 'x'.repeat(100 + (i % 7) * 40) })));
    const done = await run(jsonlRun('in/sized.jsonl', { maxItemsPerBatch: 0, maxBytesPerBatch: 1000, maxItems: 50 }));
    expect(done.status).toBe('SUCCEEDED');
    const manifest = await getJson<Manifest>((JSON.parse(done.output!) as { map: { ResultWriterDetails: { Key: string } } }).map.ResultWriterDetails.Key);
    const children = await childEntries(manifest, 'SUCCEEDED');
    const inputs = children.map((child) => child.Input);
    for (const text of inputs) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1000);
    const indices = inputs.flatMap((text) => (JSON.parse(text) as { Items: { index: number }[] }).Items.map((i) => i.index)).sort((a, b) => a - b);
    expect(indices).toEqual(Array.from({ length: 50 }, (_, i) => i));
    // Batches are filled: each but the last of a run of consecutive items would not take the next item.
    expect(children.length).toBeLessThan(50);
  });

  it('never runs more children at once than MaxConcurrency or the local bound allows', async () => {
    await put('in/slow.jsonl', lines(24, (i) => ({ n: i, delayMs: 30 })));
    const limited = jsonlRun('in/slow.jsonl', { maxItemsPerBatch: 1, maxConcurrency: 2 });
    const unlimited = jsonlRun('in/slow.jsonl', { maxItemsPerBatch: 1, maxConcurrency: 0 });
    for (const [input, bound] of [
      [limited, 2],
      [unlimited, LOCAL_CONCURRENCY],
    ] as const) {
      const done = await run(input);
      const manifest = await getJson<Manifest>((JSON.parse(done.output!) as { map: { ResultWriterDetails: { Key: string } } }).map.ResultWriterDetails.Key);
      const peaks = (await childEntries(manifest, 'SUCCEEDED')).map((child) => (JSON.parse(child.Output!) as BatchOutput).peakConcurrency);
      expect(Math.max(...peaks)).toBe(bound);
    }
  });

  it('tolerates failed items up to ToleratedFailurePercentage and fails the Map Run beyond it, results written either way', async () => {
    // 40 items in batches of 4; the batch holding item 5 fails: 4 of 40 items = 10 %.
    await put('in/one-bad-batch.jsonl', lines(40, (i) => ({ n: i, fail: i === 5 })));
    const tolerated = await run(jsonlRun('in/one-bad-batch.jsonl', { toleratedPercentage: 10 }));
    expect(tolerated.status).toBe('SUCCEEDED');
    const manifest = await getJson<Manifest>((JSON.parse(tolerated.output!) as { map: { ResultWriterDetails: { Key: string } } }).map.ResultWriterDetails.Key);
    const [failed] = await childEntries(manifest, 'FAILED');
    expect(failed).toEqual(expect.objectContaining({ Status: 'FAILED', Error: 'BatchFailed' }));
    expect(JSON.parse(failed!.Cause!)).toEqual(expect.objectContaining({ errorType: 'BatchFailed', errorMessage: 'batch starting at item 4 asked to fail' }));
    expect(await childEntries(manifest, 'SUCCEEDED')).toHaveLength(9);

    const exceeded = await run(jsonlRun('in/one-bad-batch.jsonl', { toleratedPercentage: 9 }));
    expect(exceeded.status).toBe('FAILED');
    expect(exceeded.error).toBe('States.ExceedToleratedFailureThreshold');
    const strict = await run(jsonlRun('in/one-bad-batch.jsonl'));
    expect(strict.error).toBe('States.ExceedToleratedFailureThreshold');
  });

  it('fails the Map Run with States.ItemReaderFailed for a line that is not JSON or an object that does not exist', async () => {
    await put('in/broken.jsonl', `${lines(3)}\n{"n": 3,\n${lines(2)}`);
    const broken = await run(jsonlRun('in/broken.jsonl'));
    expect(broken.status).toBe('FAILED');
    expect(broken.error).toBe('States.ItemReaderFailed');
    expect(broken.cause).toMatch(/Line 4/);
    const missing = await run(jsonlRun('in/none.jsonl'));
    expect(missing.error).toBe('States.ItemReaderFailed');
  });

  it('reads CSV rows as objects of strings keyed by the header, and a Catch handles a reader failure', async () => {
    await put('in/rows.csv', 'id,name,note\r\n1,"Doe, Jane","said ""hi""\nthen left"\r\n2,Roe\r\n\r\n3,Poe,x,extra\r\n');
    const done = await run({ inputType: 'CSV', withoutWriter: false, key: 'in/rows.csv' });
    expect(done.status).toBe('SUCCEEDED');
    const manifest = await getJson<Manifest>((JSON.parse(done.output!) as { map: { ResultWriterDetails: { Key: string } } }).map.ResultWriterDetails.Key);
    const items = (await childEntries(manifest, 'SUCCEEDED')).flatMap((child) => (JSON.parse(child.Input) as { Items: { index: number; value: unknown }[] }).Items);
    expect(items.sort((a, b) => a.index - b.index)).toEqual([
      { index: 0, value: { id: '1', name: 'Doe, Jane', note: 'said "hi"\nthen left' } },
      { index: 1, value: { id: '2', name: 'Roe', note: '' } },
      { index: 2, value: { id: '3', name: 'Poe', note: 'x' } },
    ]);
    await put('in/duplicate-header.csv', 'id,id\n1,2\n');
    const duplicate = await run({ inputType: 'CSV', withoutWriter: false, key: 'in/duplicate-header.csv' });
    expect(duplicate.status).toBe('SUCCEEDED');
    expect(JSON.parse(duplicate.output!).readerFailure).toEqual({ Error: 'States.ItemReaderFailed', Cause: 'CSV headers cannot contain duplicates.' });
  });

  it('without a ResultWriter returns the child outputs in batch order', async () => {
    await put('in/small.jsonl', lines(7));
    const done = await run({ inputType: 'JSONL', withoutWriter: true, key: 'in/small.jsonl' });
    expect(done.status).toBe('SUCCEEDED');
    const { batches } = JSON.parse(done.output!) as { batches: BatchOutput[] };
    expect(batches.map((b) => b.indices)).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
  });
});
