import { parse } from 'csv-parse';
import { csvColumns } from './csv-input';
import { BULK_LIMITS } from './limits';
import { INPUT_ERROR_FIELD, type InputType } from './results';

/**
 * The prepare step's pass over an uploaded file, as it streams in (memory holds one line, whatever
 * the file's size). It finds what the Distributed Map's ItemReader cannot read without failing the
 * whole Map Run — a line that is not JSON, a line too long for a batch, a blank line, a CSV row of the
 * wrong width or broken quoting — counts the items, and says whether the file is JSONL or CSV at all.
 * When it finds such lines, a second pass writes a copy in which each is replaced by an item that
 * carries only its error (`hale_input_error`), so every line keeps its number and becomes an error
 * line of the job instead of stopping it. A file that is not what its format says fails the job; so
 * does CSV that breaks the format itself (an unterminated quote), after which no row boundary can be
 * trusted — unlike a row of the wrong width or one too long, which is that row's error.
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

function marker(message: string): string {
  return JSON.stringify({ [INPUT_ERROR_FIELD]: message });
}

async function* lines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  for await (const chunk of chunks) {
    pending += decoder.decode(chunk, { stream: true });
    let start = 0;
    let newline = pending.indexOf('\n', start);
    while (newline >= 0) {
      yield pending.slice(start, newline).replace(/\r$/, '');
      start = newline + 1;
      newline = pending.indexOf('\n', start);
    }
    pending = pending.slice(start);
    // A line longer than any item may be is reported, not held: keep only its start and length.
    if (pending.length > 4 * BULK_LIMITS.maxLineBytes) pending = pending.slice(0, 4 * BULK_LIMITS.maxLineBytes);
  }
  pending += decoder.decode();
  if (pending !== '') yield pending.replace(/\r$/, '');
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
    const bytes = Buffer.byteLength(line);
    if (bytes > BULK_LIMITS.maxLineBytes) {
      report.unreadable += 1;
      yield `${marker(`the line holds ${bytes} bytes or more; a bulk line holds at most ${BULK_LIMITS.maxLineBytes} (score such a person with POST /health-score/timeseries)`)}\n`;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      report.unreadable += 1;
      yield `${marker(`the line is not valid JSON: ${error instanceof Error ? error.message : 'parse error'}`)}\n`;
      continue;
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) objects += 1;
    yield `${line}\n`;
  }
  if (report.items === 0) throw new BulkInputError('the file is empty: a JSONL file has one timeseries request per line');
  if (objects === 0) throw new BulkInputError('the file is not JSON Lines: none of its lines is a JSON object (one POST /health-score/timeseries request per line)');
}

function csvLine(fields: readonly string[]): string {
  return `${fields.map((field) => (/[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field)).join(',')}\n`;
}

/** A row longer than this is not a row but a sign the file is not CSV (it fails the job, unlike a merely long row). */
const CSV_PARSE_LIMIT_BYTES = 4 * BULK_LIMITS.maxLineBytes;

/** CSV: the same for rows; the copy has one more column, the error of each row (empty when it has none). */
async function* csv(chunks: AsyncIterable<Uint8Array>, report: ScanReport): AsyncGenerator<string> {
  const parser = parse({
    bom: true,
    relax_column_count: true,
    // A quote inside an unquoted field is a character of it, as lenient readers take it.
    relax_quotes: true,
    skip_empty_lines: false,
    max_record_size: CSV_PARSE_LIMIT_BYTES,
    record_delimiter: ['\r\n', '\n', '\r'],
  });
  const source = chunks[Symbol.asyncIterator]();
  const feeding = (async () => {
    for (let next = await source.next(); !next.done; next = await source.next()) {
      if (!parser.write(next.value)) await new Promise((resolve) => parser.once('drain', resolve));
    }
    parser.end();
  })();
  feeding.catch((error: unknown) => parser.destroy(error instanceof Error ? error : new Error(String(error))));

  let header: string[] | undefined;
  let blanks = 0;
  const errorRow = (message: string) => csvLine([...header!.map(() => ''), message]);
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!header) {
        if (Buffer.byteLength(record.join(',')) > CSV_HEADER_LIMIT_BYTES) throw new BulkInputError(`the CSV header is longer than ${CSV_HEADER_LIMIT_BYTES} bytes`);
        try {
          csvColumns(record);
        } catch (error) {
          throw new BulkInputError(`the file is not a bulk CSV: ${error instanceof Error ? error.message : 'unreadable header'}`);
        }
        header = record.map((name) => name.trim());
        yield csvLine([...header, INPUT_ERROR_FIELD]);
        continue;
      }
      if (record.length === 1 && record[0]!.trim() === '') {
        blanks += 1;
        continue;
      }
      for (; blanks > 0; blanks--) {
        report.items += 1;
        report.unreadable += 1;
        yield errorRow('the row is empty');
      }
      report.items += 1;
      const bytes = Buffer.byteLength(record.join(','));
      if (record.length !== header.length || bytes > BULK_LIMITS.maxLineBytes) {
        report.unreadable += 1;
        yield errorRow(
          record.length !== header.length
            ? `the row has ${record.length} fields; the header has ${header.length}`
            : `the row holds ${bytes} bytes; a bulk row holds at most ${BULK_LIMITS.maxLineBytes}`,
        );
        continue;
      }
      yield csvLine([...record, '']);
    }
    await feeding;
  } catch (error) {
    if (error instanceof BulkInputError) throw error;
    const where = typeof (error as { lines?: unknown }).lines === 'number' ? ` at line ${(error as { lines: number }).lines}` : '';
    throw new BulkInputError(`the file is not valid CSV${where}: ${error instanceof Error ? error.message : 'it cannot be parsed'}`);
  } finally {
    parser.destroy();
    await source.return?.();
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
