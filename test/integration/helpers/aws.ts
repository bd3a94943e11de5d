/**
 * AWS SDK clients pointed at a running local runtime, for tests that read back what handlers and
 * workers wrote, put objects as a caller would, or drive Step Functions directly:
 *
 *   const aws = awsClientsFor(hale);          // hale from startTestRuntime()
 *   afterAll(() => aws.destroy());
 *   await aws.documents.send(new GetCommand({ TableName: hale.jobsTable, Key: { pk, sk } }));
 *   const { executionArn } = await aws.stepFunctions.send(new StartExecutionCommand({ … }));
 *   const done = await waitForExecution(aws, executionArn);   // SUCCEEDED / FAILED / …
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { DescribeExecutionCommand, type DescribeExecutionCommandOutput, SFNClient } from '@aws-sdk/client-sfn';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { executionArnOf } from '../../../functions/platform/sfn-workflow-starter';
import type { LocalRuntime } from '../../../local/runtime';

export interface AwsClients {
  documents: DynamoDBDocumentClient;
  s3: S3Client;
  stepFunctions: SFNClient;
  destroy(): void;
}

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const region = 'us-east-1';

export function awsClientsFor(runtime: Pick<LocalRuntime, 'endpoints'>): AwsClients {
  const dynamo = new DynamoDBClient({ endpoint: runtime.endpoints.dynamodb, region, credentials });
  const documents = DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } });
  const s3 = new S3Client({ endpoint: runtime.endpoints.s3, region, credentials, forcePathStyle: true });
  const stepFunctions = new SFNClient({ endpoint: runtime.endpoints.stepFunctions, region, credentials });
  return {
    documents,
    s3,
    stepFunctions,
    destroy: () => {
      documents.destroy();
      s3.destroy();
      stepFunctions.destroy();
    },
  };
}

/**
 * How long the helpers let something asynchronous take before they call it a failure. A deadline,
 * not a pause: they return as soon as the condition holds, so only a broken run waits this long.
 * Generous because the development machines and CI are shared 2-core boxes, where a pipeline that
 * takes a second alone can take twenty; jest's per-test limit (60 s) stays the outer bound.
 */
export const PATIENCE_MS = 40_000;

/** Polls DescribeExecution until the execution stops; fails after `timeoutMs`. */
export async function waitForExecution(aws: AwsClients, executionArn: string, timeoutMs = PATIENCE_MS): Promise<DescribeExecutionCommandOutput> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const described = await aws.stepFunctions.send(new DescribeExecutionCommand({ executionArn }));
    if (described.status !== 'RUNNING') return described;
    if (Date.now() > deadline) throw new Error(`Execution still running after ${timeoutMs} ms: ${executionArn}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * How a job's execution ended, as the alarms on AWS would see it: its status (FAILED feeds the
 * failed-executions alarm) and every state that failed on the way (a task that failed is a Lambda
 * error, which feeds the function's Errors alarm). Waits for the execution to end.
 */
export async function executionEnd(
  runtime: Pick<LocalRuntime, 'stepFunctions' | 'stateMachineArn'>,
  machine: string,
  jobId: string,
): Promise<{ status: string; failedStates: string[] }> {
  const record = runtime.stepFunctions.describe(executionArnOf(runtime.stateMachineArn(machine), jobId));
  await record.finished;
  return { status: record.status, failedStates: record.history.filter((entry) => entry.type === 'StateFailed').map((entry) => `${entry.state}: ${entry.error}`) };
}

/** Polls `probe` until it returns a value other than undefined; fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = PATIENCE_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
