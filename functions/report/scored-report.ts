import { z } from '../http/zod';
import { ScoringResultSchema } from '../scoring/schemas';

/** The score step's output in the artifacts bucket: one result per timeline point (dates are null). */
export const ScoredReportSchema = z.object({
  scoring_version: z.string(),
  /** From the request's LOINC 76689-9 predictor; picks the peer statistics printed beside each biomarker. */
  sex: z.enum(['male', 'female']),
  results: z.array(ScoringResultSchema.extend({ scoring_event_date: z.string().nullable() })).min(1),
});
export type ScoredReport = z.infer<typeof ScoredReportSchema>;
