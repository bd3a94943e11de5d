import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import fc from 'fast-check';
import { expectedSignature, isPresigned } from '../../../local/presigned-signature';

/**
 * The local S3's check of pre-signed URLs computes the signature the AWS SDK computed, for any key,
 * content type and size; and a request that differs from the signed one in a signed header (another
 * Content-Length, another Content-Type) gets another signature, which S3 refuses.
 */

const SECRET = 'S3RVER';
const client = new S3Client({
  region: 'us-east-1',
  endpoint: 'http://127.0.0.1:4569',
  forcePathStyle: true,
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: SECRET },
  requestChecksumCalculation: 'WHEN_REQUIRED',
});

async function presign(key: string, contentType: string, contentLength: number): Promise<URL> {
  return new URL(
    await getSignedUrl(client, new PutObjectCommand({ Bucket: 'hale-uploads', Key: key, ContentType: contentType, ContentLength: contentLength }), {
      expiresIn: 3600,
      signableHeaders: new Set(['content-type', 'content-length']),
    }),
  );
}

function check(url: URL, headers: Record<string, string>): boolean {
  const target = `${url.pathname}${url.search}`;
  return expectedSignature({ method: 'PUT', url: target, headers: { host: url.host, ...headers } }, SECRET) === url.searchParams.get('X-Amz-Signature');
}

// A `.` or `..` path segment never reaches S3 as signed: every URL client (WHATWG URL, fetch, curl) removes
// dot segments before sending, so such a key cannot be uploaded through a pre-signed URL at all.
const keys = fc
  .array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join('/'))
  .filter((key) => key.split('/').every((segment) => segment !== '.' && segment !== '..'));
const contentTypes = fc.constantFrom('text/csv', 'application/x-ndjson', 'application/pdf');

describe('the pre-signed URL signature check of the local S3', () => {
  it('accepts the request the SDK signed, for any key, type and size', async () => {
    await fc.assert(
      fc.asyncProperty(keys, contentTypes, fc.integer({ min: 1, max: 2 ** 31 }), async (key, type, length) => {
        const url = await presign(key, type, length);
        expect(isPresigned(`${url.pathname}${url.search}`)).toBe(true);
        expect(check(url, { 'content-type': type, 'content-length': String(length) })).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses another Content-Length or Content-Type than the signed one', async () => {
    await fc.assert(
      fc.asyncProperty(keys, contentTypes, fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: -1000, max: 1000 }).filter((d) => d !== 0), async (key, type, length, delta) => {
        const url = await presign(key, type, length);
        expect(check(url, { 'content-type': type, 'content-length': String(length + delta) })).toBe(false);
        expect(check(url, { 'content-type': `${type}; charset=utf-8`, 'content-length': String(length) })).toBe(false);
        expect(check(url, { 'content-type': type })).toBe(false);
      }),
      { numRuns: 40 },
    );
  });

  it('does not take a request without a query-string signature for a pre-signed one', () => {
    expect(isPresigned('/hale-uploads/a.csv')).toBe(false);
    expect(isPresigned('/hale-uploads/a.csv?uploadId=1&partNumber=2')).toBe(false);
  });
});
