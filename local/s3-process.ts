import type { S3ProcessMessage, S3ProcessRequest } from './embedded-s3';
import { PendingNotifications } from './pending-notifications';
import { serveS3 } from './s3-server';

/**
 * The embedded S3's process (started by embedded-s3.ts with the data folder, and the bucket whose
 * notices are journaled, as its arguments): S3 is a service of its own, so its work (hashing every
 * object, reading and writing files, HTTP) runs on another core than the handlers', as it would in
 * AWS. Its notices go to the runtime over IPC, those of the journaled bucket written to disk first,
 * before the request is answered, so a crash of either process loses none. It stops when asked, or
 * when the runtime is gone (the IPC channel closes).
 */

function send(message: S3ProcessMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  const [dataDir, journaledBucket] = process.argv.slice(2);
  if (!dataDir || !process.send) throw new Error('s3-process.ts runs as the embedded S3 of a local runtime (embedded-s3.ts)');
  const journal = journaledBucket ? new PendingNotifications(dataDir) : undefined;
  const server = await serveS3(dataDir, (notice) => {
    // Synchronous: s3rver raises the notice before it answers the request.
    const pending = notice.bucket === journaledBucket ? journal?.add(notice) : undefined;
    send({ type: 'notice', notice, pendingId: pending?.id });
  });
  let stopping = false;
  const stop = (graceMs: number) => {
    if (stopping) return;
    stopping = true;
    server.close(graceMs).finally(() => process.exit(0));
  };
  process.on('message', (request: S3ProcessRequest) => {
    if (request.type === 'close') stop(request.graceMs);
  });
  // The runtime is gone (stopped or crashed): nothing is left to serve.
  process.once('disconnect', () => stop(0));
  // Ctrl-C in a terminal signals the whole process group: the runtime stops first, finishing its
  // in-flight work against this S3, and then closes it.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);
  send({ type: 'listening', endpoint: server.endpoint });
  server.load().then(
    () => send({ type: 'loaded' }),
    (error: unknown) => send({ type: 'load-failed', errorName: error instanceof Error ? error.name : typeof error, message: error instanceof Error ? error.message : String(error) }),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`embedded S3 could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
