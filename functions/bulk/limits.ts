import { BUCKETS } from '../platform/resources';

/** Limits and settings of bulk scoring, documented in the API description and the README. */
export const BULK_LIMITS = {
  /**
   * Largest input file accepted: a larger declared size is refused (413) and the upload URL takes only
   * the declared size; Prepare checks the stored size again (input_too_large).
   */
  maxInputBytes: 2 * 1024 * 1024 * 1024,
  /** Lifetime of the pre-signed upload URL (an upload must start before it expires). */
  uploadUrlSeconds: 3600,
  /**
   * A line (or CSV row) longer than this is an error for that line: a batch of items must fit in
   * 256 KiB of Step Functions state, and one person at one date needs far less.
   */
  maxLineBytes: 200 * 1024,
  /** Lifetime of the pre-signed download URLs the status answers with. */
  downloadUrlSeconds: 3600,
  /** Results, errors and the job itself are kept this long after the job (bucket lifecycle rule, table TTL). */
  retentionDays: BUCKETS.artifacts.expireAfterDays,
} as const;
