import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct, type IConstruct } from 'constructs';
import { acknowledge } from './nag';
import { WIDGET_FILES, WIDGET_VERSION, widgetAsset } from './widget-asset';

export interface WidgetHostingProps {
  /** The main API: the widget is served beside it, on its host and custom domain. */
  api: apigw.RestApi;
  key: kms.IKey;
  accessLogs: s3.IBucket;
}

/**
 * Versioned files never change under their URL (a new version gets a new path segment), hence a
 * year-long immutable cache, as the local runtime serves them (local/widget-files.ts).
 */
const CACHE_CONTROL = [s3deploy.CacheControl.setPublic(), s3deploy.CacheControl.maxAge(Duration.days(365)), s3deploy.CacheControl.immutable()];
const OLD_VERSIONS_KEPT = Duration.days(30);

/**
 * The embeddable widget at `GET /widget/v1/{file}` on the main API, without an API key: it is public
 * code and carries no data. Its files live in a private bucket (KMS, TLS only, no public access) and
 * API Gateway reads them with S3 GetObject under a role that may read exactly those objects. No
 * CloudFront: the widget is small and immutably cached by browsers, the main API already has the
 * WAF, access logs, throttling and the custom domain, and one host keeps `script-src` to one origin.
 *
 * Each object carries its Content-Type and Cache-Control as S3 metadata (set by the deployment), and
 * API Gateway passes both through, so the headers are decided in one place per file.
 */
export class WidgetHosting extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: WidgetHostingProps) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      encryption: s3.BucketEncryption.KMS,
      encryptionKey: props.key,
      bucketKeyEnabled: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 'widget/',
      // A deploy that breaks the widget can be rolled back by restoring the previous versions.
      versioned: true,
      lifecycleRules: [{ noncurrentVersionExpiration: OLD_VERSIONS_KEPT, abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      // Holds only files built from the repository: nothing is lost with it, but CloudFormation cannot
      // delete a non-empty bucket, so it is left for deletion by hand like the other buckets.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(this.bucket, [
      ['HIPAA.Security-S3BucketReplicationEnabled', 'The bucket holds only the widget build, recreated from the repository by every deploy; a replica in another region would add nothing to recover.'],
    ]);

    this.deploy(props.key);
    this.addRoute(props.api, props.key);
  }

  private objectKey(file: string): string {
    return `${WIDGET_VERSION}/${file}`;
  }

  /**
   * One deployment per Content-Type (each sets its files' metadata and prunes only its own files).
   * Both run CDK's singleton handler under one role of ours, handed over read-only: CDK's grants would
   * add `s3:*Object*`, `s3:Abort*` and `kms:ReEncrypt*` on every key of both buckets in an inline policy.
   */
  private deploy(key: kms.IKey): void {
    const asset = widgetAsset(this, 'Files');
    const logGroup = new logs.LogGroup(this, 'DeploymentLogs', { retention: logs.RetentionDays.THREE_MONTHS, encryptionKey: key });
    const fileArns = Object.keys(WIDGET_FILES).map((file) => this.bucket.arnForObjects(this.objectKey(file)));
    const role = new iam.Role(this, 'DeploymentRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'CDK BucketDeployment handler: copies the widget build into the widget bucket',
    });
    const policy = new iam.ManagedPolicy(this, 'DeploymentPolicy', {
      roles: [role],
      statements: [
        new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroup.logGroupArn] }),
        // `aws s3 cp` of the asset zip, then `aws s3 sync --delete` of exactly the included files.
        new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [asset.bucket.arnForObjects(asset.s3ObjectKey)] }),
        new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.bucket.bucketArn] }),
        new iam.PolicyStatement({ actions: ['s3:PutObject', 's3:DeleteObject'], resources: fileArns }),
        new iam.PolicyStatement({
          actions: ['kms:GenerateDataKey', 'kms:Decrypt'],
          resources: [key.keyArn],
          conditions: { StringEquals: { 'kms:ViaService': `s3.${Stack.of(this).region}.amazonaws.com` } },
        }),
      ],
    });
    const source = s3deploy.Source.bucket(asset.bucket, asset.s3ObjectKey);
    const byType = new Map<string, string[]>();
    for (const [file, type] of Object.entries(WIDGET_FILES)) byType.set(type, [...(byType.get(type) ?? []), file]);
    // BucketDeployment sets one Content-Type for all its files; each also brings its own AWS CLI layer
    // resource (the same asset), while the handler function is shared.
    const deployments = [...byType].map(
      ([contentType, files], index) =>
        new s3deploy.BucketDeployment(this, `Deploy${index}`, {
          sources: [source],
          destinationBucket: this.bucket,
          destinationKeyPrefix: `${WIDGET_VERSION}/`,
          exclude: ['*'],
          include: files,
          contentType,
          cacheControl: CACHE_CONTROL,
          role: role.withoutPolicyUpdates(),
          logGroup,
        }),
    );
    // The copy runs while CloudFormation creates the deployments: CDK's handler, and so the
    // deployments that call it, must wait for the policy (AccessDenied and a rollback otherwise).
    const handler = deploymentHandler(deployments[0]!);
    handler.node.addDependency(policy);
    acknowledgeDeploymentHandler(handler);
  }

  private addRoute(api: apigw.RestApi, key: kms.IKey): void {
    const role = new iam.Role(this, 'ReadRole', {
      assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      description: 'API Gateway reads the widget files',
    });
    const readPolicy = new iam.ManagedPolicy(this, 'ReadPolicy', {
      roles: [role],
      statements: [
        new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: Object.keys(WIDGET_FILES).map((file) => this.bucket.arnForObjects(this.objectKey(file))) }),
        new iam.PolicyStatement({
          actions: ['kms:Decrypt'],
          resources: [key.keyArn],
          conditions: { StringEquals: { 'kms:ViaService': `s3.${Stack.of(this).region}.amazonaws.com` } },
        }),
      ],
    });

    const header = (name: string) => `method.response.header.${name}`;
    const jsonError = (statusCode: string, selectionPattern: string, detail: string): apigw.IntegrationResponse => ({
      statusCode,
      selectionPattern,
      responseParameters: { [header('Content-Type')]: "'application/json'" },
      responseTemplates: { 'application/json': JSON.stringify({ detail }) },
    });
    const integration = new apigw.AwsIntegration({
      service: 's3',
      integrationHttpMethod: 'GET',
      path: `${this.bucket.bucketName}/${this.objectKey('{file}')}`,
      options: {
        credentialsRole: role,
        requestParameters: { 'integration.request.path.file': 'method.request.path.file' },
        integrationResponses: [
          {
            statusCode: '200',
            responseParameters: {
              [header('Content-Type')]: 'integration.response.header.Content-Type',
              [header('Cache-Control')]: 'integration.response.header.Cache-Control',
              // `<script crossorigin integrity>` on another origin needs CORS.
              [header('Access-Control-Allow-Origin')]: "'*'",
              [header('X-Content-Type-Options')]: "'nosniff'",
            },
          },
          // Without s3:ListBucket, S3 answers 403 for a missing key: any 4xx is "no such file".
          jsonError('404', '4\\d{2}', 'No such widget file'),
          jsonError('502', '5\\d{2}', 'Widget storage unavailable'),
        ],
      },
    });
    const declared = (names: string[]) => Object.fromEntries(names.map((name) => [header(name), true]));
    const method = api.root.resourceForPath(`/widget/${WIDGET_VERSION}/{file}`).addMethod('GET', integration, {
      apiKeyRequired: false,
      operationName: 'WidgetFile',
      requestParameters: { 'method.request.path.file': true },
      methodResponses: [
        { statusCode: '200', responseParameters: declared(['Content-Type', 'Cache-Control', 'Access-Control-Allow-Origin', 'X-Content-Type-Options']) },
        { statusCode: '404', responseParameters: declared(['Content-Type']) },
        { statusCode: '502', responseParameters: declared(['Content-Type']) },
      ],
    });
    // API Gateway reads the files with the role from the first request after the deploy.
    method.node.addDependency(readPolicy);
  }
}

/** BucketDeployment's handler: CDK's own singleton Lambda (Python with the AWS CLI layer), at stack level. */
function deploymentHandler(deployment: s3deploy.BucketDeployment): IConstruct {
  const handler = Stack.of(deployment).node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
  if (!handler) throw new Error('BucketDeployment created no handler where CDK used to put it');
  return handler;
}

/** The handler's runtime and settings are CDK's to keep; our role and policy above are the part we control. */
function acknowledgeDeploymentHandler(handler: IConstruct): void {
  acknowledge(handler, [
    ['AwsSolutions-L1', "The handler's Python runtime is chosen by aws-cdk-lib's BucketDeployment and moves with CDK upgrades; it cannot be set."],
    ['HIPAA.Security-LambdaConcurrency', 'Invoked only by CloudFormation during a deploy of this stack, once per widget deployment: there is no traffic to bound.'],
    ['HIPAA.Security-LambdaDLQ', 'Invoked by CloudFormation, which waits for its answer: a failed copy fails and rolls back the deploy, so there is no lost event to keep.'],
    ['HIPAA.Security-LambdaInsideVPC', 'Copies the public widget build between two S3 buckets at deploy time; it touches no PHI and no private network resource.'],
  ]);
}
