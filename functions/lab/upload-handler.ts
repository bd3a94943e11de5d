import { randomUUID } from 'node:crypto';
import { httpRoute } from '../http/handler';
import { config, setting } from '../platform/config';
import { jobsRepository } from '../platform/dynamodb-jobs-repository';
import { assertSafeTargetUrl } from '../platform/outbound-http';
import { objectStore } from '../platform/s3-object-store';
import { workflowStarter } from '../platform/sfn-workflow-starter';
import { UploadRequestSchema } from './api-schemas';
import { startLabUpload, type UploadServices } from './upload';

function services(): UploadServices {
  return {
    jobs: jobsRepository(),
    objects: objectStore(),
    workflows: workflowStarter(),
    uploadsBucket: setting('HALE_UPLOADS_BUCKET'),
    stateMachineArn: setting('HALE_LAB_STATE_MACHINE_ARN'),
    uploadsPerHour: config().HALE_UPLOADS_PER_HOUR,
    credentialsKey: () => setting('HALE_CREDENTIALS_KEY'),
    assertSafeTarget: (url) => assertSafeTargetUrl(url),
    newId: randomUUID,
    now: () => new Date(),
  };
}

/** POST /extraction/lab/upload: 202 with a queued job, or 200 with a pre-signed upload URL. */
export const handler = httpRoute({ dialect: 'extraction', body: UploadRequestSchema }, async ({ body, tenant }) => {
  const outcome = await startLabUpload(services(), tenant, body);
  if (outcome.kind === 'queued') {
    return { statusCode: 202, body: { jobId: outcome.jobId, status: 'queued', message: 'The document was accepted and is being processed' } };
  }
  const { kind: _kind, ...issued } = outcome;
  return { statusCode: 200, body: { ...issued, status: 'pending_upload' } };
});
