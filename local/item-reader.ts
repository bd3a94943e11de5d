import { parse } from 'csv-parse';
import { StatesError } from './payload-template';

/**
 * The ItemReader of a Distributed Map over one S3 object (Resource arn:aws:states:::s3:getObject),
 * as Step Functions reads it: JSON Lines (one item per line, blank lines skipped) or CSV (each row an
 * object of strings keyed by the header; a short row gets "" for its missing columns, columns beyond
 * the header are dropped). A line that is not JSON, duplicate or oversized CSV headers, or an
 * unreadable object fail the Map Run with States.ItemReaderFailed. Items are yielded as the object
 * streams in, so memory stays bounded by one item whatever the object's size.
 */

export interface ReaderConfig {
  InputType: 'JSONL' | 'CSV';
  CSVHeaderLocation?: 'FIRST_ROW' | 'GIVEN';
  CSVHeaders?: string[];
  CSVDelimiter?: 'COMMA' | 'PIPE' | 'SEMICOLON' | 'SPACE' | 'TAB';
}

/** Step Functions reads CSV headers of up to 10 KiB (ItemReader documentation). */
export const CSV_HEADER_LIMIT_BYTES = 10 * 1024;
/** A line or row longer than this cannot be an item: no child execution input may exceed 256 KiB. */
const MAX_ITEM_BYTES = 256 * 1024;

const DELIMITERS: Record<NonNullable<ReaderConfig['CSVDelimiter']>, string> = { COMMA: ',', PIPE: '|', SEMICOLON: ';', SPACE: ' ', TAB: '\t' };

export const SUPPORTED_INPUT_TYPES: readonly string[] = ['JSONL', 'CSV'];

function readerFailed(cause: string): StatesError {
  return new StatesError('States.ItemReaderFailed', cause);
}

async function* jsonLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let lineNumber = 0;
  const item = (line: string): unknown => {
    lineNumber += 1;
    if (line.length > MAX_ITEM_BYTES) throw readerFailed(`Line ${lineNumber} is longer than ${MAX_ITEM_BYTES} bytes`);
    try {
      return JSON.parse(line);
    } catch {
      throw readerFailed(`Line ${lineNumber} of the JSONL file is not valid JSON`);
    }
  };
  for await (const chunk of chunks) {
    pending += decoder.decode(chunk, { stream: true });
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline).replace(/\r$/, '');
      pending = pending.slice(newline + 1);
      if (line.trim() !== '') yield item(line);
      else lineNumber += 1;
      newline = pending.indexOf('\n');
    }
    if (pending.length > MAX_ITEM_BYTES) throw readerFailed(`Line ${lineNumber + 1} is longer than ${MAX_ITEM_BYTES} bytes`);
  }
  pending += decoder.decode();
  if (pending.trim() !== '') yield item(pending.replace(/\r$/, ''));
}

async function* csvRows(chunks: AsyncIterable<Uint8Array>, config: ReaderConfig): AsyncGenerator<unknown> {
  const parser = parse({
    bom: true,
    delimiter: DELIMITERS[config.CSVDelimiter ?? 'COMMA'],
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: MAX_ITEM_BYTES,
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
  let headers = config.CSVHeaderLocation === 'GIVEN' ? (config.CSVHeaders ?? []) : undefined;
  const checkHeaders = (names: string[]) => {
    if (Buffer.byteLength(names.join(',')) > CSV_HEADER_LIMIT_BYTES) throw readerFailed(`CSV headers are longer than ${CSV_HEADER_LIMIT_BYTES} bytes`);
    if (new Set(names).size < names.length) throw readerFailed('CSV headers cannot contain duplicates.');
    return names;
  };
  if (headers) checkHeaders(headers);
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!headers) {
        headers = checkHeaders(record);
        continue;
      }
      yield Object.fromEntries(headers.map((name, i) => [name, record[i] ?? '']));
    }
    await feeding;
  } catch (error) {
    if (error instanceof StatesError) throw error;
    throw readerFailed(`The CSV file could not be read: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    // A reader stopped early (MaxItems, a failed Map Run) lets go of the object's stream.
    parser.destroy();
    await source.return?.();
  }
}

/** The items of an object as the ReaderConfig describes them, at most `maxItems` (0 = all). */
export async function* readItems(chunks: AsyncIterable<Uint8Array>, config: ReaderConfig, maxItems = 0): AsyncGenerator<unknown> {
  const items = config.InputType === 'CSV' ? csvRows(chunks, config) : jsonLines(chunks);
  let count = 0;
  for await (const item of items) {
    yield item;
    count += 1;
    if (maxItems > 0 && count >= maxItems) return;
  }
}
