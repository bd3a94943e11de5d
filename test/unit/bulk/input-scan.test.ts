import fc from 'fast-check';
import { BulkInputError, type ScanReport, scanInput } from '../../../functions/bulk/input-scan';
import { INPUT_ERROR_FIELD } from '../../../functions/bulk/results';

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

describe('the bulk input scan, CSV', () => {
  const header = 'uid_ext,date_of_birth,score_date,76689-9';
  it('keeps rows, adds the error column, and makes a row of the wrong width or an empty row its line’s error', async () => {
    const { copy, report } = await scan(`${header}\na,1970-01-01,2025-01-01,male\nb,1970-01-01\n\nc,1970-01-01,2025-01-01,female\n`, 'CSV');
    expect(report).toEqual({ items: 4, unreadable: 2 });
    expect(copy[0]).toBe(`${header},${INPUT_ERROR_FIELD}\n`);
    expect(copy[1]).toBe('a,1970-01-01,2025-01-01,male,\n');
    expect(copy[2]).toBe(',,,,the row has 2 fields; the header has 4\n');
    expect(copy[3]).toBe(',,,,the row is empty\n');
    expect(copy[4]).toBe('c,1970-01-01,2025-01-01,female,\n');
  });

  it('fails the job for a file that is not a bulk CSV', async () => {
    await expect(scan('{"uid_ext":"a","date_of_birth":"1970-01-01"}\n', 'CSV')).rejects.toThrow(/not a bulk CSV/);
    await expect(scan(`${header}\na,"1970-01-01,2025-01-01,male\n`, 'CSV')).rejects.toThrow(BulkInputError);
  });
});
