import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { LAMBDA_SYNC_PAYLOAD_BYTES } from '../functions/http/request-limits';
import type { LocalInvokeStore } from './invoke-store';
import { repoPath } from './repo-paths';
import type { RuntimeLog } from './runtime-log';

/** The part of a route or worker definition that says how Lambda would run it. */
export interface LambdaFunction {
  id: string;
  /** Repo-relative module exporting `handler`. */
  handler: string;
  memoryMb?: number;
  timeoutSeconds?: number;
  /** Repo-relative folders shipped beside the bundle (bundles mode, as in the stack). */
  bundleFiles?: readonly string[];
  /** Ships the OCR engine beside the bundle (infra/ocr-bundle.ts). */
  ocrAssets?: boolean;
}

/** A function with its sizing resolved (ROUTE_DEFAULTS / WORKER_DEFAULTS fill the gaps). */
export type SizedFunction<F extends LambdaFunction> = F & { memoryMb: number; timeoutSeconds: number };

export function withDefaults<F extends LambdaFunction>(fn: F, defaults: { memoryMb: number; timeoutSeconds: number }): SizedFunction<F> {
  return { ...fn, memoryMb: fn.memoryMb ?? defaults.memoryMb, timeoutSeconds: fn.timeoutSeconds ?? defaults.timeoutSeconds };
}

// Lambda handlers take one event type each; the invoker is generic over all of them.
export type LambdaHandler = (event: unknown, context: Context) => Promise<unknown>;

/**
 * Where the invoker gets a function's handler: its TypeScript module in this process (SourceHandlers,
 * the default) or its deployed bundle in execution environments of its own (BundledHandlers,
 * lambda-environments.ts).
 */
export interface HandlerLoader {
  handlerFor(fn: SizedFunction<LambdaFunction>): Promise<LambdaHandler>;
  /** Whether its handlers already fail a call at the function's timeout (execution environments do). */
  readonly enforcesTimeouts: boolean;
  close(): Promise<void>;
}

export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';

export function functionName(fn: LambdaFunction): string {
  return `hale-${fn.id}`;
}

export function functionArn(fn: LambdaFunction): string {
  return `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${functionName(fn)}`;
}

/**
 * Handler modules imported on first use (a cold start, which keeps `npm start` fast), then reused;
 * they run in this process.
 */
export class SourceHandlers implements HandlerLoader {
  readonly enforcesTimeouts = false;
  private readonly modules = new Map<string, Promise<LambdaHandler>>();

  handlerFor(fn: LambdaFunction): Promise<LambdaHandler> {
    let loaded = this.modules.get(fn.handler);
    if (!loaded) {
      loaded = import(repoPath(fn.handler)).then((mod: { handler?: unknown }) => {
        if (typeof mod.handler !== 'function') throw new Error(`${fn.handler} does not export a handler function`);
        return mod.handler as LambdaHandler;
      });
      // A module that failed to load is retried on the next call, as a new Lambda container would.
      loaded.catch(() => this.modules.delete(fn.handler));
      this.modules.set(fn.handler, loaded);
    }
    return loaded;
  }

  async close(): Promise<void> {}
}

/**
 * Runs handlers the way Lambda does: each call gets a fresh Context with the function's timeout, and
 * runs in its own context of the invoke store, so what one call adds to the shared logger (its
 * function name, request id, keys) is never seen by a call running beside it.
 */
export class LambdaInvoker {
  constructor(
    private readonly log: RuntimeLog,
    private readonly store: LocalInvokeStore,
    private readonly handlers: HandlerLoader = new SourceHandlers(),
  ) {}

  /**
   * Calls the handler; its context's getRemainingTimeInMillis counts down from the function's timeout,
   * as on Lambda. Bundled handlers' environments fail a call at the timeout. In this process, a call
   * made with `enforceTimeout` (the gateway's routes) fails there too, as Lambda's `Sandbox.Timedout`,
   * though the handler's work cannot be stopped and runs on unobserved; other calls (workers, whose
   * timeouts are minutes, under Step Functions, which would retry beside the running one) only have
   * an overrun reported, since AWS would have stopped them.
   */
  async invoke(fn: SizedFunction<LambdaFunction>, event: unknown, options: { enforceTimeout?: boolean } = {}): Promise<unknown> {
    assertPayloadWithinLimit(event, 'RequestEntityTooLargeException', 'Request');
    const handler = await this.handlers.handlerFor(fn);
    const started = performance.now();
    const context = lambdaContext(fn);
    const enforce = options.enforceTimeout === true && !this.handlers.enforcesTimeouts;
    let timer: NodeJS.Timeout | undefined;
    try {
      const call = this.store.invocation(context.awsRequestId, () => handler(event, context));
      const timedOut = new Promise<never>((_, reject) => {
        // Unref'd: a call the gateway already answered (504) must not keep a stopping process alive.
        if (enforce) timer = setTimeout(() => reject(lambdaTimeout(fn)), timeoutMs(fn)).unref();
      });
      const result = await Promise.race([call, timedOut]);
      assertPayloadWithinLimit(result, 'Function.ResponseSizeTooLarge', 'Response');
      return result;
    } finally {
      clearTimeout(timer);
      const durationMs = performance.now() - started;
      if (durationMs > timeoutMs(fn)) {
        this.log.warn('function ran past its Lambda timeout', { function: fn.id, durationMs: Math.round(durationMs), timeoutMs: timeoutMs(fn) });
      }
    }
  }

  /** Ends the execution environments of bundled handlers. */
  close(): Promise<void> {
    return this.handlers.close();
  }
}

/**
 * Lambda's synchronous payload limit (functions/http/request-limits.ts), on the event and on the
 * result: Lambda refuses the call or fails it, and API Gateway answers either with 502.
 */
function assertPayloadWithinLimit(payload: unknown, name: string, what: string): void {
  const bytes = Buffer.byteLength(JSON.stringify(payload ?? null));
  if (bytes <= LAMBDA_SYNC_PAYLOAD_BYTES) return;
  const error = new Error(`${what} payload of ${bytes} bytes exceeds Lambda's ${LAMBDA_SYNC_PAYLOAD_BYTES}-byte limit`);
  error.name = name;
  throw error;
}

/** What Lambda reports for a call that ran out of time (the error bundled environments raise too). */
function lambdaTimeout(fn: SizedFunction<LambdaFunction>): Error {
  const error = new Error(`Task timed out after ${fn.timeoutSeconds.toFixed(2)} seconds`);
  error.name = 'Sandbox.Timedout';
  return error;
}

function timeoutMs(fn: SizedFunction<LambdaFunction>): number {
  return fn.timeoutSeconds * 1000;
}

function lambdaContext(fn: SizedFunction<LambdaFunction>): Context {
  const deadline = Date.now() + timeoutMs(fn);
  const name = functionName(fn);
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: functionArn(fn),
    memoryLimitInMB: String(fn.memoryMb),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
