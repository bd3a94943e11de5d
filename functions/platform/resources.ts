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
