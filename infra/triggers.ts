import { Aws, Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { WorkerDefinition } from '../functions/worker-definition';

export interface TriggersProps {
  workers: readonly { definition: WorkerDefinition; fn: lambda.IFunction }[];
  uploadsBucket: s3.Bucket;
  /** The uploads bucket's fixed name (see Storage), known before the bucket exists. */
  uploadsBucketName: string;
  deadLetterQueue: sqs.IQueue;
}

/** Event sources of the workers that are not state machine tasks (WorkerDefinition.trigger). */
export class Triggers extends Construct {
  constructor(scope: Construct, id: string, props: TriggersProps) {
    super(scope, id);
    const onUpload = props.workers.filter((w) => w.definition.trigger === 'uploads-object-created');
    if (onUpload.length > 0) {
      // Set on the bucket itself rather than with addEventNotification, which needs a helper Lambda;
      // S3 checks it may invoke each function when the configuration is written, hence the dependency.
      const cfnBucket = props.uploadsBucket.node.defaultChild as s3.CfnBucket;
      cfnBucket.notificationConfiguration = {
        lambdaConfigurations: onUpload.map((w) => {
          const permission = new lambda.CfnPermission(this, `${w.definition.id}FromUploads`, {
            action: 'lambda:InvokeFunction',
            functionName: w.fn.functionArn,
            principal: 's3.amazonaws.com',
            sourceAccount: Aws.ACCOUNT_ID,
            sourceArn: `arn:${Aws.PARTITION}:s3:::${props.uploadsBucketName}`,
          });
          props.uploadsBucket.node.addDependency(permission);
          // S3 refuses notification configurations of one event type whose key filters overlap.
          const filter = w.definition.triggerPrefix ? { s3Key: { rules: [{ name: 'prefix', value: w.definition.triggerPrefix }] } } : undefined;
          return { event: 's3:ObjectCreated:*', function: w.fn.functionArn, ...(filter ? { filter } : {}) };
        }),
      };
    }

    const scheduled = props.workers.filter((w) => w.definition.trigger === 'schedule-5-minutes');
    if (scheduled.length > 0) {
      new events.Rule(this, 'Every5Minutes', {
        description: 'Hale periodic workers',
        schedule: events.Schedule.rate(Duration.minutes(5)),
        targets: scheduled.map((w) => new targets.LambdaFunction(w.fn, { deadLetterQueue: props.deadLetterQueue, retryAttempts: 2 })),
      });
    }
  }
}
