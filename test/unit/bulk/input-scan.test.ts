import fc from 'fast-check';
import { BulkInputError, type ScanReport, scanInput } from '../../../functions/bulk/input-scan';
import { INPUT_ERROR_FIELD, LINE_FIELD } from '../../../functions/bulk/results';

/**
 * Prepare's pass over an uploaded file (functions/bulk/input-scan.ts): what is a line's error, what
 * fails the whole job, and that every line keeps its number in the copy the Distributed Map reads.
 */

async function* chunksOf(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function scan(text: string, type: 'JSONL' | 'CSV', chunkSize = 7): Promise<{ copy: string[]; report: ScanReport }> {
  const report: ScanReport = { items: 0, unreadable: 0 };
  const copy: string[] = [];
  for await (const line of scanInput(chunksOf(text, chunkSize), type, report)) copy.push(line);
  return { copy, report };
}

const errorOf = (line: string) => (JSON.parse(line) as Record<string, string>)[INPUT_ERROR_FIELD];

describe('the bulk input scan, JSONL', () => {
  it('keeps JSON object lines as they are and turns an unreadable or blank line into its error, at its own line', async () => {
    const { copy, report } = await scan('{"a":1}\n{"a":\n\n{"b":2}\r\n\n\n', 'JSONL');
    expect(report).toEqual({ items: 4, unreadable: 2 });
    expect(copy[0]).toBe('{"a":1}\n');
    expect(errorOf(copy[1]!)).toMatch(/^the line is not valid JSON/);
    expect(errorOf(copy[2]!)).toBe('the line is empty');
    // A CRLF line ending is not part of the line; blank lines at the end are not lines of the file.
    expect(copy[3]).toBe('{"b":2}\n');
    expect(copy).toHaveLength(4);
  });

  it('fails the job for a file that is not JSON Lines at all, or empty', async () => {
    await expect(scan('uid_ext,date_of_birth,score_date\nm-1,1970-01-01,2025-01-01\n', 'JSONL')).rejects.toThrow(BulkInputError);
    await expect(scan('uid_ext,date_of_birth\n', 'JSONL')).rejects.toThrow(/not JSON Lines: none of its lines is a JSON object/);
    await expect(scan('%PDF-1.7\n\u0000\u0001binary\n', 'JSONL')).rejects.toThrow(/not JSON Lines/);
    await expect(scan('[1,2]\n"text"\n', 'JSONL')).rejects.toThrow(/not JSON Lines/);
    await expect(scan('\n\n', 'JSONL')).rejects.toThrow(/the file is empty/);
    await expect(scan('', 'JSONL')).rejects.toMatchObject({ name: 'BulkInputInvalid' });
  });

  it('reports a line longer than a batch may carry without holding it', async () => {
    const long = `{"uid_ext":"x","pad":"${'y'.repeat(300 * 1024)}"}`;
    const { copy, report } = await scan(`{"a":1}\n${long}\n{"a":2}\n`, 'JSONL', 64 * 1024);
    expect(report).toEqual({ items: 3, unreadable: 1 });
    expect(errorOf(copy[1]!)).toMatch(/a bulk line holds at most 204800/);
    expect(copy[2]).toBe('{"a":2}\n');
  });

  it('for any mix of lines and any chunking: one copy line per input line in order, objects unchanged, the rest errors', async () => {
    const line = fc.oneof(
      fc.dictionary(fc.string({ maxLength: 5 }).filter((k) => k !== INPUT_ERROR_FIELD), fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), { maxKeys: 3 }).map((o) => ({ kind: 'object' as const, text: JSON.stringify(o) })),
      fc.string({ maxLength: 12 }).filter((s) => !s.includes('\n') && !s.includes('\r') && s.trim() !== '').filter((s) => {
        try {
          const value: unknown = JSON.parse(s);
          return typeof value !== 'object' || value === null || Array.isArray(value);
        } catch {
          return true;
        }
      }).map((text) => ({ kind: 'other' as const, text })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 40 }), async (lines, chunkSize) => {
        const text = `${lines.map((l) => l.text).join('\n')}\n`;
        if (!lines.some((l) => l.kind === 'object')) {
          await expect(scan(text, 'JSONL', chunkSize)).rejects.toThrow(BulkInputError);
          return;
        }
        const { copy, report } = await scan(text, 'JSONL', chunkSize);
        expect(copy).toHaveLength(lines.length);
        expect(report.items).toBe(lines.length);
        const isJson = (text: string) => {
          try {
            JSON.parse(text);
            return true;
          } catch {
            return false;
          }
        };
        // Valid JSON stays for scoring to judge (a non-object is refused there); anything else is an error line.
        lines.forEach((l, i) => {
          if (isJson(l.text)) expect(copy[i]).toBe(`${l.text}\n`);
          else expect(errorOf(copy[i]!)).toMatch(/^the line is not valid JSON/);
        });
        expect(report.unreadable).toBe(lines.filter((l) => !isJson(l.text)).length);
      }),
      { numRuns: 150 },
    );
  });
});

describe('the bulk input scan, JSONL lines no batch could carry', () => {
  it('makes a line nested deeper than any request, or one whose bytes are not UTF-8, its own error', async () => {
    const deep = `{"uid_ext":"deep","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const bytes = Buffer.concat([Buffer.from(`{"a":1}\n${deep}\n{"uid_ext":"m-`), Buffer.from([0xe9]), Buffer.from('-1"}\n{"a":2}\n')]);
    const report: ScanReport = { items: 0, unreadable: 0 };
    const copy: string[] = [];
    for await (const line of scanInput((async function* () { yield bytes; })(), 'JSONL', report)) copy.push(line);
    expect(report).toEqual({ items: 4, unreadable: 2 });
    expect(errorOf(copy[1]!)).toMatch(/nests arrays and objects more than 64 deep/);
    expect(errorOf(copy[2]!)).toMatch(/not UTF-8/);
    expect(copy[3]).toBe('{"a":2}\n');
    // 64 deep is a line like any other.
    const { report: fine } = await scan(`{"x":${'['.repeat(63)}${']'.repeat(63)}}\n`, 'JSONL');
    expect(fine).toEqual({ items: 1, unreadable: 0 });
  });
});

/** A copy's CSV rows as fields, without their line break (the copy quotes only fields that need it). */
const rowsOf = (copy: readonly string[]) => copy.map((line) => line.replace(/\n$/, '').split(','));

describe('the bulk input scan, CSV', () => {
  const header = 'uid_ext,date_of_birth,score_date,76689-9';
  it('keeps rows with their lines, adds the line and error columns, and makes a row of the wrong width or an empty row its line’s error', async () => {
    const { copy, report } = await scan(`${header}\na,1970-01-01,2025-01-01,male\nb,1970-01-01\n\nc,1970-01-01,2025-01-01,female\n \n\n`, 'CSV');
    expect(report).toEqual({ items: 4, unreadable: 2 });
    expect(copy[0]).toBe(`${header},${LINE_FIELD},${INPUT_ERROR_FIELD}\n`);
    expect(copy[1]).toBe('a,1970-01-01,2025-01-01,male,2,\n');
    // The uid of a row of the wrong width is kept, for its error line.
    expect(copy[2]).toBe('b,,,,3,the row has 2 fields; the header has 4\n');
    expect(copy[3]).toBe(',,,,4,the row is empty\n');
    expect(copy[4]).toBe('c,1970-01-01,2025-01-01,female,5,\n');
    // Blank and whitespace-only lines at the end are no rows.
    expect(copy).toHaveLength(5);
  });

  it('makes a quote its line leaves open that row’s error, the rows after it read and numbered as the file is', async () => {
    const { copy, report } = await scan(`${header}\na,1970-01-01,2025-01-01,male\n"b,1970-01-01,2025-01-01,male\nc,1970-01-01,2025-01-01,"fe""male"\nd,1970-01-01,2025-01-01,male\n`, 'CSV');
    expect(report).toEqual({ items: 4, unreadable: 1 });
    expect(rowsOf(copy).map((fields) => fields.slice(-2))).toEqual([[LINE_FIELD, INPUT_ERROR_FIELD], ['2', ''], ['3', 'a field opens a quote that its line does not close (a bulk CSV row is one line)'], ['4', ''], ['5', '']]);
    expect(copy[3]).toBe('c,1970-01-01,2025-01-01,"fe""male",4,\n');
  });

  it('reads a header with spaces around its names, a trailing comma, blank lines before it, a byte-order mark, and old Mac line breaks', async () => {
    const { copy } = await scan(`\uFEFF\r\r uid_ext , date_of_birth,score_date ,76689-9,\ra,1970-01-01,2025-01-01,male,\r`, 'CSV');
    expect((await scan(`\n\n uid_ext , date_of_birth,score_date ,76689-9,\na,1970-01-01,2025-01-01,male,\n`, 'CSV')).copy).toEqual(copy);
    expect(copy).toEqual([`${header},${LINE_FIELD},${INPUT_ERROR_FIELD}\n`, 'a,1970-01-01,2025-01-01,male,4,\n']);
  });

  it('makes a row whose bytes are not UTF-8 its own error', async () => {
    const bytes = Buffer.concat([Buffer.from(`${header}\nJos`), Buffer.from([0xe9]), Buffer.from('-1,1970-01-01,2025-01-01,male\nb,1970-01-01,2025-01-01,male\n')]);
    const report: ScanReport = { items: 0, unreadable: 0 };
    const copy: string[] = [];
    for await (const line of scanInput((async function* () { yield bytes; })(), 'CSV', report)) copy.push(line);
    expect(report).toEqual({ items: 2, unreadable: 1 });
    expect(copy[1]).toMatch(/,2,the line holds bytes that are not UTF-8 text/);
  });

  it('for any rows, blank lines and chunking: one copy row per row, numbered by its line in the file', async () => {
    const cell = fc.stringMatching(/^[a-z0-9 .-]{0,6}$/);
    const row = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(cell, cell, cell, cell).map((fields) => ({ kind: 'row' as const, text: fields.join(',') })) },
      { weight: 1, arbitrary: fc.constantFrom('', '  ', '\t').map((text) => ({ kind: 'blank' as const, text })) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 25 }), fc.constantFrom('\n', '\r\n'), fc.integer({ min: 1, max: 40 }), async (rows, lineBreak, chunkSize) => {
        const text = [header, ...rows.map((r) => r.text)].join(lineBreak) + lineBreak;
        const lastRow = rows.map((r) => r.kind).lastIndexOf('row');
        if (lastRow < 0) {
          await expect(scan(text, 'CSV', chunkSize)).rejects.toThrow(/a header but no rows/);
          return;
        }
        const { copy, report } = await scan(text, 'CSV', chunkSize);
        const kept = rows.slice(0, lastRow + 1);
        expect(report).toEqual({ items: kept.length, unreadable: kept.filter((r) => r.kind === 'blank').length });
        const copied = rowsOf(copy.slice(1));
        expect(copied.map((fields) => fields[4])).toEqual(kept.map((_, i) => String(i + 2)));
        for (const [i, r] of kept.entries()) {
          expect(copied[i]![5]).toBe(r.kind === 'row' ? '' : 'the row is empty');
          if (r.kind === 'row') expect(copied[i]!.slice(0, 4).join(',')).toBe(r.text);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('fails the job for a file that is not a bulk CSV', async () => {
    await expect(scan('{"uid_ext":"a","date_of_birth":"1970-01-01"}\n', 'CSV')).rejects.toThrow(/not a bulk CSV/);
    await expect(scan('"uid_ext,date_of_birth,score_date\n', 'CSV')).rejects.toThrow(/not a bulk CSV: its header/);
    await expect(scan(`\n \n${header}\n`, 'CSV')).rejects.toThrow(/a header but no rows/);
    await expect(scan('%PDF-1.7\n\u0000\u0001binary\n', 'CSV')).rejects.toThrow(BulkInputError);
  });
});
