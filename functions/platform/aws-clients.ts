import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SFNClient } from '@aws-sdk/client-sfn';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from './config';
import { tracedInAws } from './observability';
import { withUnsignedPayload } from './s3-unsigned-payload';

/**
 * One SDK client per service per Lambda container, created on first use so a handler that never
 * touches S3 never pays for it. In the local runtime the endpoints point at the embedded servers
 * (dynalite, s3rver, the local Step Functions endpoint); in AWS the Powertools tracer wraps each
 * client so every call shows up as an X-Ray subsegment.
 */

/** s3rver accepts only this key pair; dynalite and the local SFN endpoint accept any. */
const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

interface ClientSettings {
  region: string;
  endpoint?: string;
  credentials?: typeof LOCAL_CREDENTIALS;
}

function settingsFor(endpoint: string | undefined): ClientSettings {
  const { AWS_REGION, HALE_RUNTIME } = config();
  if (HALE_RUNTIME === 'local' && endpoint) return { region: AWS_REGION, endpoint, credentials: LOCAL_CREDENTIALS };
  return { region: AWS_REGION, ...(endpoint ? { endpoint } : {}) };
}

let documentClient: DynamoDBDocumentClient | undefined;
let s3Client: S3Client | undefined;
let sfnClient: SFNClient | undefined;

export function dynamoDocumentClient(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(tracedInAws(new DynamoDBClient(settingsFor(config().HALE_DYNAMODB_ENDPOINT))), {
    // Optional job attributes are often `undefined`; DynamoDB cannot store them, so they are left out.
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

export function s3(): S3Client {
  const endpoint = config().HALE_S3_ENDPOINT;
  s3Client ??= withUnsignedPayload(
    tracedInAws(
      new S3Client({
        ...settingsFor(endpoint),
        // s3rver serves buckets by path, not by virtual host.
        forcePathStyle: endpoint !== undefined,
        // Default CRC32 checksums would be baked into pre-signed PUT URLs as the checksum of an empty
        // body, so every real upload through them would be rejected (aws-sdk-js-v3 ≥ 3.729 behaviour).
        requestChecksumCalculation: 'WHEN_REQUIRED',
      }),
    ),
  );
  return s3Client;
}

export function sfn(): SFNClient {
  sfnClient ??= tracedInAws(new SFNClient(settingsFor(config().HALE_SFN_ENDPOINT)));
  return sfnClient;
}

/** The local runtime and the tests restart the embedded servers on new ports; this drops the old clients. */
export function resetAwsClientsForTests(): void {
  documentClient?.destroy();
  s3Client?.destroy();
  sfnClient?.destroy();
  documentClient = undefined;
  s3Client = undefined;
  sfnClient = undefined;
}
