import { randomUUID } from 'node:crypto';
import { httpRoute } from '../http/handler';
import { setting } from '../platform/config';
import { jobsRepository } from '../platform/dynamodb-jobs-repository';
import { assertSafeTargetUrl } from '../platform/outbound-http';
import { objectStore } from '../platform/s3-object-store';
import { createBulkJob } from './create';
import { BulkCreateRequestSchema } from './schemas';

/** POST /health-score/bulk: 202 with the job id and where to PUT the file. */
export const handler = httpRoute({ dialect: 'detail', body: BulkCreateRequestSchema }, async ({ body, tenant }) => ({
  statusCode: 202,
  body: await createBulkJob(
    {
      jobs: jobsRepository(),
      objects: objectStore(),
      uploadsBucket: setting('HALE_UPLOADS_BUCKET'),
      assertSafeTarget: (url) => assertSafeTargetUrl(url),
      newId: randomUUID,
      now: () => new Date(),
    },
    tenant,
    body,
  ),
}));
