import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type S3rver from 's3rver';
import S3Error from 's3rver/lib/models/error';
import { MIN_PART_BYTES } from '../functions/platform/s3-limits';

/**
 * The multipart-upload operations s3rver lacks (it answers NotImplemented) or does otherwise than S3,
 * which bulk scoring uses to assemble its result files as it does in AWS:
 * - UploadPartCopy (PUT /<bucket>/<key>?partNumber=N&uploadId=U with x-amz-copy-source): a part made
 *   from an existing object without its bytes passing through the client. A whole-object copy links
 *   the stored file into the upload (s3rver keeps parts as files beside an `.md5`), so it costs no
 *   copying here either; a ranged copy streams the range into the part.
 * - ListParts (GET /<bucket>/<key>?uploadId=U): the parts uploaded so far, with their ETags and sizes,
 *   a page of at most `max-parts` (default and most 1,000) after `part-number-marker`.
 * - CompleteMultipartUpload (completeMultipartAsS3): checked and tagged as S3 does.
 */

/** The parts of the s3rver filesystem store this relies on (s3rver 3.7.1, lib/stores/filesystem.js). */
interface FilesystemStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  getObject(bucket: string, key: string, options?: { start?: number; end?: number }): Promise<{ content: NodeJS.ReadableStream } | null>;
  putPart(bucket: string, uploadId: string, partNumber: number, content: NodeJS.ReadableStream): Promise<{ md5: string }>;
  putObjectMultipart(bucket: string, uploadId: string, parts: readonly ListedPart[]): Promise<{ md5: string; size: number }>;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
}

/** A part as CompleteMultipartUpload's body names it (s3rver has taken the quotes off the ETag). */
interface ListedPart {
  number: number;
  etag: string;
}

/** Whether a request is one of the operations served here rather than by s3rver. */
export function isMultipartExtra(req: IncomingMessage): boolean {
  const query = new URL(req.url ?? '/', 'http://local').searchParams;
  if (!query.has('uploadId')) return false;
  if (req.method === 'PUT') return Boolean(req.headers['x-amz-copy-source']) && query.has('partNumber');
  return req.method === 'GET';
}

export function serveMultipartExtra(app: S3rver, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return req.method === 'GET' ? listParts(app, req, res) : uploadPartCopy(app, req, res);
}

function xmlError(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

function sourceOf(header: string): { bucket: string; key: string } {
  const decoded = decodeURIComponent(header.split('?')[0]!).replace(/^\//, '');
  const slash = decoded.indexOf('/');
  return { bucket: decoded.slice(0, slash), key: decoded.slice(slash + 1) };
}

function rangeOf(header: string | undefined): { start: number; end: number } | undefined {
  const match = header ? /^bytes=(\d+)-(\d+)$/.exec(header) : null;
  return match ? { start: Number(match[1]), end: Number(match[2]) } : undefined;
}

async function uploadPartCopy(app: S3rver, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // The store is s3rver's own; its type declarations do not describe it.
  const store = (app as unknown as { store: FilesystemStore }).store;
  const url = new URL(req.url ?? '/', 'http://local');
  const [, bucket] = url.pathname.split('/');
  const uploadId = url.searchParams.get('uploadId')!;
  const partNumber = Number(url.searchParams.get('partNumber'));
  const source = sourceOf(String(req.headers['x-amz-copy-source']));
  const range = rangeOf(req.headers['x-amz-copy-source-range'] as string | undefined);
  const uploadDir = path.join(store.getResourcePath(bucket!, undefined, 'uploads'), uploadId);
  if (!(await stat(path.join(uploadDir, 'key')).catch(() => undefined))) return xmlError(res, 404, 'NoSuchUpload', 'The specified upload does not exist.');
  const sourceFile = store.getResourcePath(source.bucket, source.key, 'object');
  if (!(await stat(sourceFile).catch(() => undefined))) return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
  let md5: string;
  if (range) {
    const object = await store.getObject(source.bucket, source.key, range);
    ({ md5 } = await store.putPart(bucket!, uploadId, partNumber, object!.content));
  } else {
    const partFile = path.join(uploadDir, String(partNumber));
    await mkdir(uploadDir, { recursive: true });
    await rm(partFile, { force: true });
    await link(sourceFile, partFile).catch(() => copyFile(sourceFile, partFile));
    const sourceTag = await readFile(store.getResourcePath(source.bucket, source.key, 'object.md5'), 'utf8');
    // A part's ETag is the MD5 of its bytes; an object completed from parts is tagged otherwise ("…-N").
    md5 = sourceTag.includes('-') ? await md5OfFile(partFile) : sourceTag;
    await writeFile(`${partFile}.md5`, md5);
  }
  res
    .writeHead(200, { 'content-type': 'application/xml' })
    .end(`<?xml version="1.0" encoding="UTF-8"?><CopyPartResult><LastModified>${new Date().toISOString()}</LastModified><ETag>"${md5}"</ETag></CopyPartResult>`);
}

const MAX_PARTS_PER_PAGE = 1000;

async function listParts(app: S3rver, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const store = (app as unknown as { store: FilesystemStore }).store;
  const url = new URL(req.url ?? '/', 'http://local');
  const [, bucket, ...key] = url.pathname.split('/');
  const uploadId = url.searchParams.get('uploadId')!;
  const marker = Number(url.searchParams.get('part-number-marker') ?? 0);
  const maxParts = Math.min(MAX_PARTS_PER_PAGE, Number(url.searchParams.get('max-parts') ?? MAX_PARTS_PER_PAGE));
  const uploadDir = path.join(store.getResourcePath(bucket!, undefined, 'uploads'), uploadId);
  if (!(await stat(path.join(uploadDir, 'key')).catch(() => undefined))) return xmlError(res, 404, 'NoSuchUpload', 'The specified upload does not exist.');
  const numbers = (await readdir(uploadDir))
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((n) => n > marker)
    .sort((a, b) => a - b);
  const page = numbers.slice(0, maxParts);
  const parts = await Promise.all(
    page.map(async (n) => {
      const file = path.join(uploadDir, String(n));
      const [info, md5] = await Promise.all([stat(file), readFile(`${file}.md5`, 'utf8')]);
      return `<Part><PartNumber>${n}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${info.size}</Size></Part>`;
    }),
  );
  const truncated = numbers.length > page.length;
  res
    .writeHead(200, { 'content-type': 'application/xml' })
    .end(
      `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult><Bucket>${bucket}</Bucket><Key>${decodeURIComponent(key.join('/'))}</Key><UploadId>${uploadId}</UploadId>` +
        `<PartNumberMarker>${marker}</PartNumberMarker><NextPartNumberMarker>${page.at(-1) ?? marker}</NextPartNumberMarker><MaxParts>${maxParts}</MaxParts>` +
        `<IsTruncated>${truncated}</IsTruncated>${parts.join('')}</ListPartsResult>`,
    );
}

async function md5OfFile(file: string): Promise<string> {
  const hash = createHash('md5');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** S3's ETag of an object completed from parts: the MD5 of the parts' binary MD5s, a dash, their count. */
function multipartETag(partMd5s: readonly string[]): string {
  const hash = createHash('md5');
  for (const md5 of partMd5s) hash.update(Buffer.from(md5, 'hex'));
  return `${hash.digest('hex')}-${partMd5s.length}`;
}

/**
 * CompleteMultipartUpload as S3 does it, in place of s3rver's store method, which re-read and hashed the
 * whole object (2.2 GB for a 100,000-line bulk job's results) and checked nothing. The listed parts must
 * be in ascending order (InvalidPartOrder) and the upload's own, with their ETags (InvalidPart); every
 * one but the last must hold at least 5 MiB (EntityTooSmall). The object gets S3's multipart ETag. Its
 * file is the parts' files joined, written beside them and moved into place, so a reader never sees
 * half of it; the upload's folder goes with it.
 */
export function completeMultipartAsS3(app: S3rver): void {
  const store = (app as unknown as { store: FilesystemStore }).store;
  store.putObjectMultipart = async (bucket, uploadId, parts) => {
    const uploadDir = path.join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
    const key = await readFile(path.join(uploadDir, 'key'), 'utf8').catch(() => {
      throw new S3Error('NoSuchUpload', 'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.');
    });
    const metadata = JSON.parse(await readFile(path.join(uploadDir, 'metadata'), 'utf8')) as Record<string, string>;
    if (parts.some((part, i) => i > 0 && part.number <= parts[i - 1]!.number)) {
      throw new S3Error('InvalidPartOrder', 'The list of parts was not in ascending order. The parts list must be specified in order by part number.');
    }
    const stored = await Promise.all(
      parts.map(async (part) => {
        const file = path.join(uploadDir, String(part.number));
        const [info, md5] = await Promise.all([stat(file).catch(() => undefined), readFile(`${file}.md5`, 'utf8').catch(() => undefined)]);
        if (!info || md5 !== part.etag) {
          throw new S3Error('InvalidPart', 'One or more of the specified parts could not be found. The part might not have been uploaded, or the specified entity tag might not have matched the part\'s entity tag.');
        }
        return { file, md5, size: info.size };
      }),
    );
    if (stored.some((part, i) => i < stored.length - 1 && part.size < MIN_PART_BYTES)) {
      throw new S3Error('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.');
    }
    const joined = path.join(uploadDir, 'joined');
    const partsInOrder = async function* () {
      for (const part of stored) yield* createReadStream(part.file, { highWaterMark: JOIN_CHUNK_BYTES });
    };
    await pipeline(partsInOrder, createWriteStream(joined)).catch(async (error: unknown) => {
      await rm(joined, { force: true });
      throw error;
    });
    const objectPath = store.getResourcePath(bucket, key, 'object');
    await mkdir(path.dirname(objectPath), { recursive: true });
    await rename(joined, objectPath);
    const md5 = multipartETag(stored.map((part) => part.md5));
    await store.putMetadata(bucket, key, metadata, md5);
    await rm(uploadDir, { recursive: true, force: true });
    return { md5, size: stored.reduce((sum, part) => sum + part.size, 0) };
  };
}

/** Parts are joined a mebibyte at a time: the copying is the kernel's, not a loop of small chunks. */
const JOIN_CHUNK_BYTES = 1024 * 1024;
