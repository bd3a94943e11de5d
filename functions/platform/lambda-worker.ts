import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from './observability';

/**
 * A non-HTTP Lambda (Step Functions task, trigger, schedule) as Lambda runs it: the Powertools logger
 * carries this invocation's function name and request id and forgets the previous invocation's keys,
 * like the HTTP handlers (functions/http/handler.ts).
 */
export function lambdaWorker<E, R>(run: (event: E) => Promise<R>) {
  return middy((event: E, _context: Context) => run(event)).use(injectLambdaContext(logger, { resetKeys: true }));
}
