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

/** Limits of the pre-signed upload flow (spec §4.6, §8). */
export const UPLOAD_LIMITS = {
  base64MaxBytes: 10 * 1024 * 1024,
  presignedMaxBytes: 50 * 1024 * 1024,
  presignedExpirySeconds: 300,
} as const;
