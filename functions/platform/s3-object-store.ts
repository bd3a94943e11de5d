import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NotFound,
  NoSuchKey,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3 } from './aws-clients';
import { ObjectNotFoundError, type ObjectStore, type StoredObject } from './ports';

/** Attempts of a conditional put that S3 answers 409 ConditionalRequestConflict (a concurrent conditional write). */
const CONFLICT_ATTEMPTS = 5;

/** DeleteObjects accepts at most 1,000 keys per request (S3 API reference). */
const DELETE_BATCH = 1000;

function isMissing(error: unknown): boolean {
  return error instanceof NoSuchKey || error instanceof NotFound;
}

export class S3ObjectStore implements ObjectStore {
  constructor(private readonly client: S3Client) {}

  async put(bucket: string, key: string, body: Buffer | string, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async putIfAbsent(bucket: string, key: string, body: Buffer | string, contentType: string): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType, IfNoneMatch: '*' }));
        return true;
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status === 412) return false;
        // 409 ConditionalRequestConflict: another conditional write of the key is in flight; S3 asks for a retry.
        if (status !== 409 || attempt >= CONFLICT_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }

  async get(bucket: string, key: string): Promise<StoredObject> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      const body = Buffer.from((await out.Body?.transformToByteArray()) ?? []);
      return { body, contentType: out.ContentType, size: body.length };
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(`No object ${key} in ${bucket}`);
      throw error;
    }
  }

  async head(bucket: string, key: string): Promise<{ size: number; contentType?: string } | undefined> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { size: out.ContentLength ?? 0, contentType: out.ContentType };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(bucket: string, key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  }

  async deletePrefix(bucket: string, prefix: string): Promise<number> {
    // An empty prefix would empty the whole bucket; no caller means that.
    if (prefix === '') throw new TypeError('deletePrefix needs a non-empty prefix');
    let deleted = 0;
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: continuationToken, MaxKeys: DELETE_BATCH }),
      );
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (keys.length > 0) {
        const out = await this.client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
        const failed = out.Errors ?? [];
        if (failed.length > 0) {
          throw new Error(`Could not delete ${failed.length} of ${keys.length} objects under ${prefix}: ${failed[0]?.Code}`);
        }
        deleted += keys.length;
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
    return deleted;
  }

  /**
   * A URL that accepts one PUT of `key` until it expires. The content type is a signed header, so
   * S3 refuses an upload that declares another type (s3rver does not check signatures, S3 does).
   */
  async presignPut(bucket: string, key: string, options: { contentType: string; expiresInSeconds: number }): Promise<string> {
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: options.contentType }), {
      expiresIn: options.expiresInSeconds,
      signableHeaders: new Set(['content-type']),
    });
  }
}

/** The object store on the shared S3 client (s3rver when HALE_S3_ENDPOINT is set). */
export function objectStore(): ObjectStore {
  return new S3ObjectStore(s3());
}
