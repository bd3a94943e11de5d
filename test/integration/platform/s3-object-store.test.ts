import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { resetAwsClientsForTests } from '../../../functions/platform/aws-clients';
import { resetConfigForTests } from '../../../functions/platform/config';
import { type ObjectStore, ObjectNotFoundError } from '../../../functions/platform/ports';
import { objectStore } from '../../../functions/platform/s3-object-store';

const BUCKET = 'hale-test-uploads';
let directory: string;
let server: S3rver;
let store: ObjectStore;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'hale-s3-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, resetOnClose: true, configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  // The factory and the shared client exactly as the local runtime configures them.
  process.env.HALE_RUNTIME = 'local';
  process.env.HALE_S3_ENDPOINT = `http://127.0.0.1:${port}`;
  resetConfigForTests();
  resetAwsClientsForTests();
  store = objectStore();
});

afterAll(async () => {
  resetAwsClientsForTests();
  await server.close();
  await rm(directory, { recursive: true, force: true });
});

describe('S3ObjectStore against s3rver', () => {
  it('puts, heads, gets and deletes an object', async () => {
    await store.put(BUCKET, 'jobs/a/report.json', '{"ok":true}', 'application/json');
    expect(await store.head(BUCKET, 'jobs/a/report.json')).toEqual({ size: 11, contentType: 'application/json' });
    const stored = await store.get(BUCKET, 'jobs/a/report.json');
    expect(stored.body.toString('utf8')).toBe('{"ok":true}');
    expect(stored.contentType).toBe('application/json');
    await store.delete(BUCKET, 'jobs/a/report.json');
    expect(await store.head(BUCKET, 'jobs/a/report.json')).toBeUndefined();
    await expect(store.get(BUCKET, 'jobs/a/report.json')).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('deletes every object under a prefix and nothing else', async () => {
    const keys = Array.from({ length: 7 }, (_, i) => `jobs/b/part-${i}.bin`);
    await Promise.all(keys.map((key) => store.put(BUCKET, key, Buffer.from([1, 2, 3]), 'application/octet-stream')));
    await store.put(BUCKET, 'jobs/bb/keep.bin', Buffer.from([9]), 'application/octet-stream');
    expect(await store.deletePrefix(BUCKET, 'jobs/b/')).toBe(7);
    for (const key of keys) expect(await store.head(BUCKET, key)).toBeUndefined();
    expect(await store.head(BUCKET, 'jobs/bb/keep.bin')).toBeDefined();
    expect(await store.deletePrefix(BUCKET, 'jobs/b/')).toBe(0);
    await expect(store.deletePrefix(BUCKET, '')).rejects.toThrow('non-empty prefix');
  });

  it('issues a pre-signed PUT that signs the content type and accepts an upload', async () => {
    const url = new URL(await store.presignPut(BUCKET, 'uploads/c/lab.pdf', { contentType: 'application/pdf', expiresInSeconds: 300 }));
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-type');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    // A checksum of the empty body baked into the URL would make real S3 reject every upload.
    expect([...url.searchParams.keys()].filter((name) => name.toLowerCase().includes('checksum'))).toEqual([]);

    const pdf = Buffer.from('%PDF-1.7\n%test\n');
    const response = await fetch(url, { method: 'PUT', body: pdf, headers: { 'content-type': 'application/pdf' } });
    expect(response.status).toBe(200);
    expect(await store.head(BUCKET, 'uploads/c/lab.pdf')).toEqual({ size: pdf.length, contentType: 'application/pdf' });
    expect((await store.get(BUCKET, 'uploads/c/lab.pdf')).body.equals(pdf)).toBe(true);
  });
});
