import fc from 'fast-check';
import { readItems } from '../../../local/item-reader';
import { compileTemplate, parseReferencePath, StatesError } from '../../../local/payload-template';

/** The object as S3 would stream it: arbitrary chunk boundaries, even inside a multi-byte character. */
async function* chunked(text: string, sizes: number[]): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length] ?? 1);
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

async function collect(items: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const quote = (field: string) => (/[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field);
const field = fc.string({ unit: fc.constantFrom('a', 'é', '"', ',', '\n', ' ', '1', '🙂') });

describe('the local ItemReader', () => {
  it('reads every CSV row as an object of its fields under the header, however the object is chunked (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6, unit: fc.constantFrom('a', 'b', 'c', 'é') }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.array(field, { minLength: 4, maxLength: 4 }), { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }),
        async (header, rows, sizes) => {
          const records = rows.map((row) => row.slice(0, header.length)).filter((row) => row.join('') !== '' || header.length > 1);
          const text = [header, ...records].map((row) => row.map(quote).join(',')).join('\r\n');
          const items = await collect(readItems(chunked(text, sizes), { InputType: 'CSV', CSVHeaderLocation: 'FIRST_ROW' }));
          expect(items).toEqual(records.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? '']))));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reads JSON Lines one item per line, skipping blank lines, however chunked (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 10 }), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1 }), async (values, sizes) => {
        const text = values.map((v) => JSON.stringify(v)).join('\n\r\n');
        // JSON.stringify turns -0 into 0; compare with what a JSON round trip gives.
        expect(await collect(readItems(chunked(text, sizes), { InputType: 'JSONL' }))).toEqual(JSON.parse(JSON.stringify(values)));
      }),
      { numRuns: 150 },
    );
  });

  it('stops at MaxItems and fails with States.ItemReaderFailed on a line that is not JSON', async () => {
    expect(await collect(readItems(chunked('1\n2\n3\n', [2]), { InputType: 'JSONL' }, 2))).toEqual([1, 2]);
    await expect(collect(readItems(chunked('1\n{\n3', [64]), { InputType: 'JSONL' }))).rejects.toEqual(
      expect.objectContaining({ name: 'States.ItemReaderFailed', message: expect.stringMatching(/Line 2/) }),
    );
    await expect(collect(readItems(chunked('a,a\n1,2', [64]), { InputType: 'CSV', CSVHeaderLocation: 'FIRST_ROW' }))).rejects.toBeInstanceOf(StatesError);
    expect(await collect(readItems(chunked('1|2\n', [64]), { InputType: 'CSV', CSVHeaderLocation: 'GIVEN', CSVHeaders: ['x', 'y'], CSVDelimiter: 'PIPE' }))).toEqual([{ x: '1', y: '2' }]);
  });
});

describe('payload templates of the local Distributed Map', () => {
  it('takes values from the input and the Context Object by Reference Path and copies the rest', () => {
    const template = compileTemplate({ 'index.$': '$$.Map.Item.Index', 'job.$': "$['job'].id", fixed: { deep: [1, 'two'] }, 'first.$': '$.list[0]' }, 'test');
    expect(template({ job: { id: 'j1' }, list: ['a', 'b'] }, { Map: { Item: { Index: 7 } } })).toEqual({ index: 7, job: 'j1', fixed: { deep: [1, 'two'] }, first: 'a' });
    expect(() => template({}, {})).toThrow(expect.objectContaining({ name: 'States.Runtime' }));
  });

  it('refuses at load what it cannot evaluate exactly: intrinsic functions and non-reference paths', () => {
    expect(() => compileTemplate({ 'x.$': "States.Format('{}', $.a)" }, 'test')).toThrow(/intrinsic/);
    expect(() => parseReferencePath('$.items[*].id')).toThrow(/Reference Path/);
    expect(() => parseReferencePath('$..id')).toThrow(/Reference Path/);
  });
});
