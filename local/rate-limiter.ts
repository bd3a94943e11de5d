/** Limits per key of a rate-limited route group: the reference routes (spec §8) per API key, the demo route for all callers. */
export interface RateLimits {
  perSecond: number;
  perDay: number;
}

/** A refused request: over the per-second rate, or over the day's quota (with the seconds until it resets). */
export type LimitDecision = { allowed: true } | { allowed: false; exceeded: 'second' } | { allowed: false; exceeded: 'day'; retryAfterSeconds: number };

interface KeyUsage {
  /** Times (ms) of the requests accepted in the last second, oldest first. */
  recent: number[];
  day: number;
  dayCount: number;
}

const SECOND_MS = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The usage plan of API Gateway, locally: at most `perSecond` requests in any one-second window
 * (a sliding window, so a burst at a second's boundary cannot pass twice the limit) and `perDay`
 * per UTC day, as API Gateway's DAY quota resets at midnight UTC. Rejected requests count for
 * neither. `clock` is injectable so tests can cross midnight.
 */
export class RateLimiter {
  private readonly usage = new Map<string, KeyUsage>();

  constructor(
    private readonly limits: RateLimits,
    private readonly clock: () => number,
  ) {}

  /** Counts a request of `key` (an API key's hash, or one key for a route's every caller) if the limits allow it. */
  take(key: string): LimitDecision {
    const now = this.clock();
    const day = Math.floor(now / DAY_MS);
    let usage = this.usage.get(key);
    if (!usage) {
      usage = { recent: [], day, dayCount: 0 };
      this.usage.set(key, usage);
    }
    if (usage.day !== day) {
      usage.day = day;
      usage.dayCount = 0;
    }
    if (usage.dayCount >= this.limits.perDay) {
      return { allowed: false, exceeded: 'day', retryAfterSeconds: ((day + 1) * DAY_MS - now) / 1000 };
    }
    while (usage.recent.length > 0 && usage.recent[0]! <= now - SECOND_MS) usage.recent.shift();
    if (usage.recent.length >= this.limits.perSecond) {
      return { allowed: false, exceeded: 'second' };
    }
    usage.recent.push(now);
    usage.dayCount += 1;
    return { allowed: true };
  }
}
