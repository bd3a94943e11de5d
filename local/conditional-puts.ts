import type { IncomingMessage, ServerResponse } from 'node:http';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Whether an object exists, as the store behind the S3 API sees it. */
export type ObjectExists = (bucket: string, key: string) => Promise<boolean>;

const PRECONDITION_FAILED =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message><Condition>If-None-Match</Condition></Error>';

/** Bucket and key of a path-style single-request PutObject (not a copy, not a multipart part). */
function putTarget(req: IncomingMessage): { bucket: string; key: string } | undefined {
  if (req.method !== 'PUT' || req.headers['x-amz-copy-source'] !== undefined) return undefined;
  const url = new URL(req.url ?? '/', 'http://s3.local');
  if (url.searchParams.has('uploadId') || url.searchParams.has('partNumber')) return undefined;
  const [, bucket, ...key] = url.pathname.split('/');
  if (!bucket || key.length === 0) return undefined;
  try {
    return { bucket: decodeURIComponent(bucket), key: decodeURIComponent(key.join('/')) };
  } catch {
    return undefined;
  }
}

/**
 * S3's conditional writes: a PutObject with `If-None-Match: *` stores the object only if the key does
 * not exist yet, and otherwise answers 412 PreconditionFailed; of concurrent ones, exactly one wins.
 * s3rver ignores the header, so the local S3 answers it here: conditional PUTs of one key run one
 * after the other, each checking the store first. Everything else passes through unchanged.
 */
export function withConditionalPuts(handle: RequestListener, exists: ObjectExists): RequestListener {
  const queues = new Map<string, Promise<void>>();
  return (req, res) => {
    const target = req.headers['if-none-match'] === '*' ? putTarget(req) : undefined;
    if (!target) return handle(req, res);
    const id = `${target.bucket}/${target.key}`;
    const run = async () => {
      if (await exists(target.bucket, target.key)) {
        req.resume();
        res.writeHead(412, { 'content-type': 'application/xml' }).end(PRECONDITION_FAILED);
        return;
      }
      await new Promise<void>((resolve) => {
        res.once('close', resolve);
        handle(req, res);
      });
    };
    const queued = (queues.get(id) ?? Promise.resolve()).then(run, run);
    const settled = queued.catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/xml' }).end('<Error><Code>InternalError</Code></Error>');
    });
    queues.set(id, settled);
    settled.then(() => {
      if (queues.get(id) === settled) queues.delete(id);
    });
  };
}
