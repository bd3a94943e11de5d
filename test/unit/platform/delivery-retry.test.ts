import fc from 'fast-check';
import { type RetryPolicy, retryDelaySeconds } from '../../../functions/platform/delivery-retry';

describe('delivery retries', () => {
  it('waits exponentially longer after each failed attempt and stops after the last one', () => {
    const lab: RetryPolicy = { attempts: 6, firstDelaySeconds: 5, backoffRate: 3 };
    expect([1, 2, 3, 4, 5, 6].map((attempt) => retryDelaySeconds(lab, attempt))).toEqual([5, 15, 45, 135, 405, undefined]);
    const capped: RetryPolicy = { attempts: 8, firstDelaySeconds: 2, backoffRate: 2, maxDelaySeconds: 60 };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => retryDelaySeconds(capped, attempt))).toEqual([2, 4, 8, 16, 32, 60, 60, undefined]);
  });

  it('never allows more attempts than the policy, never waits less than before nor past the cap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 30 }), fc.double({ min: 1, max: 4, noNaN: true }), fc.integer({ min: 1, max: 900 }), (attempts, first, rate, cap) => {
        const policy = { attempts, firstDelaySeconds: first, backoffRate: rate, maxDelaySeconds: cap };
        const waits = Array.from({ length: attempts + 2 }, (_, index) => retryDelaySeconds(policy, index + 1));
        expect(waits.filter((w) => w !== undefined)).toHaveLength(attempts - 1);
        for (let i = 1; i < attempts - 1; i += 1) expect(waits[i]!).toBeGreaterThanOrEqual(waits[i - 1]!);
        for (const wait of waits) if (wait !== undefined) expect(wait).toBeLessThanOrEqual(Math.max(cap, 0) + 0.5);
      }),
    );
    expect(retryDelaySeconds({ attempts: 3, firstDelaySeconds: 1, backoffRate: 2 }, 0)).toBeUndefined();
  });
});
