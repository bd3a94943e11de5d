import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type S3rver from 's3rver';
import S3Object from 's3rver/lib/models/object';

/**
 * ListObjects for s3rver's file store that reads only the folders under the prefix, and lists keys in
 * S3's order. s3rver walked every file of the bucket's folders on the prefix's path with a synchronous
 * stat of each, for every page: a bulk job of 100,000 lines keeps ~10,000 files in one folder and lists
 * them ~100 times (planning, each assembling part, the summary, the deletes), which held S3's event
 * loop for seconds and grew its heap by ~100 MB at a time. It also listed in file-name order, which is
 * not S3's where a key is a prefix of another (`a/x` came before `a-b`).
 *
 * Here a page costs one directory read per folder under the prefix (no stat) and a sort of the keys
 * found; only the keys of the page are read for their metadata, as s3rver does. Paging, delimiters and
 * common prefixes behave as s3rver's did: MaxKeys counts keys, and the continuation token is the last
 * key of the page.
 */

/** The parts of s3rver's FilesystemStore (lib/stores/filesystem.js) used here. */
interface ListableStore {
  getBucketPath(bucket: string): string;
  getMetadata(bucket: string, key: string): Promise<Record<string, string | number>>;
  listObjects(bucket: string, options: ListOptions): Promise<Listing>;
}

interface ListOptions {
  delimiter?: string;
  startAfter?: string;
  prefix?: string;
  maxKeys?: number;
}

interface Listing {
  objects: S3Object[];
  commonPrefixes: string[];
  isTruncated: boolean;
}

/** s3rver stores an object's bytes as `<last key segment>._S3rver_object` in the folders of its other segments. */
const OBJECT_SUFFIX = '._S3rver_object';
/** Where s3rver keeps unfinished multipart uploads, at a bucket's root: no objects there. */
const UPLOADS_FOLDER = '._S3rver_uploads';

/**
 * A UTF-16 code unit's place in code point order: surrogates (0xD800–0xDFFF, the halves of code points
 * above U+FFFF) after every other unit, U+E000–U+FFFF moved down to make room.
 */
function rank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}

/** S3 lists keys in the binary order of their UTF-8 bytes, which is the order of their code points. */
function byUtf8Bytes(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

/** Every key stored under `folder` (the key of its files so far being `keyPrefix`), whose key starts with `prefix`. */
async function keysUnder(folder: string, keyPrefix: string, prefix: string, keys: string[]): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
    throw error;
  });
  const descents: Promise<void>[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) {
      if (entry.name === UPLOADS_FOLDER && keyPrefix === '') continue;
      const next = `${keyPrefix}${entry.name}/`;
      // Only folders whose keys can start with the prefix, or that the prefix goes into.
      if (next.startsWith(prefix) || prefix.startsWith(next)) descents.push(keysUnder(path.join(folder, entry.name), next, prefix, keys));
    } else if (entry.name.endsWith(OBJECT_SUFFIX)) {
      const key = `${keyPrefix}${entry.name.slice(0, -OBJECT_SUFFIX.length)}`;
      if (key.startsWith(prefix)) keys.push(key);
    }
  }
  await Promise.all(descents);
}

/** The folder and key prefix to start from: the prefix's last whole segment (`bulk/job/pa` starts in `bulk/job`). */
function startingPoint(bucketPath: string, prefix: string): { folder: string; keyPrefix: string } {
  const lastSlash = prefix.lastIndexOf('/');
  if (lastSlash < 0) return { folder: bucketPath, keyPrefix: '' };
  const keyPrefix = prefix.slice(0, lastSlash + 1);
  return { folder: path.join(bucketPath, ...keyPrefix.split('/').filter(Boolean)), keyPrefix };
}

export function listWithoutStats(app: S3rver): void {
  // The store is s3rver's own; its type declarations do not describe it.
  const store = (app as unknown as { store: ListableStore }).store;
  store.listObjects = async (bucket, { delimiter = '', startAfter = '', prefix = '', maxKeys = Number.POSITIVE_INFINITY }) => {
    const { folder, keyPrefix } = startingPoint(store.getBucketPath(bucket), prefix);
    const found: string[] = [];
    await keysUnder(folder, keyPrefix, prefix, found);
    const keys: string[] = [];
    const commonPrefixes = new Set<string>();
    let isTruncated = false;
    for (const key of found.sort(byUtf8Bytes)) {
      if (byUtf8Bytes(key, startAfter) <= 0) continue;
      const cut = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
      if (cut >= 0) {
        commonPrefixes.add(key.slice(0, cut + delimiter.length));
      } else if (keys.length < maxKeys) {
        keys.push(key);
      } else {
        isTruncated = true;
        break;
      }
    }
    const objects = await Promise.all(
      keys.map((key) =>
        store.getMetadata(bucket, key).then(
          (metadata) => new S3Object(bucket, key, null, metadata),
          // Deleted since the folder was read.
          (error: NodeJS.ErrnoException) => {
            if (error.code === 'ENOENT') return undefined;
            throw error;
          },
        ),
      ),
    );
    return { objects: objects.filter((object) => object !== undefined), commonPrefixes: [...commonPrefixes].sort(byUtf8Bytes), isTruncated };
  };
}
