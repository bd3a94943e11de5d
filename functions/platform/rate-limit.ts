import { RateLimitError } from '../http/errors';
import type { JobsRepository } from './ports';

const HOUR_MS = 3_600_000;

export interface QuotaUse {
  used: number;
  remaining: number;
  resetsAt: Date;
}

/**
 * Counts one use of an hourly quota (fixed windows on the clock hour) and throws RateLimitError,
 * with the seconds until the window ends as Retry-After, once `limit` is passed. The counter's name
 * carries the window, so a new hour starts a new counter; it expires with its window.
 */
export async function consumeHourlyQuota(
  repo: Pick<JobsRepository, 'incrementCounter'>,
  counterName: string,
  limit: number,
  now: Date = new Date(),
): Promise<QuotaUse> {
  const windowStart = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const resetsAt = new Date(windowStart + HOUR_MS);
  const window = new Date(windowStart).toISOString().slice(0, 13); // e.g. 2026-11-22T10
  const used = await repo.incrementCounter(`${counterName}#${window}`, resetsAt.getTime() / 1000);
  if (used > limit) {
    const retryAfterSeconds = (resetsAt.getTime() - now.getTime()) / 1000;
    throw new RateLimitError(`Limit of ${limit} per hour reached; retry after ${Math.ceil(retryAfterSeconds)} seconds`, retryAfterSeconds);
  }
  return { used, remaining: limit - used, resetsAt };
}
