import type { Context } from 'aws-lambda';
import { DeadlineExceededError } from './errors';

/**
 * How long before its Lambda timeout a route stops waiting for its work and answers 504: time to
 * serialise the answer and for Lambda to hand it to API Gateway. Past the timeout Lambda would end
 * the call with no body at all, which API Gateway turns into a bare 502.
 */
export const DEADLINE_MARGIN_MS = 1000;

/**
 * Resolves with `work`, or rejects with DeadlineExceededError once only `marginMs` of the call's time
 * is left (`getRemainingTimeInMillis`, which Lambda and the local runtime both derive from the
 * function's timeout). The work is not cancelled: it runs on until it settles or Lambda freezes the
 * environment (on AWS it resumes when the environment next runs), so a caller told 504 may find the
 * work done when it looks or retries: a clean, retryable answer instead of a call that failed without one.
 */
export async function beforeDeadline<T>(work: Promise<T>, context: Pick<Context, 'getRemainingTimeInMillis'>, marginMs = DEADLINE_MARGIN_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceededError()), Math.max(0, context.getRemainingTimeInMillis() - marginMs));
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
