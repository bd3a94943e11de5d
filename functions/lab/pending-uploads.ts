import { JobConflictError, type JobsRepository } from '../platform/ports';

/**
 * The register of pre-signed upload URLs, so that a sweeper can find the jobs whose upload never
 * arrived without scanning the jobs table (the repository can only read jobs by id). Each five-minute
 * window of issue times is one record in the jobs table; a pre-signed job adds one attribute to the
 * record of its window (distinct attributes, so concurrent uploads never overwrite each other). A
 * window can be swept once every URL issued in it has expired. One record holds up to DynamoDB's
 * 400 KB item limit, about 5,000 uploads in five minutes.
 */
const WINDOW_SECONDS = 300;
/** Windows a sweep looks back over at most; a sweeper that was down longer than this leaves older jobs pending. */
const SWEEP_LOOKBACK_WINDOWS = 24;
const SYSTEM_TENANT = 'hale:system';
const ATTRIBUTE_PREFIX = 'pending_';

function windowOf(date: Date): number {
  return Math.floor(date.getTime() / 1000 / WINDOW_SECONDS);
}

const recordId = (window: number) => `pending-uploads-${window}`;

/** The register's records live in the jobs table under ids no job has, readable by no tenant. */
async function ensureRecord(jobs: JobsRepository, id: string, now: Date, expiresAt?: number): Promise<void> {
  try {
    await jobs.create({ kind: 'lab', jobId: id, tenant: SYSTEM_TENANT, status: 'register', createdAt: now.toISOString(), updatedAt: now.toISOString(), expiresAt });
  } catch (error) {
    if (!(error instanceof JobConflictError)) throw error;
  }
}

export async function registerPendingUpload(jobs: JobsRepository, jobId: string, issuedAt: Date, keepUntil: number): Promise<void> {
  const window = windowOf(issuedAt);
  await ensureRecord(jobs, recordId(window), issuedAt, keepUntil);
  await jobs.update('lab', recordId(window), { [`${ATTRIBUTE_PREFIX}${jobId}`]: issuedAt.toISOString() });
}

/** Where the sweeps have got to: the last window already swept, so a sweep reads only the new ones. */
const CURSOR_ID = 'pending-uploads-cursor';

/**
 * Calls `expire` for every job registered in the windows whose URLs have all expired by `now` and
 * that no sweep has read yet, then moves the cursor past them. `expire` must tolerate jobs that were
 * uploaded meanwhile, and a window read twice (two sweeps at once) does no harm.
 */
export async function sweepPendingUploads(jobs: JobsRepository, now: Date, expire: (jobId: string) => Promise<void>): Promise<number> {
  // URLs issued in window w expire by the end of window w + 1.
  const lastClosed = windowOf(now) - 2;
  const cursor = await jobs.get('lab', CURSOR_ID);
  const sweptThrough = typeof cursor?.sweptThrough === 'number' ? cursor.sweptThrough : Number.NEGATIVE_INFINITY;
  const first = Math.max(sweptThrough + 1, lastClosed - SWEEP_LOOKBACK_WINDOWS + 1);
  if (first > lastClosed) return 0;
  let seen = 0;
  for (let window = first; window <= lastClosed; window++) {
    const record = await jobs.get('lab', recordId(window));
    if (!record) continue;
    const jobIds = Object.keys(record)
      .filter((name) => name.startsWith(ATTRIBUTE_PREFIX))
      .map((name) => name.slice(ATTRIBUTE_PREFIX.length));
    for (const jobId of jobIds) await expire(jobId);
    seen += jobIds.length;
  }
  // One small record that lives as long as the table: an expired cursor could not be written again.
  await ensureRecord(jobs, CURSOR_ID, now);
  await jobs.update('lab', CURSOR_ID, { sweptThrough: lastClosed });
  return seen;
}
