import { existsSync } from 'node:fs';
import { Agent, request } from 'node:http';
import path from 'node:path';
import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, ListObjectsV2Command, UploadPartCommand } from '@aws-sdk/client-s3';
import fc from 'fast-check';
import { s3 as s3Client } from '../../../functions/platform/aws-clients';
import { BUCKETS } from '../../../functions/platform/resources';
import { objectStore } from '../../../functions/platform/s3-object-store';
import { useEmbeddedS3 } from '../helpers/embedded-s3';

/**
 * Listings longer than one page (1,000 keys) through the runtime's embedded S3, as a bulk job of more
 * than ~330 batches lists its part files: s3rver's continuation tokens use single DES, which OpenSSL 3
 * lacks, and every such listing answered InternalError until local/s3rver-des.ts.
 */

const BUCKET = BUCKETS.artifacts.localName;
const s3 = useEmbeddedS3();

describe('the embedded S3, listing more than a page', () => {
  it('lists 1,203 keys in key order across pages, after a given key too, and deletes them all by prefix', async () => {
    const store = objectStore();
    const keys = Array.from({ length: 1203 }, (_, i) => `bulk/job/parts/${String(i).padStart(12, '0')}.jsonl`);
    for (let i = 0; i < keys.length; i += 100) await Promise.all(keys.slice(i, i + 100).map((key) => store.put(BUCKET, key, 'x', 'application/x-ndjson')));

    const listed: string[] = [];
    for await (const object of store.list(BUCKET, 'bulk/job/parts/')) listed.push(object.key);
    expect(listed).toEqual(keys);
    const after: string[] = [];
    for await (const object of store.list(BUCKET, 'bulk/job/parts/', keys[150])) after.push(object.key);
    expect(after).toEqual(keys.slice(151));

    expect(await store.deletePrefix(BUCKET, 'bulk/job/')).toBe(1203);
    const left: string[] = [];
    for await (const object of store.list(BUCKET, 'bulk/job/')) left.push(object.key);
    expect(left).toEqual([]);
    // The folders the keys made are gone with them (local/s3rver-deletes.ts).
    expect(existsSync(path.join(s3.directory(), 's3', BUCKET, 'bulk'))).toBe(false);
  }, 120_000);
});

describe('the embedded S3, deleting', () => {
  it('keeps a folder while a key is left in it, removes it with the last, and deletes at once the keys of one folder', async () => {
    const store = objectStore();
    const folder = path.join(s3.directory(), 's3', BUCKET, 'deleting', 'a');
    await store.put(BUCKET, 'deleting/a/one.json', '1', 'application/json');
    await store.put(BUCKET, 'deleting/a/two.json', '2', 'application/json');
    await store.delete(BUCKET, 'deleting/a/one.json');
    expect(existsSync(folder)).toBe(true);
    expect(await store.get(BUCKET, 'deleting/a/two.json').then((o) => o.body.toString())).toBe('2');
    await store.delete(BUCKET, 'deleting/a/two.json');
    expect(existsSync(path.join(s3.directory(), 's3', BUCKET, 'deleting'))).toBe(false);

    const keys = Array.from({ length: 40 }, (_, i) => `deleting/b/${i}.json`);
    await Promise.all(keys.map((key) => store.put(BUCKET, key, 'x', 'application/json')));
    await Promise.all(keys.map((key) => store.delete(BUCKET, key)));
    expect(existsSync(path.join(s3.directory(), 's3', BUCKET, 'deleting'))).toBe(false);
  });
});

describe('the embedded S3, keeping connections', () => {
  /** GET `url` on `agent`: the status, and whether it went over a connection kept from before. */
  const get = (url: string, agent: Agent) =>
    new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
      const req = request(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
      });
      req.on('error', reject).end();
    });

  it('keeps an idle connection open longer than Node’s 5 s, as S3 keeps one about 20 s', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const url = `${process.env.HALE_S3_ENDPOINT}/${BUCKET}?list-type=2&max-keys=1`;
      expect((await get(url, agent)).reused).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      // A connection the server had closed would have left the pool: the request would open a new one.
      expect(await get(url, agent)).toEqual({ status: expect.any(Number), reused: true });
    } finally {
      agent.destroy();
    }
  }, 20_000);
});

describe('the embedded S3, listing as S3 lists (local/s3rver-listing.ts)', () => {
  const utf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

  async function listAll(prefix: string, options: { delimiter?: string; startAfter?: string; pageSize?: number } = {}): Promise<{ keys: string[]; prefixes: string[] }> {
    const keys: string[] = [];
    const prefixes = new Set<string>();
    let token: string | undefined;
    do {
      const page = await s3Client().send(
        new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, Delimiter: options.delimiter, StartAfter: token ? undefined : options.startAfter, ContinuationToken: token, MaxKeys: options.pageSize }),
      );
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
      for (const p of page.CommonPrefixes ?? []) prefixes.add(p.Prefix!);
      token = page.NextContinuationToken;
    } while (token);
    return { keys, prefixes: [...prefixes] };
  }

  it('lists keys in the order of their UTF-8 bytes, after any key, page by page, from a prefix that ends inside a segment', async () => {
    // Above U+FFFF (two UTF-16 units) and just below it: JavaScript's own string order puts them the other way round.
    const segment = fc.constantFrom('a', 'b', 'a-b', 'a.b', 'ab', 'é', 'z', 'A', '0', '\u{1D11E}', '\uFB00');
    const key = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(key, { minLength: 1, maxLength: 10 }), fc.nat(), fc.integer({ min: 1, max: 4 }), async (keys, pick, pageSize) => {
        run += 1;
        const root = `order/${run}/`;
        await Promise.all(keys.map((k) => objectStore().put(BUCKET, root + k, k, 'text/plain')));
        const full = keys.map((k) => root + k).sort(utf8Order);
        expect((await listAll(root, { pageSize })).keys).toEqual(full);
        // A prefix cut inside a key's segment, and a start after one of the keys.
        const cut = root + [...full[pick % full.length]!.slice(root.length)].slice(0, 1 + (pick % 3)).join('');
        const after = full[pick % full.length]!;
        expect((await listAll(cut, { pageSize })).keys).toEqual(full.filter((k) => k.startsWith(cut)));
        expect((await listAll(root, { pageSize, startAfter: after })).keys).toEqual(full.filter((k) => utf8Order(k, after) > 0));
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('groups keys under the delimiter into common prefixes, and never lists unfinished multipart uploads', async () => {
    const store = objectStore();
    for (const key of ['groups/a-b', 'groups/a/x', 'groups/a/y/z', 'groups/b']) await store.put(BUCKET, key, '1', 'text/plain');
    const { UploadId } = await s3Client().send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'groups/pending' }));
    await s3Client().send(new UploadPartCommand({ Bucket: BUCKET, Key: 'groups/pending', UploadId, PartNumber: 1, Body: 'part' }));
    expect(await listAll('groups/', { delimiter: '/' })).toEqual({ keys: ['groups/a-b', 'groups/b'], prefixes: ['groups/a/'] });
    expect((await listAll('')).keys.filter((k) => k.startsWith('groups/'))).toEqual(['groups/a-b', 'groups/a/x', 'groups/a/y/z', 'groups/b']);
    const { ETag } = await s3Client().send(new UploadPartCommand({ Bucket: BUCKET, Key: 'groups/pending', UploadId, PartNumber: 1, Body: 'part' }));
    await s3Client().send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key: 'groups/pending', UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] } }));
    expect((await listAll('groups/', { delimiter: '/' })).keys).toEqual(['groups/a-b', 'groups/b', 'groups/pending']);
  });
});
