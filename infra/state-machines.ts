import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Annotations, ArnFormat, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { StateMachineName, WorkerDefinition } from '../functions/worker-definition';
import type { StateMachineDefinition } from '../functions/workers';
import { REPO_ROOT } from './bundling';
import { stateMachineArn } from './function-access';
import { acknowledge } from './nag';

/** Deterministic so that functions can be told a machine's ARN without referencing the machine. */
export function stateMachineName(stackName: string, machine: StateMachineName): string {
  return `${stackName}-${machine}`;
}

/** The machines whose ASL file exists, with its absolute path; the others are skipped with a warning. */
export function presentStateMachines(
  definitions: readonly StateMachineDefinition[],
  aslFiles: Partial<Record<StateMachineName, string>> = {},
): { definition: StateMachineDefinition; file: string }[] {
  return definitions
    .map((definition) => ({ definition, file: aslFiles[definition.name] ?? path.join(REPO_ROOT, definition.aslFile) }))
    .filter(({ file }) => existsSync(file));
}

const PLACEHOLDER = /\$\{([A-Za-z0-9_]+)\}/g;

type Worker = { definition: WorkerDefinition; fn: lambda.IFunction };

/** The worker behind each `${Name}` placeholder of an ASL document; fails synth for a placeholder nobody declares. */
export function workersByPlaceholder(machine: StateMachineName, asl: string, workers: readonly Worker[]): Map<string, Worker> {
  const found = new Map<string, Worker>();
  for (const [, placeholder] of asl.matchAll(PLACEHOLDER)) {
    if (placeholder === undefined || found.has(placeholder)) continue;
    const worker = workers.find((w) => w.definition.aslPlaceholder === placeholder);
    if (!worker) {
      throw new Error(
        `State machine ${machine} uses \${${placeholder}} but no worker in WORKERS (functions/workers.ts) has aslPlaceholder '${placeholder}'`,
      );
    }
    found.set(placeholder, worker);
  }
  return found;
}

export interface StateMachinesProps {
  definitions: readonly StateMachineDefinition[];
  aslFiles?: Partial<Record<StateMachineName, string>>;
  workers: readonly Worker[];
  key: kms.IKey;
  /** Buckets a Distributed Map reads its items from and writes its Map Run results to (ARNs). */
  mapRunBuckets: { items: string; results: string };
}

interface AslStateLike {
  Type?: string;
  ItemReader?: unknown;
  ResultWriter?: unknown;
  ItemProcessor?: { ProcessorConfig?: { Mode?: string }; States?: Record<string, AslStateLike> };
  Iterator?: AslStateLike['ItemProcessor'];
  Branches?: { States?: Record<string, AslStateLike> }[];
}

/** Whether any state, at any depth, is a Map whose children run as distributed (child workflow) executions. */
export function hasDistributedMap(states: Record<string, AslStateLike> = {}): boolean {
  return Object.values(states).some((state) => {
    const processor = state.ItemProcessor ?? state.Iterator;
    if (state.Type === 'Map' && processor?.ProcessorConfig?.Mode === 'DISTRIBUTED') return true;
    return hasDistributedMap(processor?.States) || (state.Branches ?? []).some((branch) => hasDistributedMap(branch.States));
  });
}

/**
 * What a machine with Distributed Map states needs beyond invoking its tasks (Step Functions
 * developer guide, IAM policies for Distributed Map, ItemReader and ResultWriter): start its own child
 * executions and describe or stop them, read the items' object, write the Map Run's result files.
 */
function distributedMapStatements(stack: Stack, machineName: string, buckets: StateMachinesProps['mapRunBuckets'], key: kms.IKey): iam.PolicyStatement[] {
  const machineArn = stack.formatArn({ service: 'states', resource: 'stateMachine', resourceName: machineName, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
  const childExecutions = stack.formatArn({ service: 'states', resource: 'execution', resourceName: `${machineName}/*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
  return [
    new iam.PolicyStatement({ actions: ['states:StartExecution'], resources: [machineArn] }),
    new iam.PolicyStatement({ actions: ['states:DescribeExecution', 'states:StopExecution'], resources: [childExecutions] }),
    new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [`${buckets.items}/*`] }),
    new iam.PolicyStatement({ actions: ['s3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'], resources: [`${buckets.results}/*`] }),
    // The buckets are encrypted with the stack key: through S3 only.
    new iam.PolicyStatement({
      actions: ['kms:Decrypt', 'kms:GenerateDataKey'],
      resources: [key.keyArn],
      conditions: { StringEquals: { 'kms:ViaService': `s3.${stack.region}.amazonaws.com` } },
    }),
  ];
}

/**
 * Both pipelines, loaded from the same ASL files the local runner executes. Standard workflows (exactly
 * once, execution names idempotent per job). Logging level ERROR without execution data: state input
 * and output must never reach logs (PHI); the execution history keeps every event for 90 days.
 */
export class StateMachines extends Construct {
  readonly machines = new Map<StateMachineName, sfn.StateMachine>();

  constructor(scope: Construct, id: string, props: StateMachinesProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const present = presentStateMachines(props.definitions, props.aslFiles);
    for (const definition of props.definitions) {
      if (!present.some((p) => p.definition.name === definition.name)) {
        Annotations.of(this).addWarningV2(
          'hale:missing-asl',
          `${definition.aslFile} does not exist yet: state machine ${definition.name} is not created`,
        );
      }
    }
    for (const { definition, file } of present) {
      const asl = readFileSync(file, 'utf8');
      const parsed = JSON.parse(asl) as { TimeoutSeconds?: unknown; States?: Record<string, AslStateLike> };
      if (typeof parsed.TimeoutSeconds !== 'number') {
        // CDK applies `timeout` only to machines it builds itself; a string definition must carry its own.
        throw new Error(`${definition.aslFile} must set a top-level TimeoutSeconds (executions would otherwise run for up to a year)`);
      }
      const logGroup = new logs.LogGroup(this, `${definition.name}-logs`, {
        retention: logs.RetentionDays.THREE_MONTHS,
        encryptionKey: props.key,
      });
      const tasks = workersByPlaceholder(definition.name, asl, props.workers);
      const role = new iam.Role(this, `${definition.name}-role`, { assumedBy: new iam.ServicePrincipal('states.amazonaws.com') });
      const arn = stateMachineArn(stack, stateMachineName(stack.stackName, definition.name));
      // Everything the machine may do, in one customer-managed policy; CDK may not add inline statements.
      const policy = new iam.ManagedPolicy(this, `${definition.name}-policy`, {
        roles: [role],
        statements: [
          // Tasks name the unqualified function ARN, so no `:*` (version/alias) grant is needed.
          ...(tasks.size > 0
            ? [new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [...new Set([...tasks.values()].map((w) => w.fn.functionArn))] })]
            : []),
          // Execution history and state data are encrypted with the stack key: through Step
          // Functions, for this machine only (its encryption context names it).
          new iam.PolicyStatement({
            actions: ['kms:Decrypt', 'kms:GenerateDataKey'],
            resources: [props.key.keyArn],
            conditions: {
              StringEquals: { 'kms:ViaService': `states.${stack.region}.amazonaws.com`, 'kms:EncryptionContext:aws:states:stateMachineArn': arn },
            },
          }),
          // The ERROR-level log events go to a log group encrypted with the same key (vended log delivery).
          new iam.PolicyStatement({
            actions: ['kms:GenerateDataKey'],
            resources: [props.key.keyArn],
            conditions: { StringLike: { 'kms:EncryptionContext:SourceArn': stack.formatArn({ service: 'logs', resource: '*', arnFormat: ArnFormat.COLON_RESOURCE_NAME }) } },
          }),
          // Log delivery and X-Ray accept no resource-level permissions.
          new iam.PolicyStatement({
            actions: ['logs:CreateLogDelivery', 'logs:GetLogDelivery', 'logs:UpdateLogDelivery', 'logs:DeleteLogDelivery', 'logs:ListLogDeliveries', 'logs:PutResourcePolicy', 'logs:DescribeResourcePolicies', 'logs:DescribeLogGroups'],
            resources: ['*'],
          }),
          new iam.PolicyStatement({ actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords', 'xray:GetSamplingRules', 'xray:GetSamplingTargets'], resources: ['*'] }),
          ...(hasDistributedMap(parsed.States) ? distributedMapStatements(stack, stateMachineName(stack.stackName, definition.name), props.mapRunBuckets, props.key) : []),
        ],
      });
      if (hasDistributedMap(parsed.States)) {
        const name = stateMachineName(stack.stackName, definition.name);
        acknowledge(policy, [
          [
            `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:${name}/*]`,
            "A Distributed Map's child executions get generated names under the machine's own name; Describe/StopExecution are granted on exactly those.",
          ],
        ]);
      }
      const machine = new sfn.StateMachine(this, definition.name, {
        stateMachineName: stateMachineName(stack.stackName, definition.name),
        stateMachineType: sfn.StateMachineType.STANDARD,
        role: role.withoutPolicyUpdates(),
        definitionBody: sfn.DefinitionBody.fromString(asl),
        definitionSubstitutions: Object.fromEntries([...tasks].map(([placeholder, w]) => [placeholder, w.fn.functionArn])),
        logs: { destination: logGroup, level: sfn.LogLevel.ERROR, includeExecutionData: false },
        tracingEnabled: true,
        encryptionConfiguration: new sfn.CustomerManagedEncryptionConfiguration(props.key),
      });
      // Creating a machine with logging checks that its role may deliver logs ("not authorized to
      // access the Log Destination" otherwise): the policy must be attached first.
      machine.node.addDependency(policy);
      this.machines.set(definition.name, machine);
    }
    acknowledge(this, [
      ['AwsSolutions-IAM5[Resource::*]', 'CloudWatch Logs vended delivery and X-Ray accept no resource-level permissions; every other grant names its function or key.'],
      ['AwsSolutions-SF1', 'Logging ALL events would write every state transition to CloudWatch for no gain: the execution history already keeps each event for 90 days, and state data must never be logged (PHI). ERROR-level events without data are logged.'],
    ]);
  }
}
