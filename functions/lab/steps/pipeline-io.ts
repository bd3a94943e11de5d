import { setting } from '../../platform/config';
import { jobsRepository } from '../../platform/dynamodb-jobs-repository';
import type { JobsRepository, ObjectStore } from '../../platform/ports';
import { objectStore } from '../../platform/s3-object-store';
import type { PageText } from '../pdf-text';

/** The adapters and buckets every pipeline step works with, resolved from configuration. */
export interface PipelineIo {
  jobs: JobsRepository;
  objects: ObjectStore;
  uploadsBucket: string;
  artifactsBucket: string;
}

export function pipelineIo(): PipelineIo {
  return {
    jobs: jobsRepository(),
    objects: objectStore(),
    uploadsBucket: setting('HALE_UPLOADS_BUCKET'),
    artifactsBucket: setting('HALE_ARTIFACTS_BUCKET'),
  };
}

export async function readJson<T>(io: PipelineIo, key: string): Promise<T> {
  const { body } = await io.objects.get(io.artifactsBucket, key);
  return JSON.parse(body.toString('utf8')) as T;
}

export async function writeJson(io: PipelineIo, key: string, value: unknown): Promise<void> {
  await io.objects.put(io.artifactsBucket, key, JSON.stringify(value), 'application/json');
}

export const readPages = (io: PipelineIo, key: string) => readJson<PageText[]>(io, key);
