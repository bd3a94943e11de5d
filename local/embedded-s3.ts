import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { REPO_ROOT, repoPath } from './repo-paths';

/** An S3 event notification of a created object, as the runtime's triggers take it. */
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

/** s3rver accepts only this key pair. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface EmbeddedS3 {
  endpoint: string;
  /** Resolves once s3rver has loaded (it loads at once in its process); rejects if it cannot start. */
  load(): Promise<void>;
  close(graceMs: number): Promise<void>;
}

/** What the runtime asks of the S3 process. */
export type S3ProcessRequest = { type: 'close'; graceMs: number };

/** What the S3 process tells the runtime. */
export type S3ProcessMessage =
  | { type: 'listening'; endpoint: string }
  | { type: 'loaded' }
  | { type: 'load-failed'; errorName: string; message: string }
  | { type: 'notice'; notice: StoredObjectNotice; pendingId?: string };

const S3_PROCESS = repoPath('local/s3-process.ts');

/**
 * The runtime's S3 (s3-server.ts: s3rver with the operations it lacks) in a process of its own, its
 * files under `<dataDir>/s3`; `onObjectCreated` receives every successful PUT/POST/COPY/completed
 * upload, the local stand-in for S3 event notifications. Those of `journaledBucket` are written to
 * `<dataDir>/notifications` before S3 answers the request (pending-notifications.ts), and come with
 * their entry's id. Resolves once it listens. Its process ends with close(), or with this one.
 */
export async function startEmbeddedS3(
  dataDir: string,
  onObjectCreated: (notice: StoredObjectNotice, pendingId?: string) => void,
  journaledBucket?: string,
): Promise<EmbeddedS3> {
  const child: ChildProcess = fork(S3_PROCESS, journaledBucket ? [dataDir, journaledBucket] : [dataDir], {
    cwd: REPO_ROOT,
    execArgv: ['--import', 'tsx', '--max-old-space-size=128'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  let loaded: Promise<void> | undefined;
  const endpoint = await new Promise<string>((resolve, reject) => {
    let resolveLoad: () => void = () => undefined;
    let rejectLoad: (error: Error) => void = () => undefined;
    loaded = new Promise<void>((res, rej) => {
      resolveLoad = res;
      rejectLoad = rej;
    });
    // Nothing waits on it before load() is called.
    loaded.catch(() => undefined);
    child.on('message', (message: S3ProcessMessage) => {
      if (message.type === 'listening') resolve(message.endpoint);
      else if (message.type === 'loaded') resolveLoad();
      else if (message.type === 'load-failed') rejectLoad(Object.assign(new Error(message.message), { name: message.errorName }));
      else onObjectCreated(message.notice, message.pendingId);
    });
    child.once('exit', (code) => {
      const error = new Error(`the embedded S3 process exited with code ${code}`);
      reject(error);
      rejectLoad(error);
    });
  });
  return {
    endpoint,
    load: () => loaded!,
    close: async (graceMs) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send({ type: 'close', graceMs } satisfies S3ProcessRequest);
      else child.kill();
      await exited;
    },
  };
}
