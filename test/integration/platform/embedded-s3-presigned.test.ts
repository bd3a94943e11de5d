import { BUCKETS } from '../../../functions/platform/resources';
import { objectStore } from '../../../functions/platform/s3-object-store';
import { useEmbeddedS3 } from '../helpers/embedded-s3';

/**
 * Pre-signed PUTs through the runtime's embedded S3 take only the request they signed, as S3 does:
 * with the Content-Length signed (a bulk upload URL), a file of any other size is refused with 403
 * SignatureDoesNotMatch and nothing is stored; so is another Content-Type.
 */

const BUCKET = BUCKETS.uploads.localName;
useEmbeddedS3();

const put = (url: string, body: Buffer, contentType: string) => fetch(url, { method: 'PUT', body: new Uint8Array(body), headers: { 'content-type': contentType } });

describe('the embedded S3, pre-signed PUTs', () => {
  it('takes exactly the signed size: one byte more or less is 403 SignatureDoesNotMatch and stores nothing', async () => {
    const store = objectStore();
    const body = Buffer.from('uid_ext,date_of_birth,score_date\nx,1970-01-01,2025-01-01\n');
    const url = await store.presignPut(BUCKET, 'bulk/d/input', { contentType: 'text/csv', contentLength: body.length, expiresInSeconds: 300 });
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(expect.arrayContaining(['content-length', 'content-type']));
    for (const other of [Buffer.concat([body, Buffer.from('y')]), body.subarray(0, body.length - 1)]) {
      const refused = await put(url, other, 'text/csv');
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
      expect(await store.head(BUCKET, 'bulk/d/input')).toBeUndefined();
    }
    expect((await put(url, body, 'application/x-ndjson')).status).toBe(403);
    expect((await put(url, body, 'text/csv')).status).toBe(200);
    expect(await store.head(BUCKET, 'bulk/d/input')).toEqual({ size: body.length, contentType: 'text/csv' });
  });

  it('still serves pre-signed GETs (with a download name) and PUTs that sign the content type only', async () => {
    const store = objectStore();
    const pdf = Buffer.from('%PDF-1.7\n%test\n');
    const putUrl = await store.presignPut(BUCKET, 'lab/e/lab document.pdf', { contentType: 'application/pdf', expiresInSeconds: 300 });
    expect((await put(putUrl, pdf, 'text/plain')).status).toBe(403);
    expect((await put(putUrl, pdf, 'application/pdf')).status).toBe(200);
    const download = await fetch(await store.presignGet(BUCKET, 'lab/e/lab document.pdf', { expiresInSeconds: 300, filename: 'results (1).pdf' }));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="results (1).pdf"');
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
  });
});
