import type { FieldIssue } from '../http/errors';
import { DOMAINS } from '../scoring/domains';
import type { TimeseriesResponse } from '../scoring/schemas';
import { scoreRequest } from '../scoring/score-request';
import { type CsvColumns, csvColumns, csvField, csvRowIssues, csvRowRequest } from './csv-input';
import { type BatchTally, emptyTally, tallyScores } from './distributions';
import { Utf8Lines } from './utf8-lines';

/**
 * One batch of bulk items scored: each item is one JSONL line (a timeseries request) or one CSV row
 * (a person-date), scored through the timeseries entry point. A scored line becomes a result line
 * (the timeseries response with its line number) and one flattened CSV row per scored date; a line
 * that cannot be scored becomes an error line naming its fields. Nothing here touches storage.
 */

export type InputType = 'JSONL' | 'CSV';

/** A Distributed Map item: its 0-based index in the file and its value as the ItemReader read it. */
export interface BulkItem {
  index: number;
  value: unknown;
}

export interface BatchContext {
  jobId: string;
  inputType: InputType;
  /** Line number of the item at index 0 (1 for JSONL, 2 for CSV: the header is line 1). */
  lineOffset: number;
  /** Time the job was created, the `event_asof_dtutc` of CSV rows. */
  createdAt: string;
}

/** Field the prepare step adds to an item it could not read (a line that is not JSON, a row of the wrong width). */
export const INPUT_ERROR_FIELD = 'hale_input_error';
/** Column the prepare step adds to each CSV row: its line in the file as uploaded (input-scan.ts). */
export const LINE_FIELD = 'hale_line';

export interface ErrorLine {
  line: number;
  uid_ext: string | null;
  errors: { field: string; message: string }[];
}

export interface ScoredBatch {
  /** Result lines, JSON text each: the batch's part of results.jsonl. */
  results: Utf8Lines;
  /** Flattened result rows, CSV text each (no header): its part of results.csv. */
  csvRows: Utf8Lines;
  errors: ErrorLine[];
  tally: BatchTally;
}

/** Per domain; the risk columns are of the domain's primary outcome and horizon, the first of its risk_ratios. */
const METRIC_COLUMNS = ['status', 'health_score', 'disease_age', 'risk_outcome', 'risk_horizon_years', 'risk', 'peer_risk', 'risk_ratio', 'score_percentile'] as const;

/** Header of results.csv: the person-date, then the same columns for every domain. */
export function resultCsvHeader(): string {
  return ['line', 'uid_ext', 'score_date', 'age', ...DOMAINS.flatMap((d) => METRIC_COLUMNS.map((m) => `${d.code}_${m}`))].join(',');
}

/**
 * A CSV cell: quoted when it holds a delimiter, quote or line break; text that a spreadsheet would run
 * as a formula (= + - @ first) is prefixed with an apostrophe (OWASP CSV injection). Numbers are as they are.
 */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(String(value)) ? `'${String(value)}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function addCsvRows(rows: Utf8Lines, line: number, response: TimeseriesResponse): void {
  for (const result of response.scoring_results) {
    const byCode = new Map(result.disease_scores.map((score) => [score.disease_code, score]));
    const cells: unknown[] = [line, response.uid_ext, result.scoring_event_date, result.scoring_event_age];
    for (const domain of DOMAINS) {
      const score = byCode.get(domain.code);
      const primary = score?.risk_ratios[0];
      cells.push(score?.status, score?.health_score, score?.disease_age, primary?.outcome, primary?.horizon_years, primary?.risk, primary?.peer_risk, primary?.ratio, score?.score_percentile);
    }
    rows.add(cells.map(csvCell).join(','));
  }
}

function uidOf(value: unknown): string | null {
  const uid = typeof value === 'object' && value !== null ? (value as { uid_ext?: unknown }).uid_ext : undefined;
  return typeof uid === 'string' && uid !== '' ? uid : null;
}

function asRow(value: unknown): Record<string, string> {
  return typeof value === 'object' && value !== null ? (value as Record<string, string>) : {};
}

interface Outcome {
  response?: TimeseriesResponse;
  errors?: { field: string; message: string }[];
}

function scoreJsonl(value: unknown): Outcome {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { errors: [{ field: '', message: 'a line must be a JSON object: one POST /health-score/timeseries request' }] };
  }
  const outcome = scoreRequest(value);
  if (outcome.status === 'scored') return { response: outcome.response };
  return { errors: outcome.errors.map((issue: FieldIssue) => ({ field: issue.path, message: issue.message })) };
}

function scoreCsv(columns: CsvColumns, row: Record<string, string>, context: BatchContext, line: number): Outcome {
  const issues = csvRowIssues(row);
  if (issues.length > 0) return { errors: issues };
  const request = csvRowRequest(columns, row, { eventId: context.jobId, eventAsOf: context.createdAt, line });
  const outcome = scoreRequest(request);
  if (outcome.status === 'scored') return { response: outcome.response };
  // A predictor a message names by its place in the request is named by its column.
  const columnOf = (_: string, index: string) => `column '${request.health_events[0]?.predictors[Number(index)]?.id ?? 'predictors'}'`;
  const message = (text: string) => text.replace(/\bbody\.health_events\.0\.predictors\.(\d+)(?:\.[a-z_]+)?/g, columnOf);
  // score_date stands for both the date scored and the event's date: one bad date is one error of its column.
  const errors = outcome.errors.map((issue) => ({ field: csvField(issue.path, request, columns, row), message: message(issue.message) }));
  return { errors: errors.filter((error, i) => errors.findIndex((e) => e.field === error.field && e.message === error.message) === i) };
}

/** The CSV columns of a batch, read from its first row's keys (every row has the header's keys). */
function columnsOf(items: readonly BulkItem[]): CsvColumns | undefined {
  const first = items.find((item) => typeof item.value === 'object' && item.value !== null);
  if (!first) return undefined;
  return csvColumns(Object.keys(first.value as object).filter((name) => name !== INPUT_ERROR_FIELD && name !== LINE_FIELD));
}

/** The item's line in the file: a CSV row's as the prepare step numbered it, else counted from the item's index. */
function lineOf(item: BulkItem, context: BatchContext): number {
  const numbered = Number(asRow(item.value)[LINE_FIELD]);
  return context.inputType === 'CSV' && Number.isInteger(numbered) && numbered > 0 ? numbered : item.index + context.lineOffset;
}

/** Scores every item; one item's failure, even an internal one, is that item's error line only. */
export function scoreItems(items: readonly BulkItem[], context: BatchContext, onInternalError: (error: unknown) => void = () => undefined): ScoredBatch {
  const batch: ScoredBatch = { results: new Utf8Lines(), csvRows: new Utf8Lines(), errors: [], tally: emptyTally() };
  const columns = context.inputType === 'CSV' ? columnsOf(items) : undefined;
  for (const item of items) {
    const line = lineOf(item, context);
    const inputError = asRow(item.value)[INPUT_ERROR_FIELD];
    let outcome: Outcome;
    if (typeof inputError === 'string' && inputError !== '') {
      outcome = { errors: [{ field: '', message: inputError }] };
    } else {
      try {
        outcome = context.inputType === 'CSV' ? scoreCsv(columns!, asRow(item.value), context, line) : scoreJsonl(item.value);
      } catch (error) {
        onInternalError(error);
        outcome = { errors: [{ field: '', message: 'this line could not be scored because of an internal error' }] };
      }
    }
    batch.tally.items += 1;
    if (outcome.response) {
      batch.tally.scored += 1;
      batch.results.add(JSON.stringify({ line, ...outcome.response }));
      addCsvRows(batch.csvRows, line, outcome.response);
      for (const result of outcome.response.scoring_results) tallyScores(batch.tally, result.disease_scores);
    } else {
      batch.tally.invalid += 1;
      const uid = context.inputType === 'CSV' ? (asRow(item.value).uid_ext ?? '').trim() || null : uidOf(item.value);
      batch.errors.push({ line, uid_ext: uid, errors: outcome.errors ?? [] });
    }
  }
  return batch;
}
