import path from 'node:path';
import { Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type Capability, ROUTE_DEFAULTS, type RouteDefinition } from '../functions/routes';
import type { WorkerDefinition } from '../functions/worker-definition';
import { WORKER_DEFAULTS } from '../functions/workers';
import { copyBundleFiles, LAMBDA_BUNDLING, REPO_ROOT } from './bundling';
import { type AccessTargets, statementsFor } from './function-access';
import { OCR_EXTERNAL_MODULES, ocrAssetCommands } from './ocr-bundle';
import { acknowledge } from './nag';

/** Operational logs (no PHI by rule): long enough to investigate a report about last quarter's jobs. */
const LOG_RETENTION = logs.RetentionDays.THREE_MONTHS;

export interface HaleFunctionsProps {
  routes: readonly RouteDefinition[];
  workers: readonly WorkerDefinition[];
  key: kms.IKey;
  access: AccessTargets;
  /** Settings every function receives. */
  environment: Record<string, string>;
  /** Settings that depend on the function's capabilities (secrets). */
  environmentFor: (capabilities: readonly Capability[]) => Record<string, string>;
  /** Where asynchronously invoked workers (S3 and schedule triggers) put events they failed on. */
  deadLetterQueue: sqs.IQueue;
}

export interface HaleFunction {
  fn: NodejsFunction;
  timeoutSeconds: number;
}

/**
 * One NodejsFunction per route and per worker, built from ROUTES and WORKERS: Node.js 22 on arm64,
 * explicit memory and timeout, X-Ray, its own encrypted log group and its own role holding only the
 * statements its capabilities call for.
 */
export class HaleFunctions extends Construct {
  readonly routes = new Map<string, HaleFunction>();
  readonly workers = new Map<string, HaleFunction>();

  constructor(scope: Construct, id: string, props: HaleFunctionsProps) {
    super(scope, id);
    for (const route of props.routes) {
      this.routes.set(route.id, this.build(route, ROUTE_DEFAULTS, props));
    }
    for (const worker of props.workers) {
      this.workers.set(worker.id, this.build(worker, WORKER_DEFAULTS, props, worker.trigger !== undefined));
    }
    acknowledge(this, [
      ['AwsSolutions-L1', 'Node.js 22 is the runtime DESIGN fixes for Hale (the code must also run on a Node 20 development machine); moving to 24 is a deliberate upgrade, not a default.'],
      ['AwsSolutions-IAM5[Resource::*]', 'Only X-Ray (PutTraceSegments, PutTelemetryRecords), Comprehend Medical DetectPHI and Textract AnalyzeDocument are granted on *: none of these actions supports resource-level permissions.'],
      ['HIPAA.Security-LambdaInsideVPC', 'The functions reach only AWS APIs (DynamoDB, S3, Step Functions, Comprehend Medical) over TLS with IAM, and outbound webhooks go to the internet through an SSRF guard; a VPC would add NAT gateways and endpoints without protecting any private resource.'],
      ['HIPAA.Security-LambdaConcurrency', 'Reserved concurrency per function would carve up the account pool (new accounts start at 10) and fail deploys; throttling is done at the API stage and usage plans, and the Throttles alarm watches every function.'],
    ]);
  }

  /** Every function with its construct id, routes first. */
  all(): [string, HaleFunction][] {
    return [...this.routes, ...this.workers];
  }

  private build(
    definition: RouteDefinition | WorkerDefinition,
    defaults: { memoryMb: number; timeoutSeconds: number },
    props: HaleFunctionsProps,
    invokedAsynchronously = false,
  ): HaleFunction {
    const capabilities = definition.permissions ?? [];
    const timeoutSeconds = definition.timeoutSeconds ?? defaults.timeoutSeconds;
    const logGroup = new logs.LogGroup(this, `${definition.id}Logs`, { retention: LOG_RETENTION, encryptionKey: props.key });
    const role = new iam.Role(this, `${definition.id}Role`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Hale ${definition.id}: ${capabilities.length > 0 ? capabilities.join(', ') : 'no data access'}`,
    });
    // A customer-managed policy holding every statement the function needs; CDK may not add inline
    // statements behind our back (the role is handed over read-only), so the policy is the whole truth.
    const policy = new iam.ManagedPolicy(this, `${definition.id}Policy`, {
      roles: [role],
      statements: [
        // Instead of AWSLambdaBasicExecutionRole, which may write to any log group.
        new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroup.logGroupArn] }),
        // Lambda decrypts the environment (encrypted with the stack key) on the role's behalf at start.
        new iam.PolicyStatement({
          actions: ['kms:Decrypt'],
          resources: [props.key.keyArn],
          conditions: { StringEquals: { 'kms:ViaService': `lambda.${Stack.of(this).region}.amazonaws.com` } },
        }),
        // X-Ray accepts no resource-level permissions.
        new iam.PolicyStatement({ actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], resources: ['*'] }),
        ...(invokedAsynchronously
          ? [
              new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [props.deadLetterQueue.queueArn] }),
              // The queue is encrypted with the stack key; only through SQS.
              new iam.PolicyStatement({
                actions: ['kms:GenerateDataKey', 'kms:Decrypt'],
                resources: [props.key.keyArn],
                conditions: { StringEquals: { 'kms:ViaService': `sqs.${Stack.of(this).region}.amazonaws.com` } },
              }),
            ]
          : []),
        ...statementsFor(capabilities, props.access),
      ],
    });

    const fn = new NodejsFunction(this, definition.id, {
      entry: path.join(REPO_ROOT, definition.handler),
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: definition.memoryMb ?? defaults.memoryMb,
      timeout: Duration.seconds(timeoutSeconds),
      tracing: lambda.Tracing.ACTIVE,
      logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      role: role.withoutPolicyUpdates(),
      environment: { ...props.environment, ...props.environmentFor(capabilities) },
      environmentEncryption: props.key,
      bundling: ocrAssetsOf(definition)
        ? {
            ...LAMBDA_BUNDLING,
            externalModules: [...(LAMBDA_BUNDLING.externalModules ?? []), ...OCR_EXTERNAL_MODULES],
            commandHooks: { beforeBundling: () => [], beforeInstall: () => [], afterBundling: ocrAssetCommands },
          }
        : definition.bundleFiles?.length
        ? {
            ...LAMBDA_BUNDLING,
            commandHooks: {
              beforeBundling: () => [],
              beforeInstall: () => [],
              afterBundling: (inputDir, outputDir) => copyBundleFiles(definition.bundleFiles ?? [], inputDir, outputDir),
            },
          }
        : LAMBDA_BUNDLING,
      ...(invokedAsynchronously ? { deadLetterQueue: props.deadLetterQueue } : {}),
    });
    // The role's permissions live in a separate policy, which CloudFormation may attach after the
    // function exists: the function, and everything that invokes it, waits for the policy.
    fn.node.addDependency(policy);
    if (!invokedAsynchronously) {
      acknowledge(fn, [
        ['HIPAA.Security-LambdaDLQ', 'Invoked synchronously (API Gateway or a Step Functions task): the caller receives the error and retries or catches it, so a dead-letter queue would never receive anything.'],
      ]);
    }
    return { fn, timeoutSeconds };
  }
}

function ocrAssetsOf(definition: RouteDefinition | WorkerDefinition): boolean {
  return 'ocrAssets' in definition && definition.ocrAssets === true;
}
