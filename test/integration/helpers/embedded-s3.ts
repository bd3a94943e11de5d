import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resetAwsClientsForTests } from '../../../functions/platform/aws-clients';
import { resetConfigForTests } from '../../../functions/platform/config';
import { startEmbeddedS3 } from '../../../local/embedded-s3';

/**
 * The runtime's embedded S3 alone, for the tests of a file: started before them in a temporary
 * folder (`directory()`: where its files are), the shared S3 client pointed at it, stopped and removed after them.
 */
export function useEmbeddedS3(): { directory: () => string } {
  let directory: string | undefined;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'hale-embedded-s3-'));
    const s3 = await startEmbeddedS3(directory, () => undefined);
    stop = () => s3.close(1000);
    process.env.HALE_RUNTIME = 'local';
    process.env.HALE_S3_ENDPOINT = s3.endpoint;
    resetConfigForTests();
    resetAwsClientsForTests();
  });
  afterAll(async () => {
    resetAwsClientsForTests();
    await stop?.();
    if (directory) await rm(directory, { recursive: true, force: true });
  });
  return { directory: () => directory! };
}
