import { Aws, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { BUCKETS, JOBS_TABLE, UPLOAD_LIMITS } from '../functions/platform/resources';
import { acknowledge } from './nag';
import { stackInstanceId } from './stack-instance';

export type BucketName = keyof typeof BUCKETS;

export interface StorageProps {
  key: kms.IKey;
  /** Origins allowed to PUT to pre-signed upload URLs from a browser. */
  uploadCorsOrigins: string[];
}

/** How long S3 server access logs are kept: long enough to investigate an incident reported weeks later. */
const ACCESS_LOG_RETENTION = Duration.days(90);

/**
 * The jobs table and the buckets of `functions/platform/resources.ts` (the same description the local
 * runtime creates them from), plus the bucket that receives S3 server access logs.
 */
export class Storage extends Construct {
  readonly table: dynamodb.Table;
  readonly buckets: Record<BucketName, s3.Bucket>;
  /**
   * The uploads bucket's name is known before the bucket exists, so that its ObjectCreated
   * notification can target the trigger function natively: with a generated name the bucket, the
   * function (whose environment names the bucket) and the notification form a cycle that CDK can only
   * break with a helper Lambda. It ends with the stack's creation id (stack-instance.ts): the bucket
   * is retained when the stack is deleted, and a stack created again under the same name gets a new
   * bucket instead of failing on the old one's name.
   */
  readonly uploadsBucketName: string;
  readonly bucketArns: Record<BucketName, string>;
  /** Receives the S3 server access logs of every Hale bucket. */
  readonly accessLogs: s3.Bucket;

  constructor(scope: Construct, id: string, props: StorageProps) {
    super(scope, id);
    this.table = new dynamodb.Table(this, JOBS_TABLE.logicalId, {
      partitionKey: { name: JOBS_TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: JOBS_TABLE.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: JOBS_TABLE.ttlAttribute,
      encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: props.key,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const openJobs = JOBS_TABLE.openJobsIndex;
    this.table.addGlobalSecondaryIndex({
      indexName: openJobs.name,
      partitionKey: { name: openJobs.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: openJobs.sortKey, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.INCLUDE,
      nonKeyAttributes: [...openJobs.projectedAttributes],
    });
    acknowledge(this.table, [
      [
        'HIPAA.Security-DynamoDBInBackupPlan',
        'Jobs expire within days (TTL) and hold no PHI; point-in-time recovery (35 days) covers accidental writes, so an AWS Backup plan would only retain already-expired jobs.',
      ],
    ]);

    const accessLogs = new s3.Bucket(this, 'AccessLogsBucket', {
      // S3 server access log delivery supports only SSE-S3 on the destination bucket.
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Audit records: a deleted or overwritten log stays recoverable until it expires.
      versioned: true,
      lifecycleRules: [
        {
          expiration: ACCESS_LOG_RETENTION,
          noncurrentVersionExpiration: ACCESS_LOG_RETENTION,
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(accessLogs, [
      ['AwsSolutions-S1', 'This is the server access log destination; logging it into itself would loop.'],
      ['HIPAA.Security-S3BucketLoggingEnabled', 'This is the server access log destination; logging it into itself would loop.'],
      ['HIPAA.Security-S3BucketReplicationEnabled', 'Access logs are kept for investigation in the region they describe; a cross-region copy adds no recovery value for request metadata that expires after 90 days.'],
      ['HIPAA.Security-S3DefaultEncryptionKMS', 'S3 server access log delivery only supports SSE-S3 on the destination bucket; access logs hold request metadata, not document contents.'],
    ]);
    this.accessLogs = accessLogs;

    const stackName = Stack.of(this).stackName.toLowerCase();
    // Bucket names have at most 63 characters; the stack's creation id (a UUID) has 36.
    const longestStackName = 63 - '-uploads-'.length - 36;
    if (stackName.length > longestStackName) {
      throw new Error(`Stack name '${stackName}' is too long: the uploads bucket is named after it, so keep it to ${longestStackName} characters`);
    }
    this.uploadsBucketName = `${stackName}-uploads-${stackInstanceId()}`;
    this.buckets = {
      uploads: this.dataBucket('uploads', accessLogs, props.key, {
        bucketName: this.uploadsBucketName,
        cors: [
          {
            allowedMethods: [s3.HttpMethods.PUT],
            allowedOrigins: props.uploadCorsOrigins,
            allowedHeaders: ['content-type', 'content-length'],
            maxAge: UPLOAD_LIMITS.presignedExpirySeconds,
          },
        ],
      }),
      artifacts: this.dataBucket('artifacts', accessLogs, props.key, {}),
    };
    this.bucketArns = { uploads: `arn:${Aws.PARTITION}:s3:::${this.uploadsBucketName}`, artifacts: this.buckets.artifacts.bucketArn };
  }

  /** cdk-nag finding ids of the `bucket/*` object grants (exact ids are required to acknowledge them). */
  objectWildcardFindings(): string[] {
    const stack = Stack.of(this);
    const artifacts = stack.resolve(stack.getLogicalId(this.buckets.artifacts.node.defaultChild as s3.CfnBucket)) as string;
    return [
      `AwsSolutions-IAM5[Resource::<${artifacts}.Arn>/*]`,
      // cdk-nag writes the creation id's intrinsic as resolved JSON.
      `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${stack.stackName.toLowerCase()}-uploads-${JSON.stringify(stack.resolve(stackInstanceId()))}/*]`,
    ];
  }

  private dataBucket(name: BucketName, accessLogs: s3.IBucket, key: kms.IKey, extra: Partial<s3.BucketProps>): s3.Bucket {
    const spec = BUCKETS[name];
    const bucket = new s3.Bucket(this, spec.logicalId, {
      encryption: s3.BucketEncryption.KMS,
      encryptionKey: key,
      bucketKeyEnabled: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: `${name}/`,
      lifecycleRules: [
        { expiration: Duration.days(spec.expireAfterDays), abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
      ...extra,
    });
    acknowledge(bucket, [
      [
        'HIPAA.Security-S3BucketVersioningEnabled',
        'Objects are transient job files that must be gone once the job ends (rejected_phi deletes every file at once); versioning would keep deleted PHI as noncurrent versions.',
      ],
      [
        'HIPAA.Security-S3BucketReplicationEnabled',
        'Objects live for at most a day and are recreated by re-submitting the job; a replica would be one more copy of PHI to delete.',
      ],
    ]);
    return bucket;
  }
}
