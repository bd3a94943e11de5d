import { beforeDeadline, DEADLINE_MARGIN_MS } from '../../../functions/http/deadline';
import { DeadlineExceededError } from '../../../functions/http/errors';

/** A context whose remaining time counts down from `ms`, as Lambda's does. */
function contextWithRemaining(ms: number) {
  const deadline = Date.now() + ms;
  return { getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
}

/** Work that settles long after any test has ended (unref'd: it keeps nothing alive). */
const neverInTime = () => new Promise<string>((resolve) => setTimeout(() => resolve('late'), 600_000).unref());

describe('beforeDeadline', () => {
  it('gives up on work that would overrun, while time is still left, with DeadlineExceededError (504)', async () => {
    // A generous margin: the answer must come well before the call's end even on a loaded machine.
    const context = contextWithRemaining(6000);
    const outcome = await beforeDeadline(neverInTime(), context, 5000).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(DeadlineExceededError);
    expect(outcome).toMatchObject({ status: 504, code: 'upstream_timeout' });
    expect(context.getRemainingTimeInMillis()).toBeGreaterThan(0);
  });

  it('passes through what work that finishes in time gives, or throws', async () => {
    const context = contextWithRemaining(60_000);
    await expect(beforeDeadline(Promise.resolve('done'), context)).resolves.toBe('done');
    await expect(beforeDeadline(Promise.reject(new Error('failed')), context)).rejects.toThrow('failed');
  });

  it('gives up at once when less than the margin is left', async () => {
    const outcome = await beforeDeadline(neverInTime(), contextWithRemaining(DEADLINE_MARGIN_MS / 2)).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(DeadlineExceededError);
  });
});
