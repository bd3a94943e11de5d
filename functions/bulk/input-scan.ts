import { parse as parseCsvText } from 'csv-parse/sync';
import { csvColumns } from './csv-input';
import { BULK_LIMITS } from './limits';
import { INPUT_ERROR_FIELD, type InputType, LINE_FIELD } from './results';

/**
 * The prepare step's pass over an uploaded file, as it streams in (memory holds one line, whatever
 * the file's size). It finds what the Distributed Map's ItemReader cannot read without failing the
 * whole Map Run, or what would fail the Map Run's batch later — a line that is not JSON or not UTF-8,
 * one nested deeper than any request, a line too long for a batch, a blank line, a CSV row of the
 * wrong width or with a quote its line does not close — counts the items, and says whether the file
 * is JSONL or CSV at all. A second pass writes a copy in which each such line is replaced by an item
 * that carries only its error (`hale_input_error`), so every line keeps its number and becomes an
 * error line of the job instead of stopping it: for JSONL when there are any, for CSV always (below).
 * A file that is not what its format says fails the job.
 *
 * A bulk CSV row is one line of the file: no field of a person-date holds a line break, and a quote a
 * line leaves open is that row's error, not a field running on to the end of the file (which would
 * turn one typing slip into a failed job, or swallow the rows after it). The CSV copy names each
 * column as the header does, trimmed, without unnamed ones (a spreadsheet's trailing comma), and adds
 * the row's line in the file (`hale_line`), so errors name the line an editor shows.
 */

export class BulkInputError extends Error {
  /** The state machine catches this name and fails the job with `invalid_input`. */
  override name = 'BulkInputInvalid';
}

export interface ScanReport {
  items: number;
  /** Lines the ItemReader could not read as they are; when any, the job reads the sanitised copy. */
  unreadable: number;
}

/** CSV headers of up to 10 KiB are what Step Functions' ItemReader reads. */
const CSV_HEADER_LIMIT_BYTES = 10 * 1024;

/**
 * Deepest nesting of arrays and objects a JSONL line may have. A timeseries request nests five deep
 * (the request, health_events, an event, predictors, a predictor); a line nested thousands deep
 * overflows the stack of whatever walks it recursively (the runtime copying a batch), failing the
 * batch instead of the line.
 */
export const MAX_LINE_NESTING = 64;

function marker(message: string): string {
  return JSON.stringify({ [INPUT_ERROR_FIELD]: message });
}

/** The Unicode replacement character: what the decoder puts where bytes are not UTF-8. */
const NOT_UTF8 = '\uFFFD';
const NOT_UTF8_MESSAGE = 'the line holds bytes that are not UTF-8 text (save the file as UTF-8)';

/**
 * The file's lines, without their line breaks (`\n`, `\r\n`; where `bareCarriageReturns` and the
 * file's first break is a lone `\r`, as old Mac spreadsheets write, `\r`), and without a leading
 * byte-order mark (the decoder drops it). A line longer than any item may be is reported, not held:
 * only its start is kept.
 */
async function* lines(chunks: AsyncIterable<Uint8Array>, bareCarriageReturns = false): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let lineBreak: '\n' | '\r' | undefined;
  for await (const chunk of chunks) {
    pending += decoder.decode(chunk, { stream: true });
    if (lineBreak === undefined) {
      const first = pending.search(/[\r\n]/);
      // A `\r` at the end of what has come so far may be the start of `\r\n`: wait for the next chunk.
      if (first >= 0 && (pending[first] === '\n' || first + 1 < pending.length)) lineBreak = bareCarriageReturns && pending[first] === '\r' && pending[first + 1] !== '\n' ? '\r' : '\n';
    }
    if (lineBreak !== undefined) {
      let start = 0;
      let end = pending.indexOf(lineBreak, start);
      while (end >= 0) {
        yield pending.slice(start, end).replace(/\r$/, '');
        start = end + 1;
        end = pending.indexOf(lineBreak, start);
      }
      pending = pending.slice(start);
    }
    if (pending.length > 4 * BULK_LIMITS.maxLineBytes) pending = pending.slice(0, 4 * BULK_LIMITS.maxLineBytes);
  }
  pending += decoder.decode();
  if (pending !== '') yield pending.replace(/\r$/, '');
}

/** Whether a parsed JSON value nests arrays and objects more than `limit` deep (walking no deeper than that). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit === 0) return true;
  for (const child of Array.isArray(value) ? value : Object.values(value)) if (nestsDeeperThan(child, limit - 1)) return true;
  return false;
}

/** A JSONL line's value, or why it cannot be an item as it is. */
function jsonlLineProblem(line: string): { problem: string } | { value: unknown } {
  const bytes = Buffer.byteLength(line);
  if (bytes > BULK_LIMITS.maxLineBytes) {
    return { problem: `the line holds ${bytes} bytes or more; a bulk line holds at most ${BULK_LIMITS.maxLineBytes} (score such a person with POST /health-score/timeseries)` };
  }
  if (line.includes(NOT_UTF8)) return { problem: NOT_UTF8_MESSAGE };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { problem: `the line is not valid JSON: ${error instanceof Error ? error.message : 'parse error'}` };
  }
  if (nestsDeeperThan(value, MAX_LINE_NESTING)) return { problem: `the line nests arrays and objects more than ${MAX_LINE_NESTING} deep; a timeseries request nests five` };
  return { value };
}

/** JSONL: yields the copy's text (each line as it is, or its error item) and fills `report`. */
async function* jsonl(chunks: AsyncIterable<Uint8Array>, report: ScanReport): AsyncGenerator<string> {
  let objects = 0;
  let blanks = 0;
  for await (const line of lines(chunks)) {
    if (line.trim() === '') {
      // Blank lines at the end of the file are not lines of it; in the middle, each is an error line.
      blanks += 1;
      continue;
    }
    for (; blanks > 0; blanks--) {
      report.items += 1;
      report.unreadable += 1;
      yield `${marker('the line is empty')}\n`;
    }
    report.items += 1;
    const read = jsonlLineProblem(line);
    if ('problem' in read) {
      report.unreadable += 1;
      yield `${marker(read.problem)}\n`;
      continue;
    }
    if (typeof read.value === 'object' && read.value !== null && !Array.isArray(read.value)) objects += 1;
    yield `${line}\n`;
  }
  if (report.items === 0) throw new BulkInputError('the file is empty: a JSONL file has one timeseries request per line');
  if (objects === 0) throw new BulkInputError('the file is not JSON Lines: none of its lines is a JSON object (one POST /health-score/timeseries request per line)');
}

function csvLine(fields: readonly string[]): string {
  return `${fields.map((field) => (/[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field)).join(',')}\n`;
}

/** The fields of one line of CSV, or why it is none (a quote it opens and does not close, or other broken quoting). */
function csvFields(line: string): { fields: string[] } | { problem: string } {
  try {
    // A quote inside an unquoted field is a character of it, as lenient readers take it.
    const [fields] = parseCsvText(line, { relax_quotes: true, relax_column_count: true, record_delimiter: '\n' }) as string[][];
    return { fields: fields ?? [''] };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'CSV_QUOTE_NOT_CLOSED') return { problem: 'a field opens a quote that its line does not close (a bulk CSV row is one line)' };
    return { problem: `the row is not valid CSV: ${error instanceof Error ? error.message.replace(/ at line \d+/, '') : 'it cannot be parsed'}` };
  }
}

/** A bulk CSV's header: its named columns (trimmed) and where each stands in a row. */
interface CsvHeader {
  names: string[];
  positions: number[];
  /** How many fields a row has. */
  width: number;
}

function csvHeader(line: string): CsvHeader {
  if (Buffer.byteLength(line) > CSV_HEADER_LIMIT_BYTES) throw new BulkInputError(`the CSV header is longer than ${CSV_HEADER_LIMIT_BYTES} bytes`);
  const read = csvFields(line);
  if ('problem' in read) throw new BulkInputError(`the file is not a bulk CSV: its header ${read.problem.replace(/^the row /, '')}`);
  const trimmed = read.fields.map((name) => name.trim());
  try {
    csvColumns(trimmed);
  } catch (error) {
    throw new BulkInputError(`the file is not a bulk CSV: ${error instanceof Error ? error.message : 'unreadable header'}`);
  }
  const positions = trimmed.flatMap((name, i) => (name === '' ? [] : [i]));
  return { names: positions.map((i) => trimmed[i]!), positions, width: trimmed.length };
}

/** CSV: the same for rows; the copy has two more columns, the row's line in the file and its error (empty when it has none). */
async function* csv(chunks: AsyncIterable<Uint8Array>, report: ScanReport): AsyncGenerator<string> {
  let header: CsvHeader | undefined;
  let lineNumber = 0;
  /** Blank lines since the last row: rows' errors if a row follows, the file's end if none does. */
  const blanks: number[] = [];
  const errorRow = (line: number, message: string, fields: readonly string[] = []) =>
    csvLine([...header!.names.map((name, i) => (name === 'uid_ext' ? (fields[header!.positions[i]!] ?? '').trim() : '')), String(line), message]);
  for await (const text of lines(chunks, true)) {
    lineNumber += 1;
    if (text.trim() === '') {
      // Before the header, nothing; after it, an empty row.
      if (header) blanks.push(lineNumber);
      continue;
    }
    if (!header) {
      header = csvHeader(text);
      yield csvLine([...header.names, LINE_FIELD, INPUT_ERROR_FIELD]);
      continue;
    }
    for (const blank of blanks.splice(0)) {
      report.items += 1;
      report.unreadable += 1;
      yield errorRow(blank, 'the row is empty');
    }
    report.items += 1;
    const bytes = Buffer.byteLength(text);
    const read = csvFields(text);
    const problem =
      bytes > BULK_LIMITS.maxLineBytes
        ? `the row holds ${bytes} bytes or more; a bulk row holds at most ${BULK_LIMITS.maxLineBytes}`
        : text.includes(NOT_UTF8)
          ? NOT_UTF8_MESSAGE
          : 'problem' in read
            ? read.problem
            : read.fields.length !== header.width
              ? `the row has ${read.fields.length} fields; the header has ${header.width}`
              : undefined;
    if (problem !== undefined) {
      report.unreadable += 1;
      yield errorRow(lineNumber, problem, 'fields' in read ? read.fields : []);
      continue;
    }
    const { fields } = read as { fields: string[] };
    yield csvLine([...header.positions.map((i) => fields[i]!), String(lineNumber), '']);
  }
  if (!header) throw new BulkInputError('the file is empty: a bulk CSV starts with a header row');
  if (report.items === 0) throw new BulkInputError('the CSV file has a header but no rows');
}

/**
 * Reads `chunks` as `inputType`, filling `report`; yields the text of the sanitised copy (every line,
 * replaced where unreadable). Throws BulkInputError for a file that is not of its format at all.
 */
export function scanInput(chunks: AsyncIterable<Uint8Array>, inputType: InputType, report: ScanReport): AsyncGenerator<string> {
  return inputType === 'CSV' ? csv(chunks, report) : jsonl(chunks, report);
}

/** Line number of the item at index 0 of a Map Run over the file (CSV: the header is line 1). */
export function lineOffset(inputType: InputType): number {
  return inputType === 'CSV' ? 2 : 1;
}
