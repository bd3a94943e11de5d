import { existsSync } from 'node:fs';
import path from 'node:path';
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
