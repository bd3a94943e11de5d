/**
 * aws-local-stepfunctions 3 calls Promise.withResolvers (Node ≥ 22). npm scripts run the project's
 * own Node 22, but a plain `node` 20 would make every Task state fail with a TypeError that the
 * machine's own Catch swallows; this fills the gap there and does nothing on Node 22.
 */
export function ensurePromiseWithResolvers(): void {
  const promise = Promise as unknown as { withResolvers?: unknown };
  if (typeof promise.withResolvers === 'function') return;
  promise.withResolvers = <T>() => {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const created = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise: created, resolve, reject };
  };
}
