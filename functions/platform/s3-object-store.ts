import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3 } from './aws-clients';
import {
  type ConcatenationPart,
  type ListedObject,
  ObjectNotFoundError,
  type ObjectStore,
  type StoredObject,
  type StreamingObjectStore,
} from './ports';
import { DELETE_BATCH, MAX_PARTS, MIN_PART_BYTES } from './s3-limits';

/** Attempts of a conditional put that S3 answers 409 ConditionalRequestConflict (a concurrent conditional write). */
const CONFLICT_ATTEMPTS = 5;

/** Parts uploaded or copied at once by concatenate(). */
const PART_CONCURRENCY = 8;

/** Runs tasks with at most `limit` at once; `drain` waits for all and rethrows the first failure. */
function taskPool(limit: number) {
  const running = new Set<Promise<void>>();
  let failure: unknown;
  return {
    async run(task: () => Promise<void>): Promise<void> {
      if (failure) throw failure;
      const promise: Promise<void> = task()
        .catch((error: unknown) => {
          failure ??= error;
        })
        .finally(() => running.delete(promise));
      running.add(promise);
      while (running.size >= limit) await Promise.race(running);
    },
    async drain(): Promise<void> {
      await Promise.all(running);
      if (failure) throw failure;
    },
  };
}

function isMissing(error: unknown): boolean {
  return error instanceof NoSuchKey || error instanceof NotFound;
}

export class S3ObjectStore implements ObjectStore, StreamingObjectStore {
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

  async open(bucket: string, key: string): Promise<AsyncIterable<Uint8Array>> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      // In Node the body is a Readable, which is async-iterable.
      return out.Body as unknown as AsyncIterable<Uint8Array>;
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(`No object ${key} in ${bucket}`);
      throw error;
    }
  }

  async *list(bucket: string, prefix: string, startAfter?: string): AsyncIterable<ListedObject> {
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: continuationToken, StartAfter: continuationToken ? undefined : startAfter }),
      );
      for (const object of page.Contents ?? []) if (object.Key) yield { key: object.Key, size: object.Size ?? 0 };
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  /**
   * A multipart upload whose parts are the sources in order: a source of at least MIN_PART_BYTES that
   * starts a part is copied by S3 (UploadPartCopy: its bytes never pass through here); smaller ones,
   * and text, are gathered until a part is full, then uploaded. Memory holds at most one part being
   * gathered (under MIN_PART_BYTES plus the source that fills it) per upload in flight.
   */
  async concatenate(bucket: string, key: string, parts: AsyncIterable<ConcatenationPart>, contentType: string): Promise<number> {
    const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }));
    const uploadId = created.UploadId!;
    const completed: CompletedPart[] = [];
    const pool = taskPool(PART_CONCURRENCY);
    let gathered: Buffer[] = [];
    let gatheredBytes = 0;
    let partNumber = 0;
    let size = 0;
    const nextPart = () => {
      partNumber += 1;
      if (partNumber > MAX_PARTS) throw new Error(`${key} would need more than ${MAX_PARTS} parts`);
      return partNumber;
    };
    const uploadGathered = () => {
      const number = nextPart();
      const body = Buffer.concat(gathered);
      gathered = [];
      gatheredBytes = 0;
      return pool.run(async () => {
        const out = await this.client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: number, Body: body }));
        completed.push({ PartNumber: number, ETag: out.ETag });
      });
    };
    try {
      for await (const part of parts) {
        if ('text' in part) {
          const bytes = Buffer.from(part.text);
          gathered.push(bytes);
          gatheredBytes += bytes.length;
          size += bytes.length;
        } else if (gatheredBytes === 0 && part.size >= MIN_PART_BYTES) {
          const number = nextPart();
          size += part.size;
          await pool.run(async () => {
            const out = await this.client.send(
              new UploadPartCopyCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: number, CopySource: `${bucket}/${encodeURIComponent(part.key)}` }),
            );
            completed.push({ PartNumber: number, ETag: out.CopyPartResult?.ETag });
          });
        } else {
          const bytes = (await this.get(bucket, part.key)).body;
          gathered.push(bytes);
          gatheredBytes += bytes.length;
          size += bytes.length;
        }
        if (gatheredBytes >= MIN_PART_BYTES) await uploadGathered();
      }
      // The last part may be smaller than MIN_PART_BYTES; an empty result is one empty part.
      if (gatheredBytes > 0 || partNumber === 0) await uploadGathered();
      await pool.drain();
      completed.sort((a, b) => a.PartNumber! - b.PartNumber!);
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: completed } }));
      return size;
    } catch (error) {
      await pool.drain().catch(() => undefined);
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
      throw error;
    }
  }

  async startMultipart(bucket: string, key: string, contentType: string): Promise<string> {
    const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }));
    return created.UploadId!;
  }

  async writePart(bucket: string, key: string, uploadId: string, partNumber: number, sources: readonly ConcatenationPart[]): Promise<void> {
    const [only] = sources;
    if (sources.length === 1 && only && 'key' in only && only.size >= MIN_PART_BYTES) {
      await this.client.send(
        new UploadPartCopyCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, CopySource: `${bucket}/${encodeURIComponent(only.key)}` }),
      );
      return;
    }
    const length = sources.reduce((sum, source) => sum + ('text' in source ? Buffer.byteLength(source.text) : source.size), 0);
    const open = (source: string) => this.open(bucket, source);
    // The part streams from its sources, one after the other: memory holds a chunk, not the part.
    const body = Readable.from(
      (async function* () {
        for (const source of sources) {
          if ('text' in source) yield Buffer.from(source.text);
          else for await (const chunk of await open(source.key)) yield chunk;
        }
      })(),
    );
    await this.client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: body, ContentLength: length }));
  }

  async completeMultipart(bucket: string, key: string, uploadId: string): Promise<number> {
    const parts: CompletedPart[] = [];
    let size = 0;
    let marker: string | undefined;
    do {
      const page = await this.client.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }));
      for (const part of page.Parts ?? []) {
        parts.push({ PartNumber: part.PartNumber, ETag: part.ETag });
        size += part.Size ?? 0;
      }
      marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
    } while (marker);
    await this.client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    return size;
  }

  async presignGet(bucket: string, key: string, options: { expiresInSeconds: number; filename?: string }): Promise<string> {
    const disposition = options.filename ? `attachment; filename="${options.filename.replace(/["\\]/g, '')}"` : undefined;
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: bucket, Key: key, ResponseContentDisposition: disposition }), {
      expiresIn: options.expiresInSeconds,
    });
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
  async presignPut(bucket: string, key: string, options: { contentType: string; expiresInSeconds: number; contentLength?: number }): Promise<string> {
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: options.contentType, ContentLength: options.contentLength }), {
      expiresIn: options.expiresInSeconds,
      signableHeaders: new Set(options.contentLength === undefined ? ['content-type'] : ['content-type', 'content-length']),
    });
  }
}

/** The object store on the shared S3 client (s3rver when HALE_S3_ENDPOINT is set). */
export function objectStore(): ObjectStore & StreamingObjectStore {
  return new S3ObjectStore(s3());
}
