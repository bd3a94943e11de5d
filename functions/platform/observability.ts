import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import { config } from './config';

/**
 * Shared Powertools instances. Rule for every log line in Hale: identifiers, counts, timings and
 * error class names only; never request or response bodies, header values, document text, or
 * anything a person typed (it may be PHI).
 */
export const logger = new Logger({ serviceName: 'hale' });
export const metrics = new Metrics({ namespace: 'Hale', serviceName: 'hale' });

let tracer: Tracer | undefined;

/**
 * An AWS SDK client whose calls X-Ray traces as subsegments, in AWS; elsewhere the client as it is.
 * The Powertools tracer loads on first use, in AWS only: its X-Ray SDK turns on async hooks for the
 * whole process as it loads (cls-hooked), which every asynchronous step of the local runtime (its
 * gateway, state machines, stores) paid for with nothing to trace, in CPU time and in the async
 * resources it keeps track of.
 */
export function tracedInAws<T>(client: T): T {
  if (config().HALE_RUNTIME !== 'aws') return client;
  // A require, not an import: an import would load it wherever this module loads.
  const { Tracer: PowertoolsTracer } = require('@aws-lambda-powertools/tracer') as typeof import('@aws-lambda-powertools/tracer');
  tracer ??= new PowertoolsTracer({ serviceName: 'hale' });
  return tracer.captureAWSv3Client(client);
}
