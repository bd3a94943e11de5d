import { createHash, randomBytes } from 'node:crypto';
import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, HeadObjectCommand, UploadPartCommand, UploadPartCopyCommand } from '@aws-sdk/client-s3';
import { s3 } from '../../../functions/platform/aws-clients';
import type { ListedObject, ObjectStore, StreamingObjectStore } from '../../../functions/platform/ports';
import { MIN_PART_BYTES } from '../../../functions/platform/s3-limits';
import { objectStore } from '../../../functions/platform/s3-object-store';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime';

/**
 * The object store's streaming and multipart operations against the local runtime's S3 (s3rver plus
 * the UploadPartCopy and ListParts it lacks and CompleteMultipartUpload as S3 does it,
 * local/s3-multipart.ts), as bulk scoring uses them.
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

describe('CompleteMultipartUpload, as S3 answers it', () => {
  const md5 = (body: Buffer) => createHash('md5').update(body).digest();

  async function uploadWith(key: string, bodies: readonly Buffer[]): Promise<{ uploadId: string; etags: string[] }> {
    const { UploadId } = await s3().send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
    const etags: string[] = [];
    for (const [i, Body] of bodies.entries()) {
      const { ETag } = await s3().send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: i + 1, Body }));
      etags.push(ETag!);
    }
    return { uploadId: UploadId!, etags };
  }

  async function complete(key: string, uploadId: string, parts: { PartNumber: number; ETag: string }[]): Promise<string | undefined> {
    const out = await s3().send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    return out.ETag;
  }

  async function failure(promise: Promise<unknown>): Promise<{ name: string; status?: number }> {
    const error = (await promise.then(
      () => undefined,
      (e: unknown) => e,
    )) as { name: string; $metadata?: { httpStatusCode?: number } } | undefined;
    if (!error) throw new Error('expected the request to fail');
    return { name: error.name, status: error.$metadata?.httpStatusCode };
  }

  it('joins the parts in order and tags the object with the MD5 of the parts\' MD5s and their count', async () => {
    const bodies = [randomBytes(MIN_PART_BYTES), randomBytes(MIN_PART_BYTES + 3), randomBytes(1000)];
    const { uploadId, etags } = await uploadWith('complete/three', bodies);
    const etag = await complete('complete/three', uploadId, etags.map((ETag, i) => ({ PartNumber: i + 1, ETag })));
    const expected = `"${createHash('md5').update(Buffer.concat(bodies.map(md5))).digest('hex')}-3"`;
    expect(etag).toBe(expected);
    const head = await s3().send(new HeadObjectCommand({ Bucket: bucket, Key: 'complete/three' }));
    expect(head.ETag).toBe(expected);
    expect(head.ContentLength).toBe(bodies.reduce((n, b) => n + b.length, 0));
    expect((await text('complete/three')).equals(Buffer.concat(bodies))).toBe(true);
    // Completed: the upload is gone.
    expect(await failure(complete('complete/three', uploadId, [{ PartNumber: 1, ETag: etags[0]! }]))).toEqual({ name: 'NoSuchUpload', status: 404 });
  });

  it('refuses a part named with another ETag, or never uploaded (InvalidPart)', async () => {
    const { uploadId, etags } = await uploadWith('complete/invalid-part', [randomBytes(10)]);
    const wrong = `"${createHash('md5').update('something else').digest('hex')}"`;
    expect(await failure(complete('complete/invalid-part', uploadId, [{ PartNumber: 1, ETag: wrong }]))).toEqual({ name: 'InvalidPart', status: 400 });
    expect(await failure(complete('complete/invalid-part', uploadId, [{ PartNumber: 1, ETag: etags[0]! }, { PartNumber: 2, ETag: etags[0]! }]))).toEqual({ name: 'InvalidPart', status: 400 });
    // Nothing was written; the upload can still be completed.
    expect(await store.head(bucket, 'complete/invalid-part')).toBeUndefined();
    await complete('complete/invalid-part', uploadId, [{ PartNumber: 1, ETag: etags[0]! }]);
    expect(await store.head(bucket, 'complete/invalid-part')).toEqual(expect.objectContaining({ size: 10 }));
  });

  it('refuses parts out of order (InvalidPartOrder) and a part under 5 MiB that is not the last (EntityTooSmall)', async () => {
    const { uploadId, etags } = await uploadWith('complete/small', [randomBytes(MIN_PART_BYTES - 1), randomBytes(MIN_PART_BYTES)]);
    const parts = etags.map((ETag, i) => ({ PartNumber: i + 1, ETag }));
    expect(await failure(complete('complete/small', uploadId, [...parts].reverse()))).toEqual({ name: 'InvalidPartOrder', status: 400 });
    expect(await failure(complete('complete/small', uploadId, parts))).toEqual({ name: 'EntityTooSmall', status: 400 });
    // The same small part last is allowed.
    expect(await complete('complete/small', uploadId, [parts[0]!])).toMatch(/-1"$/);
  });

  it('tags a part copied from a completed upload with the MD5 of its bytes', async () => {
    const bodies = [randomBytes(MIN_PART_BYTES), randomBytes(20)];
    const { uploadId, etags } = await uploadWith('complete/source', bodies);
    await complete('complete/source', uploadId, etags.map((ETag, i) => ({ PartNumber: i + 1, ETag })));
    const { UploadId } = await s3().send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'complete/copy' }));
    const copied = await s3().send(new UploadPartCopyCommand({ Bucket: bucket, Key: 'complete/copy', UploadId, PartNumber: 1, CopySource: `${bucket}/complete/source` }));
    expect(copied.CopyPartResult?.ETag).toBe(`"${md5(Buffer.concat(bodies)).toString('hex')}"`);
  });
});
