import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { withResolvers } from './promise-with-resolvers';
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
 * The S3 process's heap limit. Nothing in it outlives a request: its heap stayed near 20 MB through a
 * 100,000-line bulk job, and the cap keeps garbage from piling up before it is collected.
 */
const S3_HEAP_MB = 128;

/** A promise with its settlers; a rejection nobody awaits yet is not reported as unhandled. */
function deferred<T>(): ReturnType<typeof withResolvers<T>> {
  const settled = withResolvers<T>();
  settled.promise.catch(() => undefined);
  return settled;
}

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
    execArgv: ['--import', 'tsx', `--max-old-space-size=${S3_HEAP_MB}`],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const listening = deferred<string>();
  const loaded = deferred<void>();
  child.on('message', (message: S3ProcessMessage) => {
    if (message.type === 'listening') listening.resolve(message.endpoint);
    else if (message.type === 'loaded') loaded.resolve();
    else if (message.type === 'load-failed') loaded.reject(Object.assign(new Error(message.message), { name: message.errorName }));
    else onObjectCreated(message.notice, message.pendingId);
  });
  child.once('exit', (code) => {
    const error = new Error(`the embedded S3 process exited with code ${code}`);
    listening.reject(error);
    loaded.reject(error);
  });
  const endpoint = await listening.promise;
  // From now on it never keeps the runtime alive on its own: the runtime's servers do while it runs.
  child.unref();
  child.channel?.unref();
  return {
    endpoint,
    load: () => loaded.promise,
    close: async (graceMs) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.ref();
      if (child.connected) child.send({ type: 'close', graceMs } satisfies S3ProcessRequest);
      else child.kill();
      await exited;
    },
  };
}

/**
 * The pid of the embedded S3 process that the local runtime in process `runtimePid` started, found
 * among its children in /proc (Linux): for the benches and tests that watch it from outside.
 */
export async function embeddedS3ProcessOf(runtimePid: number): Promise<number> {
  const children = (await readFile(`/proc/${runtimePid}/task/${runtimePid}/children`, 'utf8')).trim().split(/\s+/).map(Number);
  for (const pid of children) {
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes(S3_PROCESS)) return pid;
  }
  throw new Error(`process ${runtimePid} has no embedded S3 process`);
}
