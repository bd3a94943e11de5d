import type { S3Client } from '@aws-sdk/client-s3';

/**
 * Requests sign `UNSIGNED-PAYLOAD` in place of the body's SHA-256, as S3 allows (SigV4 for S3,
 * "Signature calculations for the Authorization header": the content hash may be UNSIGNED-PAYLOAD;
 * over TLS, which every AWS endpoint is, the body's integrity is the connection's). Without it the
 * SDK hashes every string or Buffer body before sending it: a bulk job's part files are gigabytes,
 * and in the local runtime that hashing was a tenth of its CPU time.
 */
export function withUnsignedPayload(client: S3Client): S3Client {
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers?: Record<string, string>; body?: unknown } | undefined;
      // Only a body the signer would hash (a stream is sent unsigned anyway; a pre-signed URL has none).
      const hashed = typeof request?.body === 'string' || ArrayBuffer.isView(request?.body);
      if (hashed && request?.headers && request.headers['x-amz-content-sha256'] === undefined) request.headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
      return next(args);
    },
    { step: 'build', name: 'haleUnsignedPayload' },
  );
  return client;
}
