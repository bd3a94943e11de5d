import { ArnFormat, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { JOBS_TABLE } from '../functions/platform/resources';
import type { Capability } from '../functions/routes';
import type { StateMachineName } from '../functions/workers';
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
}

/** Item operations of the jobs repository; no Scan, no table administration. */
const TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const OBJECT_ACTIONS = ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'];
/** Reading (Decrypt) and writing (GenerateDataKey) anything encrypted with the stack key: table items, objects, execution input. */
const KEY_ACTIONS = ['kms:Decrypt', 'kms:GenerateDataKey'];

/**
 * Turns a function's declared capabilities into IAM statements, written out instead of CDK's
 * `grant*` helpers so that each role gets only the actions the ports use (the helpers add wildcard
 * actions such as `s3:Abort*` and `kms:ReEncrypt*`).
 */
export function statementsFor(capabilities: readonly Capability[], targets: AccessTargets): iam.PolicyStatement[] {
  const stack = Stack.of(targets.table);
  const statements: iam.PolicyStatement[] = [];
  let needsKey = false;
  if (capabilities.includes('jobs')) {
    statements.push(new iam.PolicyStatement({ actions: TABLE_ACTIONS, resources: [targets.table.tableArn] }));
    needsKey = true;
  }
  if (capabilities.includes('overdueJobs')) {
    statements.push(new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${targets.table.tableArn}/index/${JOBS_TABLE.openJobsIndex.name}`] }));
    needsKey = true;
  }
  for (const name of ['uploads', 'artifacts'] as const) {
    if (!capabilities.includes(name)) continue;
    const bucketArn = targets.bucketArns[name];
    statements.push(
      new iam.PolicyStatement({ actions: OBJECT_ACTIONS, resources: [`${bucketArn}/*`] }),
      // ListBucket lets a HEAD of a missing key answer 404 instead of 403, and deletePrefix list a job's files.
      new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucketArn] }),
    );
    needsKey = true;
  }
  const starts: [Capability, StateMachineName][] = [
    ['startLab', 'lab-extraction'],
    ['startReport', 'report-generation'],
  ];
  for (const [capability, machine] of starts) {
    const name = targets.stateMachineNames[machine];
    if (!capabilities.includes(capability) || !name) continue;
    statements.push(new iam.PolicyStatement({ actions: ['states:StartExecution'], resources: [stateMachineArn(stack, name)] }));
    // Executions are encrypted with the stack key, from the input passed to StartExecution on.
    needsKey = true;
  }
  if (needsKey) statements.push(new iam.PolicyStatement({ actions: KEY_ACTIONS, resources: [targets.key.keyArn] }));
  if (capabilities.includes('comprehendMedical') && targets.phiDetector === 'comprehend') {
    // DetectPHI has no resource-level permissions: '*' is the only resource it accepts.
    statements.push(new iam.PolicyStatement({ actions: ['comprehendmedical:DetectPHI'], resources: ['*'] }));
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
