import fc from 'fast-check';
import { type Column, calibrateColumns } from '../../../../functions/lab/parsers/header';
import type { Line, Word } from '../../../../functions/lab/parsers/layout';
import { HEADER_PHRASES, headerWordMisread, isHeaderWord } from '../../../../functions/lab/parsers/vocabulary';

/**
 * Where columns start, set from the cells printed under a header (functions/lab/parsers/header.ts):
 * a header centred over a wider column, and right-aligned values of the column before it.
 */

const SIZE = 8;

function line(y: number, cells: Array<[x: number, text: string]>): Line {
  const words: Word[] = cells.map(([x, text]) => ({ text, x0: x, x1: x + text.length * SIZE * 0.5, y, size: SIZE, exact: true, spaced: false }));
  return { pageNumber: 1, y, x0: words[0]!.x0, x1: words[words.length - 1]!.x1, size: SIZE, words, text: cells.map((c) => c[1]).join(' ') };
}

function column(role: Column['role'], x: number, header: string): Column {
  return { role, x, x1: x + header.length * SIZE * 0.5, from: x - 12 };
}

describe('calibrateColumns', () => {
  it('starts a column under a centred header where its left-aligned values start, halfway to the header before at most', () => {
    // `Previous Result` centred at 459 over values printed from 430; `Ref Range` ends at 401.
    const columns = [column('name', 100, 'Test Name'), column('value', 232, 'In Range'), column('range', 364, 'Ref Range'), column('previous', 459, 'Previous Result')];
    const rows = [
      line(600, [[31, 'COUNT'], [218, '9.5'], [346, '3.8-10.8 Thousand/uL'], [430, '7.2 08-05-2024']]),
      line(590, [[31, 'NEUTROPHILS'], [218, '7926'], [346, '1500-7800 cells/uL'], [430, '1573 09-30-2024']]),
      line(580, [[31, 'LYMPHOCYTES'], [218, '933'], [346, '850-3900 cells/uL'], [430, '2142 12-05-2024']]),
    ];
    const previous = calibrateColumns(columns, rows)[3]!;
    expect(previous.from).toBeLessThanOrEqual(430);
    expect(previous.from).toBeGreaterThan(401);
  });

  it('takes values a nudge left of halfway for the start of a column under a centred header', () => {
    // `UNITS` centred at 357 over units printed from 333; `FLAG` ends at 311 (halfway 334).
    const columns = [column('name', 104, 'TEST'), column('value', 227, 'RESULT'), { role: 'flag' as const, x: 289, x1: 311, from: 277 }, column('unit', 357, 'UNITS')];
    const rows = [
      line(600, [[40, 'EGFR'], [219, '>90'], [333, 'mL/min/1.']]),
      line(590, [[333, '73m2']]),
      line(580, [[40, 'SODIUM'], [219, '143'], [333, 'mmol/L']]),
      line(570, [[40, 'GLOBULIN'], [218, '2.7'], [331, 'g/dL (calc)']]),
    ];
    expect(calibrateColumns(columns, rows)[3]!.from).toBeLessThanOrEqual(331);
  });

  it('never takes flags after their values for the start of the value column', () => {
    // A photographed Labcorp report in Courier: values from 222 under `RESULT` centred at 236, two
    // rows' flags (`L`, `HH`) at 237–238 lining up with each other beside it. Taken for the column's
    // start, they put every value in the name column.
    const columns = [column('name', 106, 'TESTS'), column('value', 236, 'RESULT'), column('unit', 330, 'UNIT'), column('range', 399, 'REFERENCE INTERVAL')];
    const rows = [
      line(642, [[28, 'Glucose'], [222.7, '116'], [242.4, 'H'], [313.4, 'mg/dL'], [401, '65-99']]),
      line(633, [[28, 'BUN'], [222.2, '20'], [313.4, 'mg/dL'], [401, '6-24']]),
      line(585, [[28, 'Carbon Dioxide, Total'], [222.2, '19'], [238.1, 'L'], [313.4, 'mmol/L'], [401, '20-29']]),
      line(576, [[28, 'Calcium'], [222.2, '9.4'], [313.4, 'mg/dL'], [401, '8.7-10.2']]),
      line(481, [[28, 'ALT (SGPT)'], [222.2, '49'], [237.4, 'HH'], [313.4, 'IU/L'], [401, '0-44']]),
    ];
    const value = calibrateColumns(columns, rows)[1]!;
    for (const row of rows) expect(row.words[1]!.x0).toBeGreaterThanOrEqual(value.from);
  });

  it('never takes right-aligned values of the column before for the start of the next column', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.1, max: 9999, noNaN: true }), { minLength: 3, maxLength: 12 }), (values) => {
        // Values right-aligned at 402 under `VALUE` (326); `FLAG` at 415 holds nothing on these rows.
        const columns = [column('name', 41, 'TEST'), column('value', 326, 'VALUE'), column('flag', 415, 'FLAG'), column('range', 456, 'REFERENCE RANGE')];
        const rows = values.map((v, i) => {
          const text = v.toFixed(1);
          return line(600 - 11 * i, [[53, `TEST ${i}`], [402 - text.length * SIZE * 0.5, text], [456, '1.0-2.0 mg/dL']]);
        });
        const flag = calibrateColumns(columns, rows)[2]!;
        for (const row of rows) expect(row.words[1]!.x0).toBeLessThan(flag.from);
      }),
    );
  });
  it('starts a range column under a centred header where its ranges start, even left of halfway to the header before', () => {
    // `REF RANGE` centred at 385 over ranges printed from 358; `OUT OF RANGE` ends at 345 (halfway 365).
    const columns = [column('name', 124, 'ANALYTE'), column('value', 266, 'RANGE'), column('value', 319, 'RANGE'), column('range', 385, 'REF RANGE'), column('previous', 468, 'PREVIOUS')];
    const rows = [
      line(600, [[48, 'CHOLESTEROL'], [294, '174'], [358, '<200 mg/dL'], [440, '170 04-21-2024']]),
      line(590, [[48, 'HDL'], [298, '62'], [358, '> OR = 40 mg/dL']]),
      line(580, [[48, 'TRIGLYCERIDES'], [321, '193 HH'], [358, '<150 mg/dL']]),
      line(570, [[48, 'LDL-CHOLESTEROL'], [294, '104'], [358, 'mg/dL']]),
      line(560, [[358, '(calc)']]),
    ];
    const range = calibrateColumns(columns, rows)[3]!;
    expect(range.from).toBeLessThanOrEqual(358);
    expect(range.from).toBeGreaterThan(345);
  });

  it('never takes values with an operator in an out-of-range column for the start of the range column', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('<', '>'), fc.integer({ min: 1, max: 999 })), { minLength: 2, maxLength: 10 }), (values) => {
        // Out-of-range values printed from 350 (right of `OUT OF RANGE`'s end, 345), nothing under `IN RANGE`.
        const columns = [column('name', 124, 'ANALYTE'), column('value', 266, 'RANGE'), column('value', 319, 'RANGE'), column('range', 400, 'REF RANGE')];
        const rows = values.map(([op, v], i) => line(600 - 11 * i, [[48, `TEST ${i}`], [350, `${op}${v}`], [420, '1-2 mg/dL']]));
        const range = calibrateColumns(columns, rows)[3]!;
        expect(range.from).toBeGreaterThan(350);
      }),
    );
  });
  it('starts a unit column under a centred header where its units start, left of halfway to the header before', () => {
    // `UNITS` centred at 510 over units printed from 487; `FLAG` ends at 474 (halfway 492).
    const columns = [column('name', 171, 'COMPONENT'), column('value', 387, 'RESULT'), { role: 'flag' as const, x: 452, x1: 474, from: 440 }, column('unit', 510, 'UNITS')];
    const rows = [
      line(600, [[37, 'GLUCOSE'], [425, '95'], [487, 'mg/dL']]),
      line(590, [[37, 'EGFR'], [425, '77'], [487, 'mL/min/1.']]),
      line(580, [[488, '73m2']]),
      line(570, [[37, 'SODIUM'], [419, '143'], [487, 'mmol/L']]),
    ];
    const unit = calibrateColumns(columns, rows)[3]!;
    expect(unit.from).toBeLessThanOrEqual(487);
    expect(unit.from).toBeGreaterThan(474);
  });

  it('never takes flags that spell a unit (L) for the start of the unit column', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('L', 'H', 'LL', 'HH'), { minLength: 2, maxLength: 10 }), fc.integer({ min: 0, max: 7 }), (flags, nudge) => {
        // Flags printed right of `FLAG`'s end (474) on rows without a unit.
        const columns = [column('name', 171, 'COMPONENT'), column('value', 387, 'RESULT'), { role: 'flag' as const, x: 452, x1: 474, from: 440 }, column('unit', 510, 'UNITS')];
        const rows = flags.map((flag, i) => line(600 - 11 * i, [[37, `TEST ${i}`], [425, '95'], [476 + nudge, flag]]));
        expect(calibrateColumns(columns, rows)[3]!.from).toBeGreaterThan(476 + nudge);
      }),
    );
  });
});

describe('headerWordMisread', () => {
  it.each([
    ['BATE', 'date'],
    ['Resu1t', 'result'],
    ['Refercnce', 'reference'],
    ['Fiag', 'flag'],
  ])('reads %s as the header word %s', (read, word) => expect(headerWordMisread(read)).toBe(word));

  it.each([
    ['Date', 'a header word as printed'],
    ['Lah', 'too short: three letters lie too near other words'],
    ['Glucose', 'no header word within a letter'],
    ['Dates', 'a letter more is no misread letter'],
  ])('leaves %s as read (%s)', (read, _why) => expect(headerWordMisread(read)).toBeNull());

  it('takes back every header word of four letters or more with one letter misread, unless it then spells another as nearly', () => {
    const all = [...new Set(HEADER_PHRASES.flatMap((p) => p.words))];
    const words = all.filter((w) => /^[a-z]{4,}$/.test(w));
    const oneLetterApart = (a: string, b: string) => a.length === b.length && [...a].filter((c, i) => c !== b[i]).length === 1;
    fc.assert(
      fc.property(fc.constantFrom(...words), fc.nat(), fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz1'), (word, at, letter) => {
        const i = at % word.length;
        fc.pre(word[i] !== letter);
        const read = `${word.slice(0, i)}${letter}${word.slice(i + 1)}`;
        fc.pre(!isHeaderWord(read));
        const others = all.filter((w) => w !== word && oneLetterApart(w, read));
        expect(headerWordMisread(read.toUpperCase())).toBe(others.length === 0 ? word : null);
      }),
    );
  });

  it('gives only a header word one letter from the reading, of four letters or more', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z1]{1,12}$/), (read) => {
        const word = headerWordMisread(read);
        if (word === null) return;
        expect(isHeaderWord(word)).toBe(true);
        expect(read.length).toBeGreaterThanOrEqual(4);
        expect([...word].filter((c, i) => c !== read.toLowerCase()[i]).length).toBe(1);
      }),
    );
  });
});
