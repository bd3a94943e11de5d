import { copyFile, link, mkdir, readFile, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type S3rver from 's3rver';

/**
 * UploadPartCopy (PUT /<bucket>/<key>?partNumber=N&uploadId=U with x-amz-copy-source), which s3rver
 * answers NotImplemented: a part of a multipart upload made from an existing object, without its bytes
 * passing through the client — how bulk scoring assembles its result files in AWS. A whole-object
 * copy links the stored file into the upload (s3rver keeps parts as files beside an `.md5`), so it
 * costs no copying here either; a ranged copy streams the range into the part.
 */

/** The parts of the s3rver filesystem store this relies on (s3rver 3.7.1, lib/stores/filesystem.js). */
interface FilesystemStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  getObject(bucket: string, key: string, options?: { start?: number; end?: number }): Promise<{ content: NodeJS.ReadableStream } | null>;
  putPart(bucket: string, uploadId: string, partNumber: number, content: NodeJS.ReadableStream): Promise<{ md5: string }>;
}

export function isUploadPartCopy(req: IncomingMessage): boolean {
  if (req.method !== 'PUT' || !req.headers['x-amz-copy-source']) return false;
  const query = new URL(req.url ?? '/', 'http://local').searchParams;
  return query.has('uploadId') && query.has('partNumber');
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

export async function uploadPartCopy(app: S3rver, req: IncomingMessage, res: ServerResponse): Promise<void> {
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
