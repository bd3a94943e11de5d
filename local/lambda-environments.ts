import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Context } from 'aws-lambda';
import { MAX_CONCURRENCY_SETTING } from './invoke-store';
import type { LambdaBundles } from './lambda-bundles';
import { functionName, type HandlerLoader, type LambdaFunction, type LambdaHandler, type SizedFunction } from './lambda-invoker';

/** Lambda's report of a failed invocation (also the `Cause` Step Functions shows). */
interface ErrorReport {
  errorType: string;
  errorMessage: string;
  trace: string[];
}

type EnvironmentMessage = { type: 'ready' } | { type: 'init-failed'; error: ErrorReport } | { type: 'result'; payload: string } | { type: 'error'; error: ErrorReport };

/**
 * Execution environments of one function at once: Lambda would start more, but here they share two
 * cores; a call beyond waits for one to be free (its timeout starts when it runs).
 */
const MAX_ENVIRONMENTS_PER_FUNCTION = 4;

/**
 * An environment idle this long is stopped, as Lambda reclaims idle ones (after minutes there): each
 * holds its own V8 heap, and a pipeline's steps would otherwise keep tens of them alive.
 */
const DEFAULT_IDLE_MS = 15_000;

const ENVIRONMENT_SCRIPT = path.join(__dirname, 'lambda-environment.mjs');

function reportedError(report: ErrorReport): Error {
  const error = new Error(report.errorMessage);
  error.name = report.errorType;
  if (report.trace.length > 0) error.stack = report.trace.join('\n');
  return error;
}

function runtimeError(errorType: string, errorMessage: string): Error {
  return reportedError({ errorType, errorMessage, trace: [] });
}

/**
 * One execution environment: a worker thread that imported the function's bundle (init) and runs one
 * invocation at a time, with the function's memory as its heap limit and its timeout enforced. As on
 * Lambda, a handled error keeps the environment; a timeout, running out of memory or a crash ends it.
 */
class ExecutionEnvironment {
  alive = true;
  private readonly worker: Worker;
  private waiting?: { resolve: (message: EnvironmentMessage) => void; reject: (error: Error) => void };

  constructor(
    private readonly fn: SizedFunction<LambdaFunction>,
    entry: string,
  ) {
    const env: Record<string, string | undefined> = {
      ...process.env,
      AWS_LAMBDA_FUNCTION_NAME: functionName(fn),
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    };
    // One invocation at a time, as in Lambda's default runtime: no multi-concurrency store (invoke-store.ts).
    delete env[MAX_CONCURRENCY_SETTING];
    this.worker = new Worker(ENVIRONMENT_SCRIPT, {
      workerData: { entry },
      env,
      execArgv: ['--enable-source-maps'],
      resourceLimits: { maxOldGenerationSizeMb: fn.memoryMb },
    });
    // An idle environment does not keep the process alive; the runtime's servers do while it runs.
    this.worker.unref();
    this.worker.on('message', (message: EnvironmentMessage) => this.answer(message));
    this.worker.on('error', (error: Error & { code?: string }) => {
      this.end(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? runtimeError('Runtime.OutOfMemory', `${functionName(fn)} ran out of its ${fn.memoryMb} MB`)
          : runtimeError('Runtime.ExitError', `${functionName(fn)} crashed: ${error.name}: ${error.message}`),
      );
    });
    this.worker.on('exit', (code) => this.end(runtimeError('Runtime.ExitError', `${functionName(fn)} exited with code ${code}`)));
  }

  /** Resolves once the bundle is imported; rejects with Lambda's init error otherwise. */
  async started(): Promise<void> {
    const message = await this.next();
    if (message.type === 'init-failed') {
      await this.stop();
      throw reportedError(message.error);
    }
  }

  async invoke(event: unknown, context: Context): Promise<unknown> {
    const answer = this.next();
    const timeoutMs = this.fn.timeoutSeconds * 1000;
    // Only data crosses into the environment; it builds its own getRemainingTimeInMillis.
    const contextData = Object.fromEntries(Object.entries(context).filter(([, value]) => typeof value !== 'function'));
    this.worker.postMessage({ event: JSON.stringify(event ?? null), context: contextData, timeoutMs });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(runtimeError('Sandbox.Timedout', `Task timed out after ${this.fn.timeoutSeconds.toFixed(2)} seconds`)), timeoutMs);
    });
    try {
      const message = await Promise.race([answer, timedOut]);
      if (message.type === 'result') return JSON.parse(message.payload);
      if (message.type === 'error') throw reportedError(message.error);
      throw runtimeError('Runtime.InvalidResponse', `unexpected ${message.type} message`);
    } catch (error) {
      // Lambda stops a timed-out environment; the next call gets a fresh one.
      if ((error as Error).name === 'Sandbox.Timedout') await this.stop();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    this.alive = false;
    await this.worker.terminate();
  }

  private next(): Promise<EnvironmentMessage> {
    if (!this.alive) return Promise.reject(runtimeError('Runtime.ExitError', `${functionName(this.fn)} is no longer running`));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  private answer(message: EnvironmentMessage): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve(message);
  }

  private end(error: Error): void {
    this.alive = false;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }
}

/** The environments of one function: idle ones are reused (warm starts), more start while all are busy. */
class EnvironmentPool {
  /** Idle environments with the timer that stops each. */
  private readonly idle = new Map<ExecutionEnvironment, NodeJS.Timeout>();
  private readonly all = new Set<ExecutionEnvironment>();
  private readonly waiting: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly fn: SizedFunction<LambdaFunction>,
    private readonly entry: string,
    private readonly idleMs: number,
  ) {}

  async invoke(event: unknown, context: Context): Promise<unknown> {
    const environment = await this.acquire();
    try {
      return await environment.invoke(event, context);
    } finally {
      this.release(environment);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const reclaim of this.idle.values()) clearTimeout(reclaim);
    this.idle.clear();
    await Promise.all([...this.all].map((environment) => environment.stop()));
    this.all.clear();
    for (const wake of this.waiting.splice(0)) wake();
  }

  private async acquire(): Promise<ExecutionEnvironment> {
    for (;;) {
      if (this.closed) throw runtimeError('Runtime.ExitError', `${functionName(this.fn)}: the local runtime is stopping`);
      const idle = this.takeIdle();
      if (idle?.alive) return idle;
      if (idle) {
        // It crashed while idle (e.g. a promise the handler left behind rejected).
        this.all.delete(idle);
        continue;
      }
      if (this.all.size < MAX_ENVIRONMENTS_PER_FUNCTION) return this.start();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private async start(): Promise<ExecutionEnvironment> {
    const environment = new ExecutionEnvironment(this.fn, this.entry);
    this.all.add(environment);
    try {
      await environment.started();
      return environment;
    } catch (error) {
      this.release(environment);
      throw error;
    }
  }

  private takeIdle(): ExecutionEnvironment | undefined {
    const [latest] = [...this.idle].slice(-1);
    if (!latest) return undefined;
    const [environment, reclaim] = latest;
    clearTimeout(reclaim);
    this.idle.delete(environment);
    return environment;
  }

  private release(environment: ExecutionEnvironment): void {
    if (environment.alive && !this.closed) {
      const reclaim = setTimeout(() => {
        this.idle.delete(environment);
        this.all.delete(environment);
        void environment.stop();
      }, this.idleMs);
      reclaim.unref();
      this.idle.set(environment, reclaim);
    } else {
      this.all.delete(environment);
    }
    this.waiting.shift()?.();
  }
}

/**
 * Handlers as deployed: each function's esbuild bundle (lambda-bundles.ts) in execution environments
 * of its own (worker threads), so a bundle that cannot load or run fails its call, as it would on AWS.
 */
export class BundledHandlers implements HandlerLoader {
  readonly enforcesTimeouts = true;
  private readonly pools = new Map<string, EnvironmentPool>();

  constructor(
    private readonly bundles: LambdaBundles,
    /** How long an environment may stay idle before it is stopped. */
    private readonly idleMs = DEFAULT_IDLE_MS,
  ) {}

  async handlerFor(fn: SizedFunction<LambdaFunction>): Promise<LambdaHandler> {
    let pool = this.pools.get(fn.id);
    if (!pool) {
      const entry = await this.bundles.entryOf(fn);
      pool = this.pools.get(fn.id) ?? new EnvironmentPool(fn, entry, this.idleMs);
      this.pools.set(fn.id, pool);
    }
    const ready = pool;
    return (event, context) => ready.invoke(event, context);
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
  }
}
