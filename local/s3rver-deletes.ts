import { opendir, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Deletes for s3rver's file store that do not read whole folders. s3rver removes the folders a deleted
 * key leaves empty by listing each one (synchronously) after every delete: a bulk job's part files,
 * thousands in one folder, made deleting them quadratic and held the runtime's event loop meanwhile. One
 * entry read tells whether a folder is empty. Deletes of siblings run at once (DeleteObjects): a folder
 * another delete removed first, or a key written into it meanwhile, ends the climb instead of failing.
 */

/** The parts of s3rver's FilesystemStore used here (lib/stores/filesystem.js). */
export interface S3rverFileStore {
  deleteObject(bucket: string, key: string): Promise<void>;
  getBucketPath(bucket: string): string;
  getResourcePath(bucket: string, key: string, resource: string): string;
}

/** The files s3rver keeps per object. */
const OBJECT_FILES = ['object', 'object.md5', 'metadata.json'];

function ignoring(codes: readonly string[]): (error: NodeJS.ErrnoException) => void {
  return (error) => {
    if (!codes.includes(error.code ?? '')) throw error;
  };
}

/** Whether a folder holds nothing (false when it is gone already). */
async function isEmptyFolder(folder: string): Promise<boolean> {
  const dir = await opendir(folder).catch(ignoring(['ENOENT']));
  if (!dir) return false;
  try {
    return (await dir.read()) === null;
  } finally {
    await dir.close();
  }
}

export function deleteWithoutFolderListings(store: S3rverFileStore): void {
  store.deleteObject = async (bucket, key) => {
    await Promise.all(OBJECT_FILES.map((resource) => unlink(store.getResourcePath(bucket, key, resource)).catch(ignoring(['ENOENT']))));
    const bucketPath = store.getBucketPath(bucket);
    // The last part of the key is in the file names, not a folder.
    const folders = key.split('/').slice(0, -1);
    while (folders.length > 0) {
      const folder = path.join(bucketPath, ...folders);
      if (!(await isEmptyFolder(folder))) return;
      const removed = await rmdir(folder).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          ignoring(['ENOENT', 'ENOTEMPTY'])(error);
          return false;
        },
      );
      if (!removed) return;
      folders.pop();
    }
  };
}
