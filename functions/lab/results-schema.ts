import { z } from '../http/zod';

/**
 * ExtractionResults of a lab job (spec §2.10): the single source of the results' types for the
 * parsers, the pipeline steps, the status/results handlers, the webhooks and the FHIR export.
 * Fields beyond the spec (`flag`, `resultOperator`, `provenance`, `confidence`, the element shapes
 * of `mergeActions` and `validationFlags`) are additive.
 */

const IsoDate = z.iso.date();
const PageNumber = z.number().int().min(1);

export const ResultTypeSchema = z.enum(['numeric', 'string', 'range']);
export type ResultType = z.infer<typeof ResultTypeSchema>;

export const LoincMatchTypeSchema = z.enum(['exact', 'biomarker_only', 'llm_fuzzy', 'not_found']);
export type LoincMatchType = z.infer<typeof LoincMatchTypeSchema>;

export const UcumMatchMethodSchema = z.enum(['static_map', 'pattern_rule', 'prefix_map', 'llm', 'not_found']);
export type UcumMatchMethod = z.infer<typeof UcumMatchMethodSchema>;

/**
 * Abnormal flag as printed, in HL7 v3 ObservationInterpretation terms: Quest prints the letters,
 * Labcorp the words (`High` → H, `Low` → L, `Critical`/`Alert` → the critical form of the direction,
 * or AA when the direction is not printed), `A` marks an abnormal text result, `N` an explicit `Normal`.
 */
export const ResultFlagSchema = z.enum(['H', 'L', 'HH', 'LL', 'A', 'AA', 'N']);
export type ResultFlag = z.infer<typeof ResultFlagSchema>;

/** Comparator of a censored value (`<0.5`, `>60`); `resultValue` keeps the value as printed (`<0.5`). */
export const ResultOperatorSchema = z.enum(['<', '<=', '>', '>=']);
export type ResultOperator = z.infer<typeof ResultOperatorSchema>;

/** Where a result was read: page, the row's bounding box in PDF units (origin bottom-left), the row's text. */
export const ProvenanceSchema = z.object({
  pageNumber: PageNumber,
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).describe('[x0, y0, x1, y1] in PDF user space'),
  sourceText: z.string(),
  source: z.enum(['text', 'ocr']).describe("Where the row was read: `text`, the PDF's own text layer; `ocr`, recognised from the page image (a scan)"),
  ocrConfidence: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('Lowest OCR word confidence (0–1) among the words of the row; only when `source` is `ocr`'),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

export const PanelResultSchema = z.object({
  biomarker: z.string().min(1),
  resultValue: z.string().nullable(),
  resultType: ResultTypeSchema,
  resultUnit: z.string().nullable(),
  loincCode: z.string().nullable(),
  loincMatchType: LoincMatchTypeSchema.nullable(),
  ucumCode: z.string().nullable(),
  ucumMatchMethod: UcumMatchMethodSchema.nullable(),
  minRefRangeValue: z.number().nullable(),
  maxRefRangeValue: z.number().nullable(),
  referenceRangeText: z.string().nullable(),
  pageNumber: PageNumber.nullable(),
  flag: ResultFlagSchema.optional(),
  resultOperator: ResultOperatorSchema.optional(),
  provenance: ProvenanceSchema,
  /**
   * How sure the parser is that the row was read whole and right (0–1): 1 for a row read from exact
   * positions; lowered when positions inside a text run had to be estimated (−0.05) and for each
   * repair (a re-joined name or unit, −0.05). Code mapping does not change it.
   */
  confidence: z.number().min(0).max(1),
});
export type PanelResult = z.infer<typeof PanelResultSchema>;

export const LabPanelSchema = z.object({
  panelName: z.string().min(1),
  /** Stable slug of the printed panel name (e.g. `comprehensive-metabolic-panel`); not a LOINC panel code. */
  panelCode: z.string().min(1),
  dateCollected: IsoDate.nullable().describe("Specimen collection date of the panel (YYYY-MM-DD): the panel's own Collected stamp, else the report's; null when the report prints none"),
  /** Page on which the panel starts. */
  pageNumber: PageNumber,
  panelResults: z.array(PanelResultSchema),
});
export type LabPanel = z.infer<typeof LabPanelSchema>;

export const MergeActionCodeSchema = z.enum([
  /** A panel that continues on a later page (Labcorp `(Cont.)`, Quest tables broken by page furniture). */
  'panel_continued',
  /** A test or panel name printed over two lines, re-joined. */
  'name_rejoined',
  /** A unit split over two lines (`mL/min/1.` + `73m2`) or a lone `(calc)` line, re-joined. */
  'unit_rejoined',
]);

export const MergeActionSchema = z.object({
  code: MergeActionCodeSchema,
  message: z.string(),
  panelName: z.string(),
  /** Test concerned; null when the action concerns the panel as a whole. */
  biomarker: z.string().nullable(),
  /** Pages whose content was merged, in reading order. */
  pages: z.array(PageNumber).min(1),
});
export type MergeAction = z.infer<typeof MergeActionSchema>;

export const ValidationFlagCodeSchema = z.enum([
  'value_outside_physiological_bounds',
  'flag_inconsistent_with_range',
  'differential_sum_off',
  'unit_invalid_for_loinc',
  'duplicate_test',
  /** A row printed a test name and a reference range but no value: nothing was extracted for it. */
  'range_without_value',
  /** A result read by OCR whose value, unit or range was recognised with low confidence: check it. */
  'low_ocr_confidence',
]);
export type ValidationFlagCode = z.infer<typeof ValidationFlagCodeSchema>;

export const ValidationFlagSchema = z.object({
  code: ValidationFlagCodeSchema,
  message: z.string(),
  panelName: z.string().nullable(),
  /** Test concerned; null when the flag concerns a group (e.g. the differential of a panel). */
  biomarker: z.string().nullable(),
  pageNumber: PageNumber.nullable(),
});
export type ValidationFlag = z.infer<typeof ValidationFlagSchema>;

export const VerificationSchema = z.object({
  dobFound: z.boolean(),
  dobMatches: z.boolean().nullable(),
});

/** Why a line inside a result table was not read as a result (counted in the document summary). */
export const SkipReasonSchema = z.enum([
  /** A test name and a range, no value. */
  'range_without_value',
  /** A cell in the row could not be read as its column's content. */
  'unreadable_cell',
  /** A line that reads like a row but sits off the rows' indentation (interpretive text, a legend). */
  'outside_row_indent',
]);
export type SkipReason = z.infer<typeof SkipReasonSchema>;

/** What the reader found in the document as a whole. */
export const ExtractionSummarySchema = z
  .object({
    pagesRead: z.number().int().min(0).describe('Pages of the document read'),
    pagesRecognised: z.number().int().min(0).describe('Pages whose text was recognised by OCR (scans); 0 for a PDF with a text layer'),
    panelsFound: z.number().int().min(0).describe('Panels with at least one result'),
    resultsFound: z.number().int().min(0).describe('Results extracted (always at least 1 in a completed job)'),
    lowConfidenceResults: z.number().int().min(0).describe('Results whose `confidence` is below 0.9 (positions estimated, rows repaired, OCR)'),
    rowsSkipped: z
      .array(
        z.object({
          reason: SkipReasonSchema.describe('Why these lines were not read as results'),
          count: z.number().int().min(1).describe('How many lines were skipped for this reason'),
        }),
      )
      .describe('Lines inside result tables that looked like rows but were not read as results, counted by reason'),
  })
  .describe('What the reader found in the document as a whole');
export type ExtractionSummary = z.infer<typeof ExtractionSummarySchema>;

export const ExtractionResultsSchema = z.object({
  jobId: z.string().min(1),
  status: z.literal('completed'),
  labName: z.string().nullable(),
  dateCollected: IsoDate.nullable(),
  verification: VerificationSchema,
  panels: z.array(LabPanelSchema),
  mergeActions: z.array(MergeActionSchema),
  validationFlags: z.array(ValidationFlagSchema),
  summary: ExtractionSummarySchema,
});
export type ExtractionResults = z.infer<typeof ExtractionResultsSchema>;
