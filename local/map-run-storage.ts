import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { withUnsignedPayload } from '../functions/platform/s3-unsigned-payload';
import { S3RVER_CREDENTIALS } from './embedded-s3';
import { LOCAL_REGION } from './lambda-invoker';
import type { MapRunServices } from './local-step-functions';

/**
 * S3 for Distributed Map runs (items read from, results written to the embedded S3), through the SDK
 * as Step Functions reaches S3. The client loads on the first Map Run, so `npm start` does not wait
 * for the S3 SDK.
 */
export function mapRunServices(endpoint: string, concurrency: number): MapRunServices {
  let client: Promise<{ s3: S3Client; sdk: typeof import('@aws-sdk/client-s3') }> | undefined;
  const s3 = () => {
    client ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      s3: withUnsignedPayload(new sdk.S3Client({ region: LOCAL_REGION, endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS, requestChecksumCalculation: 'WHEN_REQUIRED' })),
    }));
    return client;
  };
  return {
    concurrency,
    async openObject(bucket, key) {
      const { s3: c, sdk } = await s3();
      const out = await c.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
      return out.Body as AsyncIterable<Uint8Array>;
    },
    results: {
      async writeFile(bucket, key, file) {
        const { s3: c, sdk } = await s3();
        const { size } = await stat(file);
        await c.send(new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: createReadStream(file), ContentLength: size, ContentType: 'application/json' }));
        return size;
      },
      async writeText(bucket, key, text) {
        const { s3: c, sdk } = await s3();
        await c.send(new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: text, ContentType: 'application/json' }));
      },
    },
  };
}
