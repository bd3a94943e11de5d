import { setting } from '../../platform/config';
import { jobsRepository } from '../../platform/dynamodb-jobs-repository';
import type { JobsRepository, ObjectStore, StreamingObjectStore } from '../../platform/ports';
import { objectStore } from '../../platform/s3-object-store';

/** What the bulk workers use: the jobs table and the two buckets (input in uploads, the rest in artifacts). */
export interface BulkIo {
  jobs: JobsRepository;
  objects: ObjectStore & StreamingObjectStore;
  uploadsBucket: string;
  artifactsBucket: string;
}

export function bulkIo(): BulkIo {
  return {
    jobs: jobsRepository(),
    objects: objectStore(),
    uploadsBucket: setting('HALE_UPLOADS_BUCKET'),
    artifactsBucket: setting('HALE_ARTIFACTS_BUCKET'),
  };
}
