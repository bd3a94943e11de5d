import type { z } from 'zod';
import { ValidationError } from '../http/errors';
import { httpRoute } from '../http/handler';
import { setting } from '../platform/config';
import { sealCredential } from '../platform/credentials-cipher';
import { jobsRepository } from '../platform/dynamodb-jobs-repository';
import { assertSafeTargetUrl } from '../platform/outbound-http';
import { objectStore } from '../platform/s3-object-store';
import { workflowStarter } from '../platform/sfn-workflow-starter';
import { type CreateReportDependencies, createReportJob, type ReportRequest } from './create-report';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

let dependencies: CreateReportDependencies | undefined;

function reportDependencies(): CreateReportDependencies {
  dependencies ??= {
    jobs: jobsRepository(),
    objects: objectStore(),
    workflows: workflowStarter(),
    artifactsBucket: setting('HALE_ARTIFACTS_BUCKET'),
    stateMachineArn: setting('HALE_REPORT_STATE_MACHINE_ARN'),
    seal: (plaintext, context) => sealCredential(plaintext, context),
    checkTarget: (url) => assertSafeTargetUrl(url),
  };
  return dependencies;
}

function idempotencyKey(headers: Record<string, string>): string | undefined {
  const key = headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new ValidationError([{ path: 'headers.idempotency-key', message: 'must be 1–255 visible ASCII characters' }]);
  }
  return key;
}

/** POST handler of one report variant: validate, accept the job, answer 202 (spec §2.5). */
export function createReportRoute<S extends z.ZodType>(schema: S, toRequest: (body: z.output<S>) => ReportRequest) {
  return httpRoute({ dialect: 'detail', body: schema }, async ({ body, headers, tenant }) => {
    const key = idempotencyKey(headers);
    // httpRoute's conditional body type does not narrow for a generic schema; it is z.output<S> here.
    const job = await createReportJob(reportDependencies(), toRequest(body as z.output<S>), { tenant, idempotencyKey: key });
    return { statusCode: 202, body: job, headers: { location: `/health-score/report/status/${job.job_id}` } };
  });
}
