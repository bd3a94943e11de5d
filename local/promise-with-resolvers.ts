/**
 * aws-local-stepfunctions 3 calls Promise.withResolvers (Node ≥ 22). npm scripts run the project's
 * own Node 22, but a plain `node` 20 would make every Task state fail with a TypeError that the
 * machine's own Catch swallows; this fills the gap there and does nothing on Node 22.
 */
export function ensurePromiseWithResolvers(): void {
  const promise = Promise as unknown as { withResolvers?: unknown };
  if (typeof promise.withResolvers === 'function') return;
  promise.withResolvers = withResolvers;
}

/** A promise and its settlers, as Promise.withResolvers gives them (which the ES2023 lib does not type). */
export function withResolvers<T>(): { promise: Promise<T>; resolve: (value: T | PromiseLike<T>) => void; reject: (reason?: unknown) => void } {
  let resolve!: (value: T | PromiseLike<T>) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
