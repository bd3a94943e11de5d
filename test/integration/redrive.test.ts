import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DescribeExecutionCommand, ExecutionAlreadyExists, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ExecutionJournal, type JournalEntry } from '../../local/execution-journal';
import { FIXTURE_STATE_MACHINE, FIXTURE_WORKERS, fixtureKey } from '../fixtures/workers/fixture-workers';
import { type AwsClients, awsClientsFor, eventually, waitForExecution } from './helpers/aws';
import { startTestRuntime, type TestRuntime } from './helpers/runtime';

/**
 * What the local Step Functions service finds on disk when it starts: executions a crash left RUNNING
 * are redriven from the top-level state they were in, with that state's input; closed ones keep
 * their outcome and their name. (A real kill of the whole runtime: crash-recovery.test.ts.)
 */

let dataDir: string;
let hale: TestRuntime;
let aws: AwsClients;
const machineArn = () => hale.stateMachineArn(FIXTURE_STATE_MACHINE.name);
const executionArn = (name: string) => `${machineArn().replace(':stateMachine:', ':execution:')}:${name}`;
const entryFile = (name: string) => path.join(dataDir, 'executions', `${FIXTURE_STATE_MACHINE.name}.${name}.json`);

const interrupted = { name: randomUUID(), jobId: randomUUID(), startDate: Date.parse('2026-11-20T08:00:00.000Z') };
const closed = { name: randomUUID(), jobId: randomUUID() };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'hale-redrive-'));
  const journal = new ExecutionJournal(dataDir);
  const base = { stateMachine: FIXTURE_STATE_MACHINE.name, redriveCount: 0 } as const;
  // Killed while in Strict, after Flaky had counted 7 attempts: a run from the start would record fewer.
  journal.write({
    ...base,
    executionArn: `arn:aws:states:us-east-1:000000000000:execution:hale-${FIXTURE_STATE_MACHINE.name}:${interrupted.name}`,
    name: interrupted.name,
    status: 'RUNNING',
    input: JSON.stringify({ jobId: interrupted.jobId }),
    startDate: interrupted.startDate,
    current: { state: 'Strict', input: { jobId: interrupted.jobId, flaky: { attempts: 7 } } },
  });
  journal.write({
    ...base,
    executionArn: `arn:aws:states:us-east-1:000000000000:execution:hale-${FIXTURE_STATE_MACHINE.name}:${closed.name}`,
    name: closed.name,
    status: 'SUCCEEDED',
    input: JSON.stringify({ jobId: closed.jobId }),
    startDate: Date.now() - 60_000,
    stopDate: Date.now() - 30_000,
    output: '{"done":true}',
  });
  hale = await startTestRuntime({ dataDir, extraStateMachines: [FIXTURE_STATE_MACHINE], extraWorkers: FIXTURE_WORKERS });
  aws = awsClientsFor(hale);
});

afterAll(async () => {
  aws?.destroy();
  await hale?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

it('redrives an interrupted execution from the state it was in, with that state input, its start time and RedriveCount 1', async () => {
  const described = await waitForExecution(aws, executionArn(interrupted.name), 20_000);
  expect(described).toMatchObject({ status: 'SUCCEEDED', redriveCount: 1, input: JSON.stringify({ jobId: interrupted.jobId }) });
  expect(described.startDate?.getTime()).toBe(interrupted.startDate);
  const outcome = await eventually(async () => (await aws.documents.send(new GetCommand({ TableName: hale.jobsTable, Key: fixtureKey(interrupted.jobId, 'outcome') }))).Item);
  expect(outcome).toMatchObject({ outcome: 'succeeded', attempts: 7 });
  // On disk it is closed now, with no state data left.
  const entry = await eventually(async () => {
    const read = JSON.parse(await readFile(entryFile(interrupted.name), 'utf8')) as JournalEntry;
    return read.status === 'SUCCEEDED' ? read : undefined;
  });
  expect(entry.current).toBeUndefined();
  expect(entry.redriveCount).toBe(1);
});

it('keeps a closed execution: described with its outcome, its name still taken', async () => {
  expect(await aws.stepFunctions.send(new DescribeExecutionCommand({ executionArn: executionArn(closed.name) }))).toMatchObject({
    status: 'SUCCEEDED',
    output: '{"done":true}',
  });
  await expect(
    aws.stepFunctions.send(new StartExecutionCommand({ stateMachineArn: machineArn(), name: closed.name, input: JSON.stringify({ jobId: closed.jobId }) })),
  ).rejects.toBeInstanceOf(ExecutionAlreadyExists);
});

it('journals a new execution at every top-level state and closes it at the end', async () => {
  const name = randomUUID();
  const jobId = randomUUID();
  await aws.stepFunctions.send(new StartExecutionCommand({ stateMachineArn: machineArn(), name, input: JSON.stringify({ jobId }) }));
  const first = JSON.parse(await readFile(entryFile(name), 'utf8')) as JournalEntry;
  expect(first).toMatchObject({ status: 'RUNNING', redriveCount: 0, current: { state: 'Flaky', input: { jobId } } });
  expect(await waitForExecution(aws, executionArn(name), 20_000)).toMatchObject({ status: 'SUCCEEDED', redriveCount: 0 });
  const last = await eventually(async () => {
    const read = JSON.parse(await readFile(entryFile(name), 'utf8')) as JournalEntry;
    return read.status === 'SUCCEEDED' ? read : undefined;
  });
  expect(last.current).toBeUndefined();
});
