import { RateLimitError } from '../../../functions/http/errors';
import { consumeHourlyQuota } from '../../../functions/platform/rate-limit';

/** Counters as the jobs table keeps them: by name, with the expiry the caller asked for. */
function counters() {
  const values = new Map<string, { count: number; expiresAt: number }>();
  return {
    values,
    async incrementCounter(name: string, expiresAt: number) {
      const count = (values.get(name)?.count ?? 0) + 1;
      values.set(name, { count, expiresAt });
      return count;
    },
  };
}

describe('consumeHourlyQuota', () => {
  it('allows `limit` uses per clock hour, then refuses with the seconds left in the hour', async () => {
    const repo = counters();
    const at = new Date('2026-11-22T10:59:15Z');
    for (let i = 1; i <= 3; i++) {
      expect(await consumeHourlyQuota(repo, 'uploads#tenant-a', 3, at)).toEqual({
        used: i,
        remaining: 3 - i,
        resetsAt: new Date('2026-11-22T11:00:00Z'),
      });
    }
    const refused = consumeHourlyQuota(repo, 'uploads#tenant-a', 3, at);
    await expect(refused).rejects.toBeInstanceOf(RateLimitError);
    await expect(refused).rejects.toMatchObject({ status: 429, headers: { 'retry-after': '45' }, details: { retryAfterSeconds: 45 } });
    expect(repo.values.get('uploads#tenant-a#2026-11-22T10')?.expiresAt).toBe(Date.parse('2026-11-22T11:00:00Z') / 1000);
  });

  it('starts again in the next hour and keeps tenants apart', async () => {
    const repo = counters();
    await consumeHourlyQuota(repo, 'uploads#tenant-a', 1, new Date('2026-11-22T10:10:00Z'));
    await expect(consumeHourlyQuota(repo, 'uploads#tenant-a', 1, new Date('2026-11-22T10:50:00Z'))).rejects.toBeInstanceOf(RateLimitError);
    expect((await consumeHourlyQuota(repo, 'uploads#tenant-b', 1, new Date('2026-11-22T10:50:00Z'))).used).toBe(1);
    expect((await consumeHourlyQuota(repo, 'uploads#tenant-a', 1, new Date('2026-11-22T11:00:00Z'))).used).toBe(1);
  });
});
