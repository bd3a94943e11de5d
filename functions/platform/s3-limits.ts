/**
 * Limits of the S3 API (Amazon S3 API reference: UploadPart, CompleteMultipartUpload, DeleteObjects),
 * kept apart from the S3 adapter so the local S3 enforces the same numbers without loading the SDK.
 */

/** Every part of a multipart upload but the last must hold at least 5 MiB. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
/** A multipart upload has at most 10,000 parts. */
export const MAX_PARTS = 10_000;
/** DeleteObjects accepts at most 1,000 keys per request. */
export const DELETE_BATCH = 1000;
