import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type S3rver from 's3rver';
import { BUCKETS } from '../functions/platform/resources';
import { withConditionalPuts } from './conditional-puts';
import { S3RVER_CREDENTIALS, type StoredObjectNotice } from './embedded-s3';
import { closeGracefully, listenOnLoopback } from './http-server';
import { withPresignedSignatures } from './presigned-signature';
import { completeMultipartAsS3, isMultipartExtra, serveMultipartExtra } from './s3-multipart';
import { deleteWithoutFolderListings } from './s3rver-deletes';
import { serveDesForS3rver } from './s3rver-des';
import { listWithoutStats } from './s3rver-listing';

export interface S3Server {
  endpoint: string;
  /** Loads s3rver now instead of at the first request; rejects if it cannot start. */
  load(): Promise<void>;
  close(graceMs: number): Promise<void>;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;


function notices(event: S3rver.Notification): StoredObjectNotice[] {
  return event.Records.filter((record) => record.eventName.startsWith('ObjectCreated:')).map((record) => ({
    eventName: record.eventName,
    bucket: record.s3.bucket.name,
    key: record.s3.object.key,
    size: record.s3.object.size ?? 0,
    eTag: record.s3.object.eTag,
    sequencer: record.s3.object.sequencer,
    sourceIp: record.requestParameters.sourceIPAddress,
  }));
}

/** How long S3 keeps an idle keep-alive connection, about 20 s (aio-libs/aiobotocore#21, vectordotdev/vector#9703: clients tune their pools below it). */
const S3_IDLE_CONNECTION_MS = 20_000;

async function loadS3rver(directory: string, onObjectCreated: (notice: StoredObjectNotice) => void): Promise<S3rver> {
  serveDesForS3rver();
  const { default: S3rverServer } = await import('s3rver');
  const app = new S3rverServer({
    silent: true,
    directory,
    resetOnClose: false,
    configureBuckets: Object.values(BUCKETS).map((bucket) => ({ name: bucket.localName })),
  });
  deleteWithoutFolderListings(app.store);
  completeMultipartAsS3(app);
  listWithoutStats(app);
  app.on('event', (event: S3rver.Notification) => {
    for (const notice of notices(event)) onObjectCreated(notice);
  });
  await app.configureBuckets();
  return app;
}

/**
 * s3rver with its files under `<dataDir>/s3` and the buckets of resources.ts; `onObjectCreated`
 * receives every successful PUT/POST/COPY, the local stand-in for S3 event notifications.
 * The port is bound at once but s3rver itself loads on load() or the first request, whichever comes
 * first; requests that arrive meanwhile wait for it. It runs in a process of its own (s3-process.ts).
 */
export async function serveS3(dataDir: string, onObjectCreated: (notice: StoredObjectNotice) => void): Promise<S3Server> {
  const directory = path.join(dataDir, 's3');
  await mkdir(directory, { recursive: true });
  let loading: Promise<S3rver> | undefined;
  const load = () => {
    loading ??= loadS3rver(directory, onObjectCreated);
    return loading;
  };
  let handle: RequestListener | undefined;
  const server = createServer((req, res) => {
    if (handle) return handle(req, res);
    load().then(
      (app) => {
        const served = withConditionalPuts(app.callback(), (bucket, key) => app.store.existsObject(bucket, key));
        // s3rver lacks UploadPartCopy and ListParts, completes multipart uploads otherwise than S3
        // (completeMultipartAsS3, above), ignores If-None-Match on PUT and does not check the signature
        // of pre-signed URLs; everything else is s3rver's.
        handle ??= withPresignedSignatures((request, response) => {
          if (!isMultipartExtra(request)) return served(request, response);
          serveMultipartExtra(app, request, response).catch(() => {
            if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/xml' }).end('<Error><Code>InternalError</Code></Error>');
          });
        }, S3RVER_CREDENTIALS.secretAccessKey);
        handle(req, res);
      },
      () => res.writeHead(503, { 'content-type': 'application/xml' }).end('<Error><Code>ServiceUnavailable</Code></Error>'),
    );
  });
  // S3 keeps an idle connection about 20 s; Node's server closes one after 5 s. A client pool that
  // reuses its idle sockets all at once just then gets every one reset, past the SDK's three attempts
  // (`socket hang up` on a busy machine, 40 PUTs after a pause).
  server.keepAliveTimeout = S3_IDLE_CONNECTION_MS;
  const port = await listenOnLoopback(server, 0);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    load: async () => {
      await load();
    },
    close: async (graceMs) => {
      await closeGracefully(server, graceMs);
      const app = await loading?.catch(() => undefined);
      app?.logger.close();
    },
  };
}
