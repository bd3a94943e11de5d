import { z } from '../../http/zod';
import { LabErrorTypeSchema, RejectionReasonSchema } from '../lab-job';

/**
 * What the lab-extraction state machine carries between steps: the job id and, once a step has
 * decided how the job ends, that outcome. Documents, text and results travel as S3 objects under
 * keys derived from the job id (storage-keys.ts), never in the state (256 KB limit, and execution
 * history is kept for 90 days, so no PHI may pass through it).
 */
const OutcomeSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('completed') }),
  z.object({ status: z.literal('quarantined'), detectedLanguage: z.string() }),
  z.object({ status: z.literal('rejected_phi') }),
  z.object({ status: z.literal('invalid_document'), rejectionReason: RejectionReasonSchema, detectedLab: z.string().nullable() }),
  z.object({ status: z.literal('failed'), errorType: LabErrorTypeSchema, message: z.string() }),
]);
export type Outcome = z.infer<typeof OutcomeSchema>;

/** Catch blocks put the error here: Step Functions' `{Error, Cause}`. */
export const CaughtErrorSchema = z.object({ Error: z.string(), Cause: z.string().optional() });

export const PipelineStateSchema = z.object({
  jobId: z.uuid(),
  outcome: OutcomeSchema.optional(),
  error: CaughtErrorSchema.optional(),
  /** Pages without a usable text layer, for the Recognize step (OCR); absent when every page has one. */
  ocrPages: z.array(z.number().int().min(1)).min(1).optional(),
});
export type PipelineState = z.infer<typeof PipelineStateSchema>;

/** What Finish hands to Notify: the event to send, or none when the job had already finished. */
export const NotifyInputSchema = z.object({ jobId: z.uuid(), notify: z.boolean() });
export type NotifyInput = z.infer<typeof NotifyInputSchema>;

/** What Notify answers: delivered, or not; with `retryInSeconds` the state machine waits and calls it again. */
export interface NotifyResult {
  delivered: boolean;
  retryInSeconds?: number;
}
