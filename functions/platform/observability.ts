import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * Shared Powertools instances. Rule for every log line in Hale: identifiers, counts, timings and
 * error class names only; never request or response bodies, header values, document text, or
 * anything a person typed (it may be PHI).
 */
export const logger = new Logger({ serviceName: 'hale' });
export const metrics = new Metrics({ namespace: 'Hale', serviceName: 'hale' });
export const tracer = new Tracer({ serviceName: 'hale' });
