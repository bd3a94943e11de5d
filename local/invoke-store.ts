import { AsyncLocalStorage } from 'node:async_hooks';
import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';

type InvocationContext = Record<string | symbol, unknown>;

/**
 * Lambda's per-invocation context store, for a process that runs many functions at once.
 *
 * Powertools (logger 2.x) keeps the Lambda context of the invocation, and the keys added for it, in
 * `globalThis.awslambda.InvokeStore` when AWS_LAMBDA_MAX_CONCURRENCY is set, as Lambda's
 * multi-concurrency runtime provides; otherwise in one field per logger, where concurrent
 * invocations in one process overwrite each other and a log line can name another function. The
 * local runtime runs every handler call in its own context of this store (LambdaInvoker), so each
 * line names the function that wrote it. Unlike Lambda's store, code outside any invocation (the
 * runtime itself, a test calling a worker directly) shares one context instead of failing.
 */
export class LocalInvokeStore extends InvokeStoreBase {
  private readonly storage = new AsyncLocalStorage<InvocationContext>();
  private readonly outside: InvocationContext = {};

  getContext(): InvocationContext {
    return this.storage.getStore() ?? this.outside;
  }

  hasContext(): boolean {
    return this.storage.getStore() !== undefined;
  }

  get<T = unknown>(key: string | symbol): T | undefined {
    return this.getContext()[key] as T | undefined;
  }

  set<T = unknown>(key: string | symbol, value: T): void {
    if (this.isProtectedKey(key)) throw new Error(`Cannot modify protected Lambda context field: ${String(key)}`);
    this.getContext()[key] = value;
  }

  run<T>(context: InvocationContext, fn: () => T): T {
    return this.storage.run(context, fn);
  }

  /** Runs one invocation in a fresh context carrying its request id, as Lambda does. */
  invocation<T>(requestId: string, fn: () => T): T {
    return this.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: requestId }, fn);
  }
}

/** The Lambda environment variable that makes Powertools use the store (any value will do). */
export const MAX_CONCURRENCY_SETTING = 'AWS_LAMBDA_MAX_CONCURRENCY';

interface LambdaGlobal {
  awslambda?: { InvokeStore?: InvokeStoreBase };
}

/**
 * Installs the store as `globalThis.awslambda.InvokeStore` (or returns the one a previous runtime in
 * this process installed); returns the store and a function that removes it again.
 */
export function installInvokeStore(): { store: LocalInvokeStore; uninstall: () => void } {
  const global = globalThis as LambdaGlobal;
  global.awslambda ??= {};
  // The AWS SDK asks the package for its store on every request; its first answer is kept for good.
  // Asked now, before AWS_LAMBDA_MAX_CONCURRENCY is set, it settles without the dynamic import of
  // node:async_hooks that its multi-context store makes (which jest's module system cannot run).
  void InvokeStore.getInstanceAsync();
  const existing = global.awslambda.InvokeStore;
  if (existing instanceof LocalInvokeStore) return { store: existing, uninstall: () => undefined };
  const store = new LocalInvokeStore();
  global.awslambda.InvokeStore = store;
  return {
    store,
    uninstall: () => {
      if (global.awslambda?.InvokeStore === store) global.awslambda.InvokeStore = existing;
    },
  };
}
