import { JobConflictError, type JobsRepository, JobTransitionError } from '../platform/ports';

/**
 * The register of pre-signed upload URLs, so that a sweeper can find the jobs whose upload never
 * arrived without scanning the jobs table (the repository can only read jobs by id). Each five-minute
 * window of issue times is one record in the jobs table; a pre-signed job adds one attribute to the
 * record of its window (distinct attributes, so concurrent uploads never overwrite each other). A
 * window can be swept once every URL issued in it has expired.
 */
export const WINDOW_SECONDS = 300;
/** Windows a sweep looks back over; a sweeper that was down longer than this leaves older jobs pending. */
export const SWEEP_LOOKBACK_WINDOWS = 24;
const SYSTEM_TENANT = 'hale:system';
const ATTRIBUTE_PREFIX = 'pending_';

function windowOf(date: Date): number {
  return Math.floor(date.getTime() / 1000 / WINDOW_SECONDS);
}

const recordId = (window: number) => `pending-uploads-${window}`;

export async function registerPendingUpload(jobs: JobsRepository, jobId: string, issuedAt: Date, keepUntil: number): Promise<void> {
  const window = windowOf(issuedAt);
  const now = issuedAt.toISOString();
  try {
    await jobs.create({ kind: 'lab', jobId: recordId(window), tenant: SYSTEM_TENANT, status: 'open', createdAt: now, updatedAt: now, expiresAt: keepUntil });
  } catch (error) {
    if (!(error instanceof JobConflictError)) throw error;
  }
  await jobs.update('lab', recordId(window), { [`${ATTRIBUTE_PREFIX}${jobId}`]: now });
}

/**
 * Calls `expire` for every job registered in the windows whose URLs have all expired by `now`, then
 * marks each window swept. `expire` must tolerate jobs that were uploaded meanwhile.
 */
export async function sweepPendingUploads(jobs: JobsRepository, now: Date, expire: (jobId: string) => Promise<void>): Promise<number> {
  // URLs issued in window w expire by the end of window w + 1.
  const lastClosed = windowOf(now) - 2;
  let seen = 0;
  for (let window = lastClosed - SWEEP_LOOKBACK_WINDOWS + 1; window <= lastClosed; window++) {
    const record = await jobs.get('lab', recordId(window));
    if (record?.status !== 'open') continue;
    const jobIds = Object.keys(record)
      .filter((name) => name.startsWith(ATTRIBUTE_PREFIX))
      .map((name) => name.slice(ATTRIBUTE_PREFIX.length));
    for (const jobId of jobIds) await expire(jobId);
    seen += jobIds.length;
    try {
      await jobs.transition('lab', recordId(window), { from: ['open'], to: 'swept' });
    } catch (error) {
      // A concurrent sweep got there first.
      if (!(error instanceof JobTransitionError)) throw error;
    }
  }
  return seen;
}
