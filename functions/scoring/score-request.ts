import { type FieldIssue, ValidationError } from '../http/errors';
import { scoreTimeseries } from './engine';
import { type TimeseriesResponse, TimeseriesRequestSchema } from './schemas';

/**
 * One timeseries request body scored exactly as POST /health-score/timeseries scores it (the same
 * schema, the same engine entry point), with invalid input reported as a value instead of thrown, so
 * that batch and bulk scoring can score many requests and let one bad one fail only itself. Issue
 * paths are relative to the request body (`health_events.0.predictors.2.value`).
 */
export type RequestOutcome = { status: 'scored'; response: TimeseriesResponse } | { status: 'invalid'; errors: FieldIssue[] };

/** `body.a.b` (the handler's form) → `a.b`; paths stay dotted. */
function relativePath(path: string): string {
  return path === 'body' ? '' : path.replace(/^body\./, '');
}

export function scoreRequest(body: unknown): RequestOutcome {
  const parsed = TimeseriesRequestSchema.safeParse(body);
  if (!parsed.success) {
    return { status: 'invalid', errors: parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })) };
  }
  try {
    return { status: 'scored', response: scoreTimeseries(parsed.data) };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return { status: 'invalid', errors: error.issues.map((issue) => ({ path: relativePath(issue.path), message: issue.message })) };
  }
}
