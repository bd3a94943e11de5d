import { copyFile, link, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type S3rver from 's3rver';

/**
 * The multipart-upload operations s3rver lacks (it answers NotImplemented), which bulk scoring uses to
 * assemble its result files as it does in AWS:
 * - UploadPartCopy (PUT /<bucket>/<key>?partNumber=N&uploadId=U with x-amz-copy-source): a part made
 *   from an existing object without its bytes passing through the client. A whole-object copy links
 *   the stored file into the upload (s3rver keeps parts as files beside an `.md5`), so it costs no
 *   copying here either; a ranged copy streams the range into the part.
 * - ListParts (GET /<bucket>/<key>?uploadId=U): the parts uploaded so far, with their ETags and sizes,
 *   a page of at most `max-parts` (default and most 1,000) after `part-number-marker`.
 */

/** The parts of the s3rver filesystem store this relies on (s3rver 3.7.1, lib/stores/filesystem.js). */
interface FilesystemStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  getObject(bucket: string, key: string, options?: { start?: number; end?: number }): Promise<{ content: NodeJS.ReadableStream } | null>;
  putPart(bucket: string, uploadId: string, partNumber: number, content: NodeJS.ReadableStream): Promise<{ md5: string }>;
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
    md5 = await readFile(store.getResourcePath(source.bucket, source.key, 'object.md5'), 'utf8');
    await copyFile(store.getResourcePath(source.bucket, source.key, 'object.md5'), `${partFile}.md5`);
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
