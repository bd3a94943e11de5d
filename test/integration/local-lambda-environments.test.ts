import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LocalInvokeStore } from '../../local/invoke-store';
import { LambdaBundles } from '../../local/lambda-bundles';
import { BundledHandlers } from '../../local/lambda-environments';
import { LambdaInvoker, withDefaults } from '../../local/lambda-invoker';
import { runtimeLog } from '../../local/runtime-log';

/**
 * The execution environments of the local runtime's bundles mode (local/lambda-environments.ts): a
 * fixture handler bundled as the stack bundles, called through the invoker the runtime uses.
 */

jest.setTimeout(120_000);

const PROBE = 'test/fixtures/bundles/environment-probe.ts';
/** Long enough that no environment of these tests is stopped for idling, however slow the machine. */
const NEVER_IDLE_MS = 10 * 60_000;
let cacheDir: string;
let handlers: BundledHandlers;
let invoker: LambdaInvoker;

beforeAll(async () => {
  cacheDir = await mkdtemp(path.join(os.tmpdir(), 'hale-bundles-test-'));
  handlers = new BundledHandlers(new LambdaBundles(cacheDir), NEVER_IDLE_MS);
  invoker = new LambdaInvoker(runtimeLog(true), new LocalInvokeStore(), handlers);
});

afterAll(async () => {
  await invoker.close();
  await rm(cacheDir, { recursive: true, force: true });
});

const probe = (id: string, sizing: { memoryMb?: number; timeoutSeconds?: number } = {}) =>
  withDefaults({ id, handler: PROBE, ...sizing }, { memoryMb: 256, timeoutSeconds: 30 });

async function failureOf(call: Promise<unknown>): Promise<{ name: string; message: string }> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught as Error,
  );
  if (!error) throw new Error('the call succeeded');
  return { name: error.name, message: error.message };
}

describe('bundled handlers in execution environments', () => {
  it('gives the handler a Lambda context and keeps a warm environment between calls', async () => {
    const fn = probe('ProbeWarm');
    expect(await invoker.invoke(fn, { action: 'count' })).toEqual({ calls: 1, functionName: 'hale-ProbeWarm', remainingMs: expect.any(Number) });
    const second = (await invoker.invoke(fn, { action: 'count' })) as { calls: number; remainingMs: number };
    expect(second.calls).toBe(2);
    expect(second.remainingMs).toBeGreaterThan(0);
    expect(second.remainingMs).toBeLessThanOrEqual(30_000);
  });

  it('reports a handled error by its name and message and keeps the environment', async () => {
    const fn = probe('ProbeThrow');
    expect(await failureOf(invoker.invoke(fn, { action: 'throw' }))).toEqual({ name: 'ProbeFailure', message: 'the probe failed on purpose' });
    expect(await invoker.invoke(fn, { action: 'count' })).toMatchObject({ calls: 2 });
  });

  it('stops a call at the function’s timeout as Sandbox.Timedout; the next call gets a fresh environment', async () => {
    const fn = probe('ProbeTimeout', { timeoutSeconds: 1 });
    expect(await failureOf(invoker.invoke(fn, { action: 'sleep', ms: 60_000 }))).toEqual({ name: 'Sandbox.Timedout', message: 'Task timed out after 1.00 seconds' });
    expect(await invoker.invoke(fn, { action: 'count' })).toMatchObject({ calls: 1 });
  });

  it('ends an environment that outgrows the function’s memory as Runtime.OutOfMemory', async () => {
    const fn = probe('ProbeMemory', { memoryMb: 64 });
    expect(await failureOf(invoker.invoke(fn, { action: 'hog' }))).toMatchObject({ name: 'Runtime.OutOfMemory' });
    expect(await invoker.invoke(fn, { action: 'count' })).toMatchObject({ calls: 1 });
  });

  it('stops an environment left idle; the next call starts a fresh one', async () => {
    const idleMs = 300;
    const briefly = new LambdaInvoker(runtimeLog(true), new LocalInvokeStore(), new BundledHandlers(new LambdaBundles(cacheDir), idleMs));
    try {
      const fn = probe('ProbeIdle');
      expect(await briefly.invoke(fn, { action: 'count' })).toMatchObject({ calls: 1 });
      await new Promise((resolve) => setTimeout(resolve, idleMs * 10));
      expect(await briefly.invoke(fn, { action: 'count' })).toMatchObject({ calls: 1 });
    } finally {
      await briefly.close();
    }
  });

  it('replaces an environment that crashed while idle, more times than a function has environments', async () => {
    const fn = probe('ProbeCrash');
    for (let crash = 0; crash < 6; crash++) {
      expect(await invoker.invoke(fn, { action: 'crash-later' })).toEqual({ calls: 1 });
      // The crash comes 200 ms after the answer; the wait lets it happen and the news of it arrive.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  });

  it('reaches the AWS SDK the Lambda runtime provides, and no other package of the repository', async () => {
    const fn = probe('ProbeImports');
    expect(await invoker.invoke(fn, { action: 'import', specifier: '@aws-sdk/client-s3' })).toEqual({ exports: expect.any(Number) });
    const missing = await failureOf(invoker.invoke(fn, { action: 'import', specifier: 'zod' }));
    expect(missing.message).toMatch(/Cannot find package 'zod'/);
  });

  it('serves calls at once from separate environments, each with its own module state', async () => {
    const fn = probe('ProbeConcurrent');
    const answers = (await Promise.all([1, 2, 3].map(() => invoker.invoke(fn, { action: 'sleep', ms: 300 })))) as { calls: number }[];
    expect(answers.map((answer) => answer.calls)).toEqual([1, 1, 1]);
  });
});
