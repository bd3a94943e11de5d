import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import S3rver from 's3rver';
import { BUCKETS } from '../functions/platform/resources';

export interface StoredObjectNotice {
  /** ObjectCreated:Put, :Post or :Copy. */
  eventName: string;
  bucket: string;
  /** The object key as stored (not URL-encoded). */
  key: string;
  size: number;
  eTag?: string;
  sequencer: string;
  sourceIp: string;
}

export interface EmbeddedS3 {
  endpoint: string;
  close(): Promise<void>;
}

/** s3rver accepts only this key pair. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/**
 * s3rver on loopback with its files under `<dataDir>/s3` and the buckets of resources.ts.
 * `onObjectCreated` receives every successful PUT/POST/COPY, the local stand-in for S3 event
 * notifications.
 */
export async function startEmbeddedS3(dataDir: string, onObjectCreated: (notice: StoredObjectNotice) => void): Promise<EmbeddedS3> {
  const directory = path.join(dataDir, 's3');
  await mkdir(directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    resetOnClose: false,
    configureBuckets: Object.values(BUCKETS).map((bucket) => ({ name: bucket.localName })),
  });
  server.on('event', (event: S3rver.Notification) => {
    for (const record of event.Records) {
      if (!record.eventName.startsWith('ObjectCreated:')) continue;
      const { bucket, object } = record.s3;
      onObjectCreated({
        eventName: record.eventName,
        bucket: bucket.name,
        key: object.key,
        size: object.size ?? 0,
        eTag: object.eTag,
        sequencer: object.sequencer,
        sourceIp: record.requestParameters.sourceIPAddress,
      });
    }
  });
  const address = await server.run();
  return { endpoint: `http://127.0.0.1:${address.port}`, close: () => server.close() };
}
