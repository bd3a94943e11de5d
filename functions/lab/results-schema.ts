import { z } from '../http/zod';

/**
 * ExtractionResults of a lab job (spec §2.10): the single source of the results' types for the
 * parsers, the pipeline steps, the status/results handlers, the webhooks and the FHIR export.
 * Fields beyond the spec (`flag`, `resultOperator`, `provenance`, `confidence`, the element shapes
 * of `mergeActions` and `validationFlags`) are additive.
 */

const IsoDate = z.iso.date();
const PageNumber = z.number().int().min(1);

export const ResultTypeSchema = z
  .enum(['numeric', 'string', 'range'])
  .describe('numeric (a number, possibly censored: `<0.5`), string (text such as NEGATIVE) or range (a printed range such as `0-2`)');
export type ResultType = z.infer<typeof ResultTypeSchema>;

export const LoincMatchTypeSchema = z
  .enum(['exact', 'biomarker_only', 'llm_fuzzy', 'not_found'])
  .describe(
    'How loincCode was found: exact (name, specimen and unit leave one code), biomarker_only (the name matches, specimen or method ambiguous: ' +
      'the serum/plasma or whole-blood default), llm_fuzzy (suggested by a language model, check digit verified; only where one is configured), not_found',
  );
export type LoincMatchType = z.infer<typeof LoincMatchTypeSchema>;

export const UcumMatchMethodSchema = z
  .enum(['static_map', 'pattern_rule', 'prefix_map', 'llm', 'not_found'])
  .describe(
    'How ucumCode was found: static_map (the table of printed units), pattern_rule (a systematic vendor spelling), prefix_map (SI-prefixed base units), ' +
      'llm (reserved; Hale does not use one for units), not_found',
  );
export type UcumMatchMethod = z.infer<typeof UcumMatchMethodSchema>;

/**
 * Abnormal flag as printed, in HL7 v3 ObservationInterpretation terms: Quest prints the letters,
 * Labcorp the words (`High` → H, `Low` → L, `Critical`/`Alert` → the critical form of the direction,
 * or AA when the direction is not printed), `A` marks an abnormal text result, `N` an explicit `Normal`.
 */
export const ResultFlagSchema = z
  .enum(['H', 'L', 'HH', 'LL', 'A', 'AA', 'N'])
  .describe('Abnormal flag as printed, in HL7 v3 ObservationInterpretation codes: H high, L low, HH/LL critical, A abnormal, AA critical abnormal, N normal; absent when none is printed');
export type ResultFlag = z.infer<typeof ResultFlagSchema>;

/** Comparator of a censored value (`<0.5`, `>60`); `resultValue` keeps the value as printed (`<0.5`). */
export const ResultOperatorSchema = z
  .enum(['<', '<=', '>', '>='])
  .describe('Comparator of a censored value (`<0.5` → <); absent when the value is exact');
export type ResultOperator = z.infer<typeof ResultOperatorSchema>;

/** Where a result was read: page, the row's bounding box in PDF units (origin bottom-left), the row's text. */
export const ProvenanceSchema = z.object({
  pageNumber: PageNumber.describe('1-based page the row was read from'),
  bbox: z
    .tuple([z.number(), z.number(), z.number(), z.number()])
    // A tuple emits only prefixItems; the item counts say it is exactly four numbers.
    .meta({ description: 'The row\'s bounding box [x0, y0, x1, y1] in PDF user space (points, origin bottom-left)', minItems: 4, maxItems: 4 }),
  sourceText: z.string().describe('The row\'s text as read, identifiers already redacted'),
  source: z.enum(['text', 'ocr']).describe("Where the row was read: `text`, the PDF's own text layer; `ocr`, recognised from the page image (a scan)"),
  ocrConfidence: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('Lowest OCR word confidence (0–1) among the words of the row; only when `source` is `ocr`'),
}).describe('Where on the document the result was read');
export type Provenance = z.infer<typeof ProvenanceSchema>;

export const PanelResultSchema = z.object({
  biomarker: z.string().min(1).describe('Test name as printed'),
  resultValue: z.string().nullable().describe('The value as printed, comparator included (`5.4`, `<0.5`, `NEGATIVE`); null when the lab printed none'),
  resultType: ResultTypeSchema,
  resultUnit: z.string().nullable().describe('Unit as printed; null when none is printed'),
  loincCode: z.string().nullable().describe('LOINC code of the test (e.g. 2345-7); null when not found'),
  loincMatchType: LoincMatchTypeSchema.nullable(),
  ucumCode: z.string().nullable().describe('The printed unit in UCUM (e.g. mg/dL, 10*3/uL); null when there is no unit, it has no UCUM form, or a scan lost the unit of a test measured in units'),
  ucumMatchMethod: UcumMatchMethodSchema.nullable(),
  minRefRangeValue: z.number().nullable().describe('Lower bound of the printed reference range, in the printed unit; null when none is printed (e.g. `<200`)'),
  maxRefRangeValue: z.number().nullable().describe('Upper bound of the printed reference range, in the printed unit; null when none is printed (e.g. `>39`)'),
  referenceRangeText: z.string().nullable().describe('Reference range as printed; null when none is printed'),
  pageNumber: PageNumber.nullable().describe('1-based page of the result'),
  flag: ResultFlagSchema.optional(),
  resultOperator: ResultOperatorSchema.optional(),
  provenance: ProvenanceSchema,
  confidence: z
    .number()
    .min(0)
    .max(1)
    .describe(
      'How sure the reader is that the row was read whole and right, 0–1: 1 for a row read from exact positions, 0.05 less for estimated positions ' +
        'inside a text run and for each repair (a re-joined name or unit). Code mapping does not change it',
    ),
}).describe('One test result as printed, with its codes');
export type PanelResult = z.infer<typeof PanelResultSchema>;

export const LabPanelSchema = z.object({
  panelName: z.string().min(1).describe('Panel name as printed (e.g. Comprehensive Metabolic Panel)'),
  panelCode: z.string().min(1).describe('Stable slug of the printed panel name (e.g. `comprehensive-metabolic-panel`); not a LOINC panel code'),
  dateCollected: IsoDate.nullable().describe("Specimen collection date of the panel (YYYY-MM-DD): the panel's own Collected stamp, else the report's; null when the report prints none"),
  pageNumber: PageNumber.describe('1-based page on which the panel starts'),
  panelResults: z.array(PanelResultSchema).describe('The panel\'s results in printed order'),
}).describe('One panel of the report');
export type LabPanel = z.infer<typeof LabPanelSchema>;

export const MergeActionCodeSchema = z
  .enum([
  /** A panel that continues on a later page (Labcorp `(Cont.)`, Quest tables broken by page furniture). */
  'panel_continued',
  /** A test or panel name printed over two lines, re-joined. */
  'name_rejoined',
  /** A unit split over two lines (`mL/min/1.` + `73m2`) or a lone `(calc)` line, re-joined. */
  'unit_rejoined',
  ])
  .describe('panel_continued (a panel continued on a later page), name_rejoined (a name printed over two lines), unit_rejoined (a unit split over two lines)');

export const MergeActionSchema = z.object({
  code: MergeActionCodeSchema,
  message: z.string().describe('What was merged, for a person to read'),
  panelName: z.string().describe('The panel concerned'),
  biomarker: z.string().nullable().describe('The test concerned; null when the action concerns the panel as a whole'),
  pages: z.array(PageNumber).min(1).describe('1-based pages whose content was merged, in reading order'),
}).describe('Something the reader joined that the layout had split');
export type MergeAction = z.infer<typeof MergeActionSchema>;

export const ValidationFlagCodeSchema = z
  .enum([
    'value_outside_physiological_bounds',
    'flag_inconsistent_with_range',
    'differential_sum_off',
    'unit_invalid_for_loinc',
    'duplicate_test',
    'range_without_value',
    'low_ocr_confidence',
  ])
  .describe(
    'value_outside_physiological_bounds (a value no living person has: a misread or a unit error), flag_inconsistent_with_range (the printed flag ' +
      'contradicts value and range), differential_sum_off (the white-cell differential does not add up to about 100 %), unit_invalid_for_loinc ' +
      '(the unit cannot measure what the LOINC code measures), duplicate_test (the same test twice in a panel), range_without_value (a row printed a ' +
      'test name and a reference range but no value: nothing was extracted for it), low_ocr_confidence (a result read by OCR whose value, unit or range ' +
      'was recognised with low confidence: check it)',
  );
export type ValidationFlagCode = z.infer<typeof ValidationFlagCodeSchema>;

export const ValidationFlagSchema = z.object({
  code: ValidationFlagCodeSchema,
  message: z.string().describe('The issue for a person to read'),
  panelName: z.string().nullable().describe('The panel concerned; null when none'),
  biomarker: z.string().nullable().describe('The test concerned; null when the flag concerns a group (e.g. the differential of a panel)'),
  pageNumber: PageNumber.nullable().describe('1-based page concerned; null when several'),
}).describe('A result to check before use; the result itself is kept as printed');
export type ValidationFlag = z.infer<typeof ValidationFlagSchema>;

export const VerificationSchema = z.object({
  dobFound: z.boolean().describe('Whether the document prints a date of birth'),
  dobMatches: z.boolean().nullable().describe('Whether it equals the dateOfBirth sent with the upload; null when none was sent or the document prints none'),
}).describe('Whether the document belongs to the person the caller meant; no personal data is returned');

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
  jobId: z.string().min(1).describe('The job\'s id'),
  status: z.literal('completed').describe('Always completed'),
  labName: z.string().nullable().describe('The laboratory named on the document (Quest Diagnostics or Labcorp); null when none is printed'),
  dateCollected: IsoDate.nullable().describe('Specimen collection date (YYYY-MM-DD); null when none is printed'),
  verification: VerificationSchema,
  panels: z.array(LabPanelSchema).describe('The panels in printed order'),
  mergeActions: z.array(MergeActionSchema).describe('What the reader joined across lines and pages; empty when nothing'),
  validationFlags: z.array(ValidationFlagSchema).describe('Results to check before use; empty when none'),
  summary: ExtractionSummarySchema,
}).meta({ id: 'ExtractionResults', description: 'The structured results of a lab report (spec §2.10)' });
export type ExtractionResults = z.infer<typeof ExtractionResultsSchema>;
