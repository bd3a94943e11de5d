/**
 * Shape of the stateful resources, shared by the CDK stack and the local runtime so that both create
 * exactly the same table and buckets.
 */
export const JOBS_TABLE = {
  logicalId: 'JobsTable',
  localName: 'hale-jobs',
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB TTL removes expired items in AWS, reads filter them everywhere. */
  ttlAttribute: 'expiresAt',
  /**
   * Sparse index of the jobs that have not ended: a job carries `openKind` (its kind) and
   * `deadlineAt` (ISO time after which it is overdue) from creation until the conditional write that
   * gives it a terminal state removes both, so the index holds only open jobs and a sweeper reads the
   * overdue ones of a kind, oldest deadline first, without a scan. Projects what the sweep and the
   * read-time expiry filter need.
   */
  openJobsIndex: {
    name: 'open-jobs-by-deadline',
    partitionKey: 'openKind',
    sortKey: 'deadlineAt',
    projectedAttributes: ['jobId', 'status', 'expiresAt'],
  },
} as const;

export const BUCKETS = {
  uploads: { logicalId: 'UploadsBucket', localName: 'hale-uploads', expireAfterDays: 1 },
  artifacts: { logicalId: 'ArtifactsBucket', localName: 'hale-artifacts', expireAfterDays: 1 },
} as const;

/** Limits of lab uploads (spec §4.6, §8). */
export const UPLOAD_LIMITS = {
  /**
   * The largest PDF sent inline (base64 in `pdfFile`), decoded: 4 MiB. Set by what AWS can carry: API
   * Gateway hands the request to the upload Lambda as one JSON event, and a synchronous Lambda
   * invocation carries at most 6 MB (Lambda Invoke API reference), so the base64 text (4/3 of the PDF)
   * plus the event around it must stay below that; functions/http/request-limits.ts derives the body
   * limit from this number and a test checks the largest event against Lambda's limit.
   */
  inlinePdfMaxBytes: 4 * 1024 * 1024,
  /** Larger files go to a pre-signed S3 PUT, which takes up to this. */
  presignedMaxBytes: 50 * 1024 * 1024,
  presignedExpirySeconds: 300,
} as const;
