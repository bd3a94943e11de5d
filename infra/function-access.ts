import { ArnFormat, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { JOBS_TABLE } from '../functions/platform/resources';
import type { Capability } from '../functions/routes';
import type { StateMachineName } from '../functions/worker-definition';
import type { OcrEngineChoice } from './environment';
import type { PhiDetectorChoice } from './phi-detector';
import type { BucketName } from './storage';

export interface AccessTargets {
  table: dynamodb.ITable;
  /** Bucket ARNs; the uploads one is built from its fixed name so that no policy references the bucket (see Storage). */
  bucketArns: Record<BucketName, string>;
  key: kms.IKey;
  /** Names of the state machines that exist in this deployment. */
  stateMachineNames: Partial<Record<StateMachineName, string>>;
  bedrockModelId?: string;
  /** DetectPHI is granted only when the functions call Comprehend Medical. */
  phiDetector: PhiDetectorChoice;
  /** AnalyzeDocument is granted only when the Recognize function calls Textract. */
  ocrEngine: OcrEngineChoice;
}

/** Item operations of the jobs repository, by access level; no Scan, no table administration. */
const TABLE_ACTIONS = {
  read: ['dynamodb:GetItem', 'dynamodb:Query'],
  write: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
} as const;
const OBJECT_ACTIONS = { read: ['s3:GetObject'], write: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'] } as const;
/** Reading (Decrypt) and writing (GenerateDataKey) what the stack key encrypts. */
const KEY_ACTIONS = { read: ['kms:Decrypt'], write: ['kms:Decrypt', 'kms:GenerateDataKey'] } as const;

type Level = keyof typeof TABLE_ACTIONS;
type Store = 'jobs' | 'uploads' | 'artifacts';

/** The access a function has to a store: `jobs` reads and writes, `jobs:read` only reads. */
function levelOf(capabilities: readonly Capability[], store: Store): Level | undefined {
  if (capabilities.includes(store)) return 'write';
  return capabilities.includes(`${store}:read`) ? 'read' : undefined;
}

/**
 * The stack key, for one service's data only: `kms:ViaService` limits the grant to calls that AWS
 * service makes on the function's behalf (reading an item or an object), so the role cannot use the
 * key directly, and a read-only function gets Decrypt alone.
 */
function keyThrough(targets: AccessTargets, service: 'dynamodb' | 's3', level: Level): iam.PolicyStatement {
  const region = Stack.of(targets.table).region;
  return new iam.PolicyStatement({
    actions: [...KEY_ACTIONS[level]],
    resources: [targets.key.keyArn],
    conditions: { StringEquals: { 'kms:ViaService': `${service}.${region}.amazonaws.com` } },
  });
}

const stronger = (a: Level | undefined, b: Level | undefined): Level | undefined => (a === 'write' || b === 'write' ? 'write' : (a ?? b));

/**
 * Turns a function's declared capabilities into IAM statements, written out instead of CDK's
 * `grant*` helpers so that each role gets only the actions the ports use (the helpers add wildcard
 * actions such as `s3:Abort*` and `kms:ReEncrypt*`). Read-only capabilities (`jobs:read`,
 * `uploads:read`, `artifacts:read`) get read actions and Decrypt only.
 */
export function statementsFor(capabilities: readonly Capability[], targets: AccessTargets): iam.PolicyStatement[] {
  const stack = Stack.of(targets.table);
  const statements: iam.PolicyStatement[] = [];
  const jobs = levelOf(capabilities, 'jobs');
  if (jobs) statements.push(new iam.PolicyStatement({ actions: [...TABLE_ACTIONS[jobs]], resources: [targets.table.tableArn] }));
  const overdue = capabilities.includes('overdueJobs') ? 'read' : undefined;
  if (overdue) {
    statements.push(new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${targets.table.tableArn}/index/${JOBS_TABLE.openJobsIndex.name}`] }));
  }
  const table = stronger(jobs, overdue);
  if (table) statements.push(keyThrough(targets, 'dynamodb', table));

  let objects: Level | undefined;
  for (const name of ['uploads', 'artifacts'] as const) {
    const level = levelOf(capabilities, name);
    if (!level) continue;
    const bucketArn = targets.bucketArns[name];
    statements.push(
      new iam.PolicyStatement({ actions: [...OBJECT_ACTIONS[level]], resources: [`${bucketArn}/*`] }),
      // ListBucket lets a HEAD of a missing key answer 404 instead of 403, and deletePrefix list a job's files.
      new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucketArn] }),
    );
    objects = stronger(objects, level);
  }
  if (objects) statements.push(keyThrough(targets, 's3', objects));

  const starts: [Capability, StateMachineName][] = [
    ['startLab', 'lab-extraction'],
    ['startReport', 'report-generation'],
    ['startBulk', 'bulk-scoring'],
  ];
  for (const [capability, machine] of starts) {
    const name = targets.stateMachineNames[machine];
    if (!capabilities.includes(capability) || !name) continue;
    const arn = stateMachineArn(stack, name);
    statements.push(
      new iam.PolicyStatement({ actions: ['states:StartExecution'], resources: [arn] }),
      // Executions are encrypted with the stack key from the input StartExecution passes: a data key,
      // through Step Functions, for that machine only.
      new iam.PolicyStatement({
        actions: ['kms:GenerateDataKey'],
        resources: [targets.key.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': `states.${stack.region}.amazonaws.com`, 'kms:EncryptionContext:aws:states:stateMachineArn': arn } },
      }),
    );
  }
  if (capabilities.includes('comprehendMedical') && targets.phiDetector === 'comprehend') {
    // DetectPHI has no resource-level permissions: '*' is the only resource it accepts.
    statements.push(new iam.PolicyStatement({ actions: ['comprehendmedical:DetectPHI'], resources: ['*'] }));
  }
  if (capabilities.includes('textract') && targets.ocrEngine === 'textract') {
    // AnalyzeDocument has no resource-level permissions either; the document travels in the request.
    statements.push(new iam.PolicyStatement({ actions: ['textract:AnalyzeDocument'], resources: ['*'] }));
  }
  if (capabilities.includes('bedrock') && targets.bedrockModelId) {
    statements.push(
      new iam.PolicyStatement({
        actions: ['bedrock:InvokeModel'],
        resources: [stack.formatArn({ service: 'bedrock', account: '', resource: 'foundation-model', resourceName: targets.bedrockModelId })],
      }),
    );
  }
  return statements;
}

/** State machines get deterministic names so that functions can name them without a reference cycle. */
export function stateMachineArn(stack: Stack, name: string): string {
  return stack.formatArn({ service: 'states', resource: 'stateMachine', resourceName: name, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
}
