// dynalite and s3rver ship no type declarations; these cover only what the local runtime uses.

declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    /** LevelDB folder; in-memory when absent. */
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
  }

  function dynalite(options?: DynaliteOptions): Server;
  export = dynalite;
}

declare module 's3rver' {
  import type { EventEmitter } from 'node:events';
  import type { IncomingMessage, ServerResponse } from 'node:http';
  import type { AddressInfo } from 'node:net';

  namespace S3rver {
    interface Options {
      address?: string;
      port?: number;
      silent?: boolean;
      directory: string;
      resetOnClose?: boolean;
      configureBuckets?: { name: string }[];
    }

    /** The notification s3rver emits after every successful object write or delete. */
    interface Notification {
      Records: {
        eventName: string;
        eventTime: string;
        requestParameters: { sourceIPAddress: string };
        s3: { bucket: { name: string }; object: { key: string; size?: number; eTag?: string; sequencer: string } };
      }[];
    }
  }

  class S3rver extends EventEmitter {
    constructor(options: S3rver.Options);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    /** Creates the buckets of `configureBuckets` (run() does this before it listens). */
    configureBuckets(): Promise<void>;
    /** The Koa request listener, for mounting on a server of one's own. */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    /** Where the objects live. */
    store: {
      existsObject(bucket: string, key: string): Promise<boolean>;
      deleteObject(bucket: string, key: string): Promise<void>;
      getBucketPath(bucket: string): string;
      getResourcePath(bucket: string, key: string, resource: string): string;
    };
    /** The winston logger; run()'s server closes it when it closes. */
    logger: { close(): void };
    on(event: 'event', listener: (event: S3rver.Notification) => void): this;
  }
  export = S3rver;
}

declare module 's3rver/lib/models/error' {
  /** An S3 error: s3rver answers it as S3's XML error body, with the status S3 gives its code. */
  class S3Error extends Error {
    constructor(code: string, message: string, detail?: Record<string, string>);
    readonly code: string;
  }
  export = S3Error;
}

declare module 's3rver/lib/models/object' {
  /** An object as s3rver's controllers take it: its key and metadata (content-length, etag, …). */
  class S3Object {
    constructor(bucket: string, key: string, content: null, metadata: Record<string, string | number>);
    readonly key: string;
  }
  export = S3Object;
}
