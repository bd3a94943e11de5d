import { BUCKETS } from '../../../functions/platform/resources';
import { objectStore } from '../../../functions/platform/s3-object-store';
import { useEmbeddedS3 } from '../helpers/embedded-s3';

/**
 * Listings longer than one page (1,000 keys) through the runtime's embedded S3, as a bulk job of more
 * than ~330 batches lists its part files: s3rver's continuation tokens use single DES, which OpenSSL 3
 * lacks, and every such listing answered InternalError until local/s3rver-des.ts.
 */

const BUCKET = BUCKETS.artifacts.localName;
useEmbeddedS3();

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
  }, 120_000);
});
