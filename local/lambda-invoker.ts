import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { repoPath } from './repo-paths';

/** The part of a route or worker definition that says how Lambda would run it. */
export interface LambdaFunction {
  id: string;
  /** Repo-relative module exporting `handler`. */
  handler: string;
  memoryMb?: number;
  timeoutSeconds?: number;
}

// Lambda handlers take one event type each; the invoker is generic over all of them.
type LambdaHandler = (event: unknown, context: Context) => Promise<unknown>;

export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';

export function functionName(fn: LambdaFunction): string {
  return `hale-${fn.id}`;
}

export function functionArn(fn: LambdaFunction): string {
  return `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${functionName(fn)}`;
}

/**
 * Runs handler modules the way Lambda does: imported on first use (a cold start, which keeps
 * `npm start` fast), then reused; each call gets a fresh Context with the function's timeout.
 */
export class LambdaInvoker {
  private readonly modules = new Map<string, Promise<LambdaHandler>>();

  private load(fn: LambdaFunction): Promise<LambdaHandler> {
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

  async invoke(fn: LambdaFunction, event: unknown): Promise<unknown> {
    const handler = await this.load(fn);
    return handler(event, lambdaContext(fn));
  }
}

function lambdaContext(fn: LambdaFunction): Context {
  const deadline = Date.now() + (fn.timeoutSeconds ?? 3) * 1000;
  const name = functionName(fn);
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: functionArn(fn),
    memoryLimitInMB: String(fn.memoryMb ?? 128),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
