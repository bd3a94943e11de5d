/**
 * What one POST /health-score/batch may hold, and what a larger one is told: the batch handler's 413,
 * and the gateway's and WAF's for a body over every route's limit (http/request-limits.ts). A module of
 * its own, with no imports, so the gateway and the other APIs' functions read it without the scoring
 * schemas.
 */

export const BATCH_LIMITS = { maxPersons: 100, maxBytes: 1024 * 1024 } as const;

export const BATCH_TOO_LARGE_MESSAGE =
  `A batch holds at most ${BATCH_LIMITS.maxPersons} persons and 1 MB; score larger populations with the bulk API ` +
  '(POST /health-score/bulk, a JSONL or CSV file of any size)';
