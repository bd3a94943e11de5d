import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { withUnsignedPayload } from '../../../functions/platform/s3-unsigned-payload';

/**
 * The S3 client signs UNSIGNED-PAYLOAD instead of hashing the body, for a request sent and for a
 * pre-signed URL alike; the request stand-in captures what would go on the wire and answers 200.
 */
function capturingClient(): { client: S3Client; sent: { headers: Record<string, string> }[] } {
  const sent: { headers: Record<string, string> }[] = [];
  const client = new S3Client({
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKID', secretAccessKey: 'SECRET' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    requestHandler: {
      handle: async (request: { headers: Record<string, string> }) => {
        sent.push({ headers: { ...request.headers } });
        return { response: { statusCode: 200, headers: {}, body: undefined } };
      },
    } as never,
  });
  return { client, sent };
}

describe('withUnsignedPayload', () => {
  it('signs UNSIGNED-PAYLOAD for a body instead of its SHA-256', async () => {
    const plain = capturingClient();
    await plain.client.send(new PutObjectCommand({ Bucket: 'b', Key: 'k', Body: 'x'.repeat(1000) }));
    // Without it the SDK sends the body's hash (the premise of the change).
    expect(plain.sent[0]!.headers['x-amz-content-sha256']).toMatch(/^[0-9a-f]{64}$/);

    const unsigned = capturingClient();
    withUnsignedPayload(unsigned.client);
    await unsigned.client.send(new PutObjectCommand({ Bucket: 'b', Key: 'k', Body: 'x'.repeat(1000) }));
    expect(unsigned.sent[0]!.headers['x-amz-content-sha256']).toBe('UNSIGNED-PAYLOAD');
    expect(unsigned.sent[0]!.headers.authorization).toContain('SignedHeaders=');
    expect(unsigned.sent[0]!.headers.authorization).toContain('x-amz-content-sha256');
  });

  it('leaves pre-signed URLs as they were', async () => {
    const command = () => new PutObjectCommand({ Bucket: 'b', Key: 'k', ContentType: 'text/csv', ContentLength: 10 });
    const options = { expiresIn: 60, signableHeaders: new Set(['content-type', 'content-length']), signingDate: new Date('2026-11-26T00:00:00Z') };
    const before = await getSignedUrl(capturingClient().client, command(), options);
    const after = await getSignedUrl(withUnsignedPayload(capturingClient().client), command(), options);
    expect(after).toBe(before);
  });
});
