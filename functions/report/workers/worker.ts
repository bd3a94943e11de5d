import { z } from '../../http/zod';
import { lambdaWorker } from '../../platform/lambda-worker';
import { logger } from '../../platform/observability';

/** Every report step receives at least the job id; the ASL passes nothing else of substance. */
export const StepInputSchema = z.object({ jobId: z.uuid() });

export class InvalidStepInputError extends Error {
  override name = 'InvalidStepInputError';
}

/**
 * How a step ends its job for a reason that is not a fault (the input does not score, the caller's
 * target refused the PDF or stayed down through every attempt): it returns `{ failure }` and the
 * state machine takes it to MarkFailed. Nothing is thrown, so Lambda's error metrics and Step
 * Functions' failed executions count faults only. `error` is the pipeline error's name
 * (pipeline-errors.ts), `message` its caller-facing text; MarkFailed describes both like a caught error.
 */
export const StepFailureSchema = z.object({ error: z.string(), message: z.string() });
export type StepFailure = z.infer<typeof StepFailureSchema>;

/** The failure a pipeline error stands for. */
export function failureOf(error: Error): StepFailure {
  return { error: error.name, message: error.message };
}

/**
 * A Step Functions task handler: validates the state input, runs the step, and logs its name, job
 * id, duration and (on failure) the error class, nothing else. Errors propagate unchanged so that
 * their `name` reaches the state machine's Retry and Catch.
 */
export function reportStep<S extends z.ZodType, R>(step: string, schema: S, run: (input: z.output<S>) => Promise<R>) {
  return lambdaWorker(async (event: unknown): Promise<R> => {
    const parsed = schema.safeParse(event);
    if (!parsed.success) throw new InvalidStepInputError(`Step ${step} received input that does not match its schema`);
    const jobId = (parsed.data as { jobId?: string }).jobId;
    const started = performance.now();
    try {
      const result = await run(parsed.data);
      logger.info('report step done', { step, jobId, durationMs: Math.round(performance.now() - started) });
      return result;
    } catch (error) {
      logger.warn('report step failed', { step, jobId, errorName: error instanceof Error ? error.name : typeof error });
      throw error;
    }
  });
}
