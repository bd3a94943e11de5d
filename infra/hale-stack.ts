import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { ROUTES, type RouteDefinition } from '../functions/routes';
import type { StateMachineName, WorkerDefinition } from '../functions/worker-definition';
import { STATE_MACHINES, type StateMachineDefinition, WORKERS } from '../functions/workers';
import { Apis, longestTimeoutPerApi } from './apis';
import { CustomDomain } from './custom-domain';
import { EncryptionKey } from './encryption-key';
import { functionEnvironment, type OcrEngineChoice } from './environment';
import { stateMachineArn } from './function-access';
import { ROUTE_DEFAULTS } from '../functions/routes';
import { HaleFunctions } from './functions';
import { acknowledge } from './nag';
import { DEFAULT_LAMBDA_CONCURRENCY_LIMIT, Observability } from './observability';
import { Secrets } from './secrets';
import { type PhiDetectorChoice, requirePhiDetectorInRegion } from './phi-detector';
import { presentStateMachines, StateMachines, stateMachineName } from './state-machines';
import { Storage } from './storage';
import { Triggers } from './triggers';
import { WidgetHosting } from './widget-hosting';

export interface HaleStackProps extends StackProps {
  /** Defaults to ROUTES / WORKERS / STATE_MACHINES; tests inject fixtures. */
  routes?: readonly RouteDefinition[];
  workers?: readonly WorkerDefinition[];
  stateMachines?: readonly StateMachineDefinition[];
  /** Absolute ASL paths that replace a machine's `aslFile` (tests). */
  aslFiles?: Partial<Record<StateMachineName, string>>;
  /** Custom domain serving all three APIs (context `domainName` + `certificateArn`). */
  domain?: { domainName: string; certificateArn: string };
  alarmEmail?: string;
  bedrockModelId?: string;
  /** OCR engine of the Recognize function (context `ocrEngine`); Textract is granted only when chosen. */
  ocrEngine?: OcrEngineChoice;
  uploadCorsOrigins?: string[];
  /** Default `comprehend`, which needs a region with Comprehend Medical (infra/phi-detector.ts). */
  phiDetector?: PhiDetectorChoice;
  /** The account's Lambda concurrency quota in the region, for the concurrency alarm; default AWS's 1000. */
  lambdaConcurrencyLimit?: number;
}

/** Hale on AWS: storage, secrets, one function per route and worker, the pipelines, the APIs, alarms. */
export class HaleStack extends Stack {
  constructor(scope: Construct, id: string, props: HaleStackProps = {}) {
    super(scope, id, props);
    const routes = props.routes ?? ROUTES;
    const workers = props.workers ?? WORKERS;
    const machineDefinitions = props.stateMachines ?? STATE_MACHINES;
    const phiDetector = props.phiDetector ?? 'comprehend';
    const ocrEngine = props.ocrEngine ?? 'tesseract';
    requirePhiDetectorInRegion(this, phiDetector);

    const { key } = new EncryptionKey(this, 'Encryption');
    const storage = new Storage(this, 'Storage', { key, uploadCorsOrigins: props.uploadCorsOrigins ?? ['*'] });
    const secrets = new Secrets(this, 'Secrets', { key });
    const deadLetterQueue = new sqs.Queue(this, 'TriggerDeadLetters', {
      encryptionMasterKey: key,
      enforceSSL: true,
      // The longest SQS allows: time to fix the cause and re-drive the events.
      retentionPeriod: Duration.days(14),
    });
    acknowledge(deadLetterQueue, [['AwsSolutions-SQS3', 'This queue is itself the dead-letter queue of the triggered workers and of the schedule rule.']]);

    const present = presentStateMachines(machineDefinitions, props.aslFiles);
    const machineNames = Object.fromEntries(present.map(({ definition }) => [definition.name, stateMachineName(this.stackName, definition.name)]));
    const functions = new HaleFunctions(this, 'Functions', {
      routes,
      workers,
      key,
      deadLetterQueue,
      access: { table: storage.table, bucketArns: storage.bucketArns, key, stateMachineNames: machineNames, bedrockModelId: props.bedrockModelId, phiDetector, ocrEngine },
      environment: functionEnvironment({
        tableName: storage.table.tableName,
        uploadsBucketName: storage.uploadsBucketName,
        artifactsBucketName: storage.buckets.artifacts.bucketName,
        stateMachineArns: Object.fromEntries(present.map(({ definition }) => [definition.arnSetting, stateMachineArn(this, machineNames[definition.name]!)])),
        bedrockModelId: props.bedrockModelId,
        phiDetector,
        ocrEngine,
      }),
      environmentFor: (capabilities) => secrets.environmentFor(capabilities),
    });
    acknowledge(functions, storage.objectWildcardFindings().map((id) => [id, 'Object actions (Get/Put/DeleteObject) on the keys of a Hale bucket: job files have generated keys, so they cannot be listed in advance.'] as const));
    const workerFunctions = workers.map((definition) => ({ definition, fn: functions.workers.get(definition.id)!.fn }));

    const stateMachines = new StateMachines(this, 'StateMachines', {
      definitions: machineDefinitions,
      aslFiles: props.aslFiles,
      workers: workerFunctions,
      key,
      mapRunBuckets: { items: storage.bucketArns.uploads, results: storage.bucketArns.artifacts },
    });
    const { machines } = stateMachines;
    acknowledge(stateMachines, storage.objectWildcardFindings().map((id) => [id, 'A Distributed Map reads its items from, and writes its Map Run results to, generated keys of a Hale bucket.'] as const));
    new Triggers(this, 'Triggers', { workers: workerFunctions, uploadsBucket: storage.buckets.uploads, uploadsBucketName: storage.uploadsBucketName, deadLetterQueue });

    const { apis, standardPlan, referencePlan } = new Apis(this, 'Apis', { routes, key, functionFor: (id) => functions.routes.get(id)!.fn });
    new WidgetHosting(this, 'Widget', { api: apis.main, key, accessLogs: storage.accessLogs });
    for (const [group, api] of Object.entries(apis)) new CfnOutput(this, `${group}ApiUrl`, { value: api.url, description: `Hale ${group} API (execute-api URL)` });
    new CfnOutput(this, 'StandardUsagePlanId', { value: standardPlan.usagePlanId, description: 'Add every API key to this plan (main and extraction APIs)' });
    new CfnOutput(this, 'ReferenceUsagePlanId', { value: referencePlan.usagePlanId, description: 'And to this one (reference group: 50 rps, 1,000/day)' });
    new CfnOutput(this, 'WebhookApiKeySecretArn', { value: secrets.webhookApiKey.secretArn, description: 'X-API-Key value lab webhook receivers must check' });
    new CfnOutput(this, 'WebhookSigningSecretArn', { value: secrets.webhookSigning.secretArn, description: 'Standard Webhooks secret (prefix whsec_) receivers verify signatures with' });
    if (props.domain) {
      const { domain } = new CustomDomain(this, 'CustomDomain', { ...props.domain, apis, routes });
      new CfnOutput(this, 'DomainTarget', { value: domain.domainNameAliasDomainName, description: `CNAME/alias target for ${props.domain.domainName}` });
    }

    new Observability(this, 'Observability', {
      apis,
      table: storage.table,
      lambdaConcurrencyLimit: props.lambdaConcurrencyLimit ?? DEFAULT_LAMBDA_CONCURRENCY_LIMIT,
      apiTimeoutSeconds: longestTimeoutPerApi(routes, ROUTE_DEFAULTS.timeoutSeconds),
      functions: functions.all(),
      machines,
      deadLetterQueue,
      key,
      alarmEmail: props.alarmEmail,
    });
  }
}
