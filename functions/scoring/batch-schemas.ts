// Named imports, not `z` (see schemas.ts).
import { array, type infer as Infer, number, object, string, unknown, enum as zenum } from 'zod';
import { BATCH_LIMITS } from './batch-limits';
import {
  DiseaseScoreSchema,
  IsoDateSchema,
  ScoringPredictorSchema,
  ScoringWarningSchema,
  TimeseriesEventSchema,
  TimeseriesRequestSchema,
} from './schemas';

/**
 * POST /health-score/batch: many people, each scored at one date, each element of the answer exactly
 * one timeseries result (the same schemas, so changes to the timeseries contract reach batch scoring).
 * Its limits: batch-limits.ts.
 */

const ScoringMetadataSchema = TimeseriesRequestSchema.shape.scoring_event_metadata.refine((metadata) => metadata.mode !== 'validate', {
  message: 'batch scoring has no validate mode (use validate_and_score or score); to only validate, use POST /health-score/timeseries',
  path: ['mode'],
});

export const BatchPersonSchema = object({
  uid_ext: TimeseriesRequestSchema.shape.uid_ext.meta({ description: 'Your identifier of the person, echoed in the result' }),
  date_of_birth: IsoDateSchema.meta({ description: 'Date of birth (YYYY-MM-DD)' }),
  score_date: IsoDateSchema.meta({ description: 'Date to score (YYYY-MM-DD); the predictors are taken as measured on it' }),
  predictors: TimeseriesEventSchema.shape.predictors.meta({
    description: 'Predictors as in a timeseries health event (LOINC/SNOMED code, value as text, printed unit); include 76689-9 (sex)',
  }),
}).meta({ id: 'BatchPerson', description: 'One person scored at one date' });

export const BatchRequestSchema = object({
  scoring_event_metadata: ScoringMetadataSchema.meta({
    description: 'As in a timeseries request; `mode` is validate_and_score (invalid predictors make the person invalid) or score (they are dropped with a warning)',
  }),
  persons: array(BatchPersonSchema)
    .min(1)
    .max(BATCH_LIMITS.maxPersons)
    .meta({ description: `1–${BATCH_LIMITS.maxPersons} persons (and at most 1 MB of request); more answer 413 naming the bulk API` }),
}).meta({ id: 'BatchRequest', description: 'Up to 100 persons, each scored at one date, with the scoring metadata of a timeseries request' });
export type BatchRequest = Infer<typeof BatchRequestSchema>;

/**
 * What the handler validates up front: the envelope only. Each person is validated on its own, so a
 * bad person is an `invalid` element of the answer, not a 422 for everyone.
 */
export const BatchEnvelopeSchema = object({
  scoring_event_metadata: ScoringMetadataSchema,
  persons: array(unknown()).min(1),
});
export type BatchEnvelope = Infer<typeof BatchEnvelopeSchema>;

export const BatchIssueSchema = object({
  path: string().meta({ description: 'Dotted location in the person, e.g. `predictors.2.value`; empty for the person as a whole' }),
  message: string().meta({ description: 'What is wrong, naming the predictor and the reason' }),
});

export const BatchResultSchema = object({
  uid_ext: string().nullable().meta({ description: "The person's uid_ext as sent; null when it was missing or not text" }),
  status: zenum(['scored', 'invalid']).meta({ description: '`scored`, or `invalid` with `errors` (that person only; the others are scored)' }),
  errors: array(BatchIssueSchema).meta({ description: 'Why the person could not be scored; empty when scored' }),
  warnings: array(ScoringWarningSchema).meta({ description: 'As in a timeseries response: unknown codes, dropped predictors (score mode)' }),
  scoring_event_date: IsoDateSchema.nullable().meta({ description: 'The scored date; null when the person is invalid' }),
  scoring_event_age: number().nullable().meta({ description: 'Age in years at the scored date; null when the person is invalid' }),
  disease_scores: array(DiseaseScoreSchema).meta({ description: 'One entry per health domain, exactly as in a timeseries result; empty when invalid' }),
  scoring_predictors: array(ScoringPredictorSchema).meta({ description: 'The inputs used, exactly as in a timeseries result; empty when invalid' }),
}).meta({ id: 'BatchResult', description: 'One person: a timeseries result of one date plus its own status, errors and warnings' });
export type BatchResult = Infer<typeof BatchResultSchema>;

export const BatchResponseSchema = object({
  scoring_version: string().meta({ description: 'Version of the scoring models and reference data' }),
  batch_results: array(BatchResultSchema).meta({ description: 'One element per person, in request order' }),
}).meta({ id: 'BatchResponse', description: 'One result per person, in request order' });
export type BatchResponse = Infer<typeof BatchResponseSchema>;
