import type { DocumentClassification } from '../classify-document';
import { mapToLoinc } from '../loinc/map-to-loinc';
import { withLostUnitUncoded } from '../ocr/lost-unit';
import { misreadPoint, restoredPoint } from '../ocr/misread-point';
import { scannedPanelTitle } from '../ocr/panel-name-repair';
import { rangesOfAnyLab } from '../ocr/printed-ranges';
import { isGarbledRange, repairedRange, reportHyphen } from '../ocr/range-repair';
import { printedRangeText } from '../ocr/range-text-spelling';
import { repairedTestName } from '../ocr/test-name-repair';
import { isImplausibleRange, isUnflaggedOutlier, usualRange } from '../ocr/unflagged-outlier';
import { isGarbledUnit, repairedUnit, unitOfPrintedRange } from '../ocr/unit-repair';
import { respacedUnit } from '../ocr/unit-spacing';
import type { PageText } from '../pdf-text';
import type { ExtractionSummary, LabPanel, MergeAction, PanelResult, SkipReason, ValidationFlag } from '../results-schema';
import { toUcum } from '../ucum/to-ucum';
import { boundingBox, LOW_OCR_CONFIDENCE, type Word } from './layout';
import { plausibleUnit } from './row';
import { type RawPanel, type RawResult, REPAIR_PENALTY, readTables, type SkippedRow } from './table';
import { isBeyondPhysiologicalBounds, validatePanels } from './validate';
import { parseRange, parseValue, toNumber } from './values';
import { VENDOR_NAMES, type Vendor } from './vocabulary';

export { validatePanels } from './validate';

/**
 * Extraction step of the lab pipeline: classified pages in, panels of results out. By default the
 * LOINC and UCUM steps and the validation run here too; a pipeline that runs them as separate steps
 * passes `{ codes: false }` and later calls `applyCodes` and `validatePanels`.
 */

export interface LabExtraction {
  panels: LabPanel[];
  mergeActions: MergeAction[];
  /** What the reader itself doubted (ranges without a value, low OCR confidence); `validatePanels` adds the rest. */
  validationFlags: ValidationFlag[];
  labName: string | null;
  dateCollected: string | null;
  summary: ExtractionSummary;
}

export interface ExtractOptions {
  /** Map LOINC and UCUM codes and validate (default true). */
  codes?: boolean;
}

type ReportClassification = Extract<DocumentClassification, { kind: 'lab_report' }>;

/** Result confidence under which the summary counts a result as uncertain. */
const LOW_CONFIDENCE = 0.9;

export function panelCode(panelName: string): string {
  return (
    panelName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'panel'
  );
}

/**
 * A result on its way through the reader's repairs, with what no field of a result gives: how sure the
 * engine was of the word it read the value from (`restoredPoint` trusts only digits it was sure of).
 */
type ReadResult = PanelResult & { valueOcrConfidence?: number };
type ReadPanel = Omit<LabPanel, 'panelResults'> & { panelResults: ReadResult[] };

/** Lowest OCR confidence of the row's words that `counts` (all by default), when it was recognised from an image. */
function ocrConfidence(raw: RawResult, counts: (word: Word) => boolean = () => true): number | undefined {
  const scores = raw.lines.flatMap((l) => l.words.filter(counts).map((w) => w.confidence)).filter((c): c is number => c !== undefined);
  return scores.length > 0 ? Math.min(...scores) : undefined;
}

/** A confidence lowered by `by`, never under 0, to three decimals. */
function lowered(confidence: number, by: number): number {
  return Math.round(Math.max(0, confidence - by) * 1000) / 1000;
}

/** A range no lab prints: its low bound above its high one (`6.76-1.27`, a scan's `0` read as `6`). */
function isInverted(range: RawResult['range']): boolean {
  return range !== null && range.min !== null && range.max !== null && range.min > range.max;
}

function toPanelResult(read: RawResult): ReadResult {
  const ocr = ocrConfidence(read);
  // A range read from a scan that no lab prints is no reading to give: a range missed is better than one wrong.
  const raw = ocr !== undefined && isInverted(read.range) ? { ...read, range: null } : read;
  // A test name OCR misread in the usual ways is the printed name the LOINC table knows (ocr/test-name-repair.ts).
  const repaired = ocr === undefined ? null : repairedTestName(raw.biomarker);
  // The words that read as the value (a value is read from one word, as numbers are).
  const valueOcr = ocr === undefined ? undefined : ocrConfidence(raw, (w) => w.text === raw.value.resultValue);
  const result: ReadResult = {
    biomarker: repaired ?? raw.biomarker,
    resultValue: raw.value.resultValue,
    resultType: raw.value.resultType,
    resultUnit: raw.unit === null || ocr === undefined ? raw.unit : respacedUnit(raw.unit),
    loincCode: null,
    loincMatchType: null,
    ucumCode: null,
    ucumMatchMethod: null,
    minRefRangeValue: raw.range?.min ?? null,
    maxRefRangeValue: raw.range?.max ?? null,
    referenceRangeText: raw.range ? (ocr === undefined ? raw.range.text : printedRangeText(raw.range.text)) : null,
    pageNumber: raw.pageNumber,
    provenance: {
      pageNumber: raw.pageNumber,
      bbox: boundingBox(raw.lines),
      sourceText: raw.lines.map((l) => l.text).join('\n'),
      source: ocr === undefined ? 'text' : 'ocr',
      ...(ocr === undefined ? {} : { ocrConfidence: Math.round(ocr * 1000) / 1000 }),
    },
    // An OCR reading is no surer than its least certain word.
    confidence: lowered(Math.min(raw.confidence, ocr ?? 1), repaired === null ? 0 : REPAIR_PENALTY),
    ...(valueOcr === undefined ? {} : { valueOcrConfidence: valueOcr }),
  };
  if (raw.flag) result.flag = raw.flag;
  if (raw.value.resultOperator) result.resultOperator = raw.value.resultOperator;
  return result;
}

function toPanel(raw: RawPanel, dateCollected: string | null): ReadPanel {
  // A panel title misread by OCR is the panel table's printed title, a test's name, or as read without a speck's closing marks.
  const name = raw.results.some((r) => ocrConfidence(r) !== undefined) ? scannedPanelTitle(raw.name) : raw.name;
  return {
    panelName: name,
    panelCode: panelCode(name),
    dateCollected: raw.dateCollected ?? dateCollected,
    pageNumber: raw.pageNumber,
    panelResults: raw.results.map(toPanelResult),
  };
}

/** The result with its printed unit coded to UCUM (a number printed without a unit is unitless, `1`). */
export function withUcumCode<R extends PanelResult>(result: R): R {
  return { ...result, ...toUcum(result.resultUnit, { numeric: result.resultType !== 'string' }) };
}

/**
 * The result coded to LOINC by its name, its UCUM unit and its panel; a scanned number that lost its
 * unit then has no UCUM code where its test is measured in units (ocr/lost-unit.ts).
 */
export function withLoincCode<R extends PanelResult>(result: R, panelName: string): R {
  return withLostUnitUncoded({ ...result, ...mapToLoinc(result.biomarker, { ucumCode: result.ucumCode, panelName }) });
}

function withCodes(result: PanelResult, panelName: string): PanelResult {
  return withLoincCode(withUcumCode(result), panelName);
}

/** Fills the UCUM and LOINC fields of every result (UCUM first: the unit helps choose the LOINC code). */
export function applyCodes(panels: readonly LabPanel[]): LabPanel[] {
  return panels.map((panel) => ({ ...panel, panelResults: panel.panelResults.map((result) => withCodes(result, panel.panelName)) }));
}

/**
 * Each unit and range OCR misread put back to the one `vendor` prints for the test (ocr/unit-repair.ts,
 * ocr/range-repair.ts), the test coded for that by its name and the unit as read (the range by the
 * unit repaired); the codes themselves are left to `applyCodes` (the pipeline's own steps), which then
 * code the repaired unit.
 */
function withScanReadingsRepaired(panels: readonly ReadPanel[], vendor: Vendor): ReadPanel[] {
  const hyphen = reportHyphen(panels.flatMap((panel) => panel.panelResults.map((result) => result.referenceRangeText)));
  return panels.map((panel) => ({
    ...panel,
    panelResults: panel.panelResults.map((read) =>
      read.provenance.source === 'ocr' ? withRangeRepaired(withUnitRepaired(read, panel.panelName, vendor), panel.panelName, vendor, hyphen) : read,
    ),
  }));
}

function withUnitRepaired<R extends PanelResult>(result: R, panelName: string, vendor: Vendor): R {
  if (result.resultUnit === null) return result;
  const code = withCodes(result, panelName).loincCode;
  const bounds = { min: result.minRefRangeValue, max: result.maxRefRangeValue };
  const unit = repairedUnit(result.resultUnit, code, vendor) ?? unitOfPrintedRange(result.resultUnit, bounds, code, vendor);
  // A garbled unit cell no printed unit mends is no unit: left out, not given as read. So is a reading
  // that is no unit at all in a row the engine doubted; read surely, it may be a unit the table lacks.
  const doubted = (result.provenance.ocrConfidence ?? 1) < LOW_OCR_CONFIDENCE;
  if (unit === null) return plausibleUnit(result.resultUnit) && !(doubted && isGarbledUnit(result.resultUnit, code, vendor)) ? result : { ...result, resultUnit: null };
  return { ...result, resultUnit: unit, confidence: lowered(result.confidence, REPAIR_PENALTY) };
}

/**
 * The range OCR read, put back to the one the lab prints where a point or dash was misread; left out
 * where it reads as no range, or as one far from any range labs print for the test (`isImplausibleRange`):
 * a range missed is better than a wrong one.
 */
function withRangeRepaired<R extends PanelResult>(result: R, panelName: string, vendor: Vendor, hyphen: string | null): R {
  if (result.referenceRangeText === null) return result;
  const read = { text: result.referenceRangeText, min: result.minRefRangeValue, max: result.maxRefRangeValue };
  const { loincCode: code, ucumCode: unit } = withCodes(result, panelName);
  const range = repairedRange(read, code, vendor, hyphen);
  const unread = { ...result, referenceRangeText: null, minRefRangeValue: null, maxRefRangeValue: null };
  if (range === null) return isGarbledRange(read) || isImplausibleRange(read, code && unit ? usualRange(rangesOfAnyLab(code), unit) : null) ? unread : result;
  return { ...result, referenceRangeText: range.text, minRefRangeValue: range.min, maxRefRangeValue: range.max, confidence: lowered(result.confidence, REPAIR_PENALTY) };
}

/**
 * Whether a scanned value's point was lost or a speck made one, by what its row prints (ocr/misread-point.ts),
 * judged against the range as mended from the lab's printed ranges: a range read in whole numbers may be
 * the one that lost its points (`10.3` beside `34-108`, Labcorp's WBC `3.4-10.8`).
 */
function hasMisreadPoint(result: PanelResult): boolean {
  if (result.provenance.source !== 'ocr' || result.resultValue === null || result.referenceRangeText === null) return false;
  const value = parseValue(result.resultValue);
  return value !== null && misreadPoint(value, result.flag ?? null, parseRange(result.referenceRangeText));
}

/**
 * A scanned value whose point was lost, with the point put back where the engine was sure of its digits
 * and the row says where the point goes (ocr/misread-point.ts `restoredPoint`), at a repair's confidence.
 */
function withPointRestored({ valueOcrConfidence, ...result }: ReadResult, restored: Map<PanelResult, string>): PanelResult {
  if (valueOcrConfidence === undefined || valueOcrConfidence < LOW_OCR_CONFIDENCE || result.resultValue === null || result.referenceRangeText === null) return result;
  const value = parseValue(result.resultValue);
  const pointed = value === null ? null : restoredPoint(value, result.flag ?? null, parseRange(result.referenceRangeText));
  if (pointed === null) return result;
  const repaired = { ...result, resultValue: pointed, confidence: lowered(result.confidence, REPAIR_PENALTY) };
  restored.set(repaired, result.resultValue);
  return repaired;
}

/**
 * Whether a scanned value is one its row contradicts (ocr/misread-point.ts, ocr/unflagged-outlier.ts:
 * by the range it prints, or where it prints none, by the ranges labs print for the test), or one no
 * living person has (validate.ts's physiological bounds: a misreading, for the scan is what was read).
 * A unit the scan misread can make a right value look like one no one has (`WBC 3.1 x10E3/L`, for
 * x10E3/uL): physiology judges a value in a unit labs print for the test, or one below zero in any.
 */
function isContradicted(result: PanelResult, panelName: string): boolean {
  if (result.provenance.source !== 'ocr') return false;
  if (hasMisreadPoint(result)) return true;
  const coded = withCodes(result, panelName);
  const { loincCode: code, ucumCode: unit } = coded;
  const ranges = code ? rangesOfAnyLab(code) : [];
  const labsPrintTheUnit = ranges.some((row) => row.ucum_unit === unit);
  const impossible = isBeyondPhysiologicalBounds(coded) && (labsPrintTheUnit || toNumber(coded.resultValue ?? '') < 0);
  return impossible || isUnflaggedOutlier(result, unit ? usualRange(ranges, unit) : null);
}

/** Scanned rows whose value is contradicted (`isContradicted`): left unread, but for a lost point put back for sure. */
function withoutContradictedValues(panels: readonly ReadPanel[]): { panels: LabPanel[]; skipped: SkippedRow[]; restored: Map<PanelResult, string> } {
  const skipped: SkippedRow[] = [];
  const restored = new Map<PanelResult, string>();
  const kept = panels.map((panel) => ({
    ...panel,
    panelResults: panel.panelResults.map((result) => withPointRestored(result, restored)).filter((result) => {
      if (!isContradicted(result, panel.panelName)) return true;
      skipped.push({ reason: 'unreadable_cell', pageNumber: result.provenance.pageNumber, name: null });
      return false;
    }),
  }));
  return { panels: kept.filter((panel) => panel.panelResults.length > 0), skipped, restored };
}

/** What the flag of a scanned result says of its reading: the engine's doubt, or the point put back (`restored`: the value as read). */
function ocrDoubt(result: PanelResult, restored: ReadonlyMap<PanelResult, string>): string | null {
  const read = restored.get(result);
  if (read !== undefined) return `${result.biomarker}: the scan shows ${read}, whose decimal point its range ${result.referenceRangeText} puts back as ${result.resultValue}: check it against the document`;
  const ocr = result.provenance.ocrConfidence;
  if (ocr === undefined || ocr >= LOW_OCR_CONFIDENCE) return null;
  return `${result.biomarker}: the scan was read with confidence ${ocr}; check ${result.resultValue ?? 'the value'} against the document`;
}

/** Flags for what the reader doubted: ranges printed without a value, values OCR was unsure of or whose point it put back. */
function readerFlags(panels: readonly LabPanel[], skipped: readonly SkippedRow[], restored: ReadonlyMap<PanelResult, string>): ValidationFlag[] {
  const flags: ValidationFlag[] = skipped
    .filter((s) => s.reason === 'range_without_value')
    .map((s) => ({
      code: 'range_without_value',
      message: `${s.name ?? 'A row'} prints a reference range but no value; nothing was extracted for it`,
      panelName: null,
      biomarker: s.name,
      pageNumber: s.pageNumber,
    }));
  for (const panel of panels) {
    for (const result of panel.panelResults) {
      const message = ocrDoubt(result, restored);
      if (message === null) continue;
      flags.push({
        code: 'low_ocr_confidence',
        message,
        panelName: panel.panelName,
        biomarker: result.biomarker,
        pageNumber: result.pageNumber,
      });
    }
  }
  return flags;
}

function summarise(pages: readonly PageText[], panels: readonly LabPanel[], skipped: readonly SkippedRow[]): ExtractionSummary {
  const results = panels.flatMap((p) => p.panelResults);
  const counts = new Map<SkipReason, number>();
  for (const s of skipped) counts.set(s.reason, (counts.get(s.reason) ?? 0) + 1);
  return {
    pagesRead: pages.length,
    pagesRecognised: pages.filter((p) => p.source === 'ocr').length,
    panelsFound: panels.length,
    resultsFound: results.length,
    lowConfidenceResults: results.filter((r) => r.confidence < LOW_CONFIDENCE).length,
    rowsSkipped: [...counts].map(([reason, count]) => ({ reason, count })),
  };
}

export function extractLabResults(pages: readonly PageText[], classification: ReportClassification, options: ExtractOptions = {}): LabExtraction {
  const tables = readTables(pages);
  let panels = withScanReadingsRepaired(
    tables.panels.map((p) => toPanel(p, classification.collectionDate)),
    classification.vendor,
  );
  const contradicted = withoutContradictedValues(panels);
  panels = contradicted.panels;
  const skipped = [...tables.skipped, ...contradicted.skipped];
  let validationFlags = readerFlags(panels, skipped, contradicted.restored);
  if (options.codes !== false) {
    panels = applyCodes(panels);
    validationFlags = [...validationFlags, ...validatePanels(panels)];
  }
  return {
    panels,
    mergeActions: tables.mergeActions,
    validationFlags,
    labName: VENDOR_NAMES[classification.vendor],
    dateCollected: classification.collectionDate,
    summary: summarise(pages, panels, skipped),
  };
}
