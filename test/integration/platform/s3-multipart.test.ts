import { randomBytes } from 'node:crypto';
import type { ListedObject, ObjectStore, StreamingObjectStore } from '../../../functions/platform/ports';
import { MIN_PART_BYTES, objectStore } from '../../../functions/platform/s3-object-store';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime';

/**
 * The object store's streaming and multipart operations against the local runtime's S3 (s3rver plus
 * the UploadPartCopy and ListParts it lacks, local/s3-multipart.ts), as bulk scoring uses them.
 */

let hale: TestRuntime;
let store: ObjectStore & StreamingObjectStore;
let bucket: string;
beforeAll(async () => {
  hale = await startTestRuntime();
  store = objectStore();
  bucket = hale.buckets.artifacts;
});
afterAll(() => hale.stop());

async function text(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await store.open(bucket, key)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function listed(prefix: string, startAfter?: string): Promise<ListedObject[]> {
  const out: ListedObject[] = [];
  for await (const object of store.list(bucket, prefix, startAfter)) out.push(object);
  return out;
}

describe('multipart assembly', () => {
  it('writes parts in any order, from text, small objects (streamed) and a large one (copied), and completes them in part order', async () => {
    const big = randomBytes(MIN_PART_BYTES + 17);
    const small = [Buffer.from('alpha\n'), Buffer.from('beta\n'), randomBytes(MIN_PART_BYTES)];
    await store.put(bucket, 'mp/big', big, 'application/octet-stream');
    await Promise.all(small.map((body, i) => store.put(bucket, `mp/small-${i}`, body, 'application/octet-stream')));
    const uploadId = await store.startMultipart(bucket, 'mp/joined', 'application/octet-stream');
    // Part 2 (a single large object: copied) before part 1 (header text and small objects: streamed).
    await store.writePart(bucket, 'mp/joined', uploadId, 2, [{ key: 'mp/big', size: big.length }]);
    await store.writePart(bucket, 'mp/joined', uploadId, 1, [{ text: 'header\n' }, ...small.map((b, i) => ({ key: `mp/small-${i}`, size: b.length }))]);
    await store.writePart(bucket, 'mp/joined', uploadId, 3, [{ text: 'tail' }]);
    const size = await store.completeMultipart(bucket, 'mp/joined', uploadId);
    const expected = Buffer.concat([Buffer.from('header\n'), ...small, big, Buffer.from('tail')]);
    expect(size).toBe(expected.length);
    expect((await text('mp/joined')).equals(expected)).toBe(true);
  });

  it('concatenates a stream of text and objects into one object, and lists keys after a given one', async () => {
    await store.put(bucket, 'cat/a', 'A', 'text/plain');
    await store.put(bucket, 'cat/b', 'BB', 'text/plain');
    const parts = (async function* () {
      yield { text: 'head:' };
      yield* store.list(bucket, 'cat/');
      yield { text: ':end' };
    })();
    expect(await store.concatenate(bucket, 'joined/cat', parts, 'text/plain')).toBe(12);
    expect((await text('joined/cat')).toString()).toBe('head:ABB:end');
    expect((await listed('cat/', 'cat/a')).map((o) => o.key)).toEqual(['cat/b']);
  });
});
