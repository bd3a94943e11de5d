/** Per-key limits of the reference-data route group (spec §8). */
export interface ReferenceLimits {
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
export class ReferenceRateLimiter {
  private readonly usage = new Map<string, KeyUsage>();

  constructor(
    private readonly limits: ReferenceLimits,
    private readonly clock: () => number,
  ) {}

  take(apiKeyId: string): LimitDecision {
    const now = this.clock();
    const day = Math.floor(now / DAY_MS);
    let usage = this.usage.get(apiKeyId);
    if (!usage) {
      usage = { recent: [], day, dayCount: 0 };
      this.usage.set(apiKeyId, usage);
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
