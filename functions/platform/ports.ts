/**
 * Ports: what handlers and pipeline steps need from the platform. The AWS adapters in this folder
 * implement them; locally the same adapters talk to the embedded servers (dynalite, s3rver, the local
 * Step Functions endpoint). Where a service has no local server (Comprehend Medical, Bedrock) a
 * local twin implements the port and configuration chooses it.
 */

export type JobKind = 'report' | 'lab' | 'bulk';

export interface JobRecord {
  kind: JobKind;
  jobId: string;
  /** Hash of the API key that created the job (see `tenantOf`). */
  tenant: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  /** Epoch seconds after which the record may be deleted (DynamoDB TTL). */
  expiresAt?: number;
  /**
   * ISO time after which the job, if it has not ended, is overdue. A job created or moved with one is
   * listed by `listOverdue` until a transition marked `terminal` ends it.
   */
  deadlineAt?: string;
  /** Everything else the job's area stores (no PHI, ever). */
  [attribute: string]: unknown;
}

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  target: 'webhook' | 'callback' | 'presigned_url';
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * A conditional status change. `terminal: true` when `to` ends the job and nothing is left to do for
 * it: the same write takes it out of the open-jobs index. A new `deadlineAt` re-dates a job in the
 * index: an open one, or one that ended with its clean-up still due (cleanup-retry.ts).
 */
export type JobTransition = { from: readonly string[]; to: string; set?: Record<string, unknown> } & (
  | { terminal: true; deadlineAt?: never }
  | { terminal?: false; deadlineAt?: string }
);

/** An open job whose deadline has passed, as the open-jobs index lists it. */
export interface OverdueJob {
  kind: JobKind;
  jobId: string;
  /** The status when the index was written (eventually consistent): re-read the job before acting. */
  status: string;
  deadlineAt: string;
}

export interface JobsRepository {
  /** Creates a job (open until its deadline when it has `deadlineAt`); fails with JobConflictError if the id exists. */
  create(job: JobRecord): Promise<void>;
  get(kind: JobKind, jobId: string): Promise<JobRecord | undefined>;
  /**
   * Moves a job to `to` only if its current status is one of `from` (a conditional write), setting
   * `set` and `updatedAt` in the same write. Throws JobTransitionError otherwise: states never move
   * backwards and no concurrent writer is overwritten.
   */
  transition(kind: JobKind, jobId: string, change: JobTransition): Promise<JobRecord>;
  /** Open jobs of `kind` whose deadline is at or before `now`, oldest deadline first, at most `limit`. */
  listOverdue(kind: JobKind, now: Date, limit: number): Promise<OverdueJob[]>;
  /** Sets attributes without changing the status. */
  update(kind: JobKind, jobId: string, set: Record<string, unknown>): Promise<void>;
  recordDelivery(kind: JobKind, jobId: string, attempt: DeliveryAttempt): Promise<void>;
  /**
   * Creates a job and claims `key` for its kind and tenant in one atomic write. When the key was
   * claimed before (and has not expired), nothing is written and the job that claimed it is returned
   * with `created: false`.
   */
  createWithIdempotencyKey(job: JobRecord, key: string): Promise<{ job: JobRecord; created: boolean }>;
  /** Finds the job a tenant created with an idempotency key, if any. */
  findByIdempotencyKey(kind: JobKind, tenant: string, key: string): Promise<JobRecord | undefined>;
  /** Atomically adds to numeric attributes of a job (missing ones count from 0), without changing its status. */
  addToCounters(kind: JobKind, jobId: string, counters: Record<string, number>): Promise<void>;
  /** Atomically adds one to a named counter that expires at `expiresAt` (epoch s); returns the new value. */
  incrementCounter(counter: string, expiresAt: number): Promise<number>;
}

export interface StoredObject {
  body: Buffer;
  contentType?: string;
  size: number;
}

/** An object listed under a prefix. */
export interface ListedObject {
  key: string;
  size: number;
}

/** A source of a concatenation: a whole object, or text given in place (e.g. a CSV header). */
export type ConcatenationPart = ListedObject | { text: string };

export interface ObjectStore {
  put(bucket: string, key: string, body: Buffer | string, contentType: string): Promise<void>;
  /**
   * Stores the object only if `key` does not exist yet (a conditional, write-once put); answers false,
   * writing nothing, when it does. Of concurrent calls for one key exactly one answers true.
   */
  putIfAbsent(bucket: string, key: string, body: Buffer | string, contentType: string): Promise<boolean>;
  get(bucket: string, key: string): Promise<StoredObject>;
  head(bucket: string, key: string): Promise<{ size: number; contentType?: string } | undefined>;
  delete(bucket: string, key: string): Promise<void>;
  /** Deletes every object under a prefix (e.g. all files of a job). */
  deletePrefix(bucket: string, prefix: string): Promise<number>;
  /**
   * A URL that takes one PUT of `key` with this content type until it expires. With `contentLength`
   * the size is signed too: S3 refuses an upload of any other size (403 SignatureDoesNotMatch).
   */
  presignPut(bucket: string, key: string, options: { contentType: string; expiresInSeconds: number; contentLength?: number }): Promise<string>;
}

/** Objects of any size (bulk scoring): read as a stream, listed, concatenated, downloaded by URL. */
export interface StreamingObjectStore {
  /** The object's bytes as they arrive, without holding it whole; throws ObjectNotFoundError. */
  open(bucket: string, key: string): Promise<AsyncIterable<Uint8Array>>;
  /** Every object under `prefix` (after `startAfter`, when given), in key order, page by page. */
  list(bucket: string, prefix: string, startAfter?: string): AsyncIterable<ListedObject>;
  /**
   * Writes `key` as the concatenation of `parts` in order, in bounded memory whatever their total:
   * large objects are copied by the store itself, small ones gathered into upload parts. Returns the
   * object's size in bytes.
   */
  concatenate(bucket: string, key: string, parts: AsyncIterable<ConcatenationPart>, contentType: string): Promise<number>;
  /** A URL that serves one GET of the object until it expires; `filename` names the download. */
  presignGet(bucket: string, key: string, options: { expiresInSeconds: number; filename?: string }): Promise<string>;
  /** Starts a multipart upload of `key`; parts may then be written in any order, by any process. */
  startMultipart(bucket: string, key: string, contentType: string): Promise<string>;
  /**
   * Writes part `partNumber` as the concatenation of `sources`, streamed (a single large object is
   * copied by the store itself). Every part but the last must hold at least 5 MiB.
   */
  writePart(bucket: string, key: string, uploadId: string, partNumber: number, sources: readonly ConcatenationPart[]): Promise<void>;
  /** Completes the upload with every part written so far, in part order; returns the object's size. */
  completeMultipart(bucket: string, key: string, uploadId: string): Promise<number>;
}

export interface WorkflowStarter {
  /** Starts a state machine execution named after the job, so a retry cannot start a second one. */
  start(stateMachineArn: string, name: string, input: Record<string, unknown>): Promise<{ executionArn: string }>;
}

export interface OutboundRequest {
  url: string;
  method: 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: Buffer | string;
  timeoutMs?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Optional LLM fallback for LOINC mapping (Amazon Bedrock, off unless HALE_BEDROCK_MODEL_ID is set):
 * asked only about tests the local table cannot name; its answers are marked `llm_fuzzy`.
 */
export interface LoincFallback {
  suggest(request: { biomarker: string; unit: string | null; panelName: string }): Promise<{ loincCode: string } | null>;
}

/** HTTP client for caller-supplied URLs (callbacks, webhooks, pre-signed PUTs): SSRF-guarded. */
export interface OutboundHttp {
  send(request: OutboundRequest): Promise<OutboundResponse>;
}

export class JobConflictError extends Error {
  override name = 'JobConflictError';
}
export class JobTransitionError extends Error {
  override name = 'JobTransitionError';
  /** The status the job had when the transition was refused; undefined when the job does not exist. */
  readonly current?: string;
  constructor(message: string, current?: string) {
    super(message);
    this.current = current;
  }
}
/** `update` or `recordDelivery` on a job that does not exist (or has expired). */
export class JobNotFoundError extends Error {
  override name = 'JobNotFoundError';
}
/** `ObjectStore.get` of a key that does not exist. */
export class ObjectNotFoundError extends Error {
  override name = 'ObjectNotFoundError';
}
/** An outbound request that was allowed but failed: timeout, refused connection, TLS failure. */
export class OutboundRequestError extends Error {
  override name = 'OutboundRequestError';
  readonly reason: 'connect_timeout' | 'timeout' | 'network';
  constructor(reason: 'connect_timeout' | 'timeout' | 'network', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}
/** A caller-supplied URL that is not https or resolves to a private, loopback, link-local or metadata address. */
export class BlockedTargetError extends Error {
  override name = 'BlockedTargetError';
}
