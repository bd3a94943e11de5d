import fc from 'fast-check';
import { cellsByColumn, splitCells } from '../../../../functions/lab/parsers/cells';
import type { Column } from '../../../../functions/lab/parsers/header';
import type { Line, Word } from '../../../../functions/lab/parsers/layout';

/**
 * Cells of a line and the columns they fall in (functions/lab/parsers/cells.ts): gaps end cells, and a
 * text run that holds several columns joined by single spaces is cut at the column starts it crosses.
 */

const SIZE = 8;
/** Helvetica-like advance: half an em per character, a quarter em per space. */
const ADVANCE = 0.5 * SIZE;

/** Words of `text` set from x on one baseline, single-spaced. */
function words(x: number, text: string): Word[] {
  let at = x;
  return text.split(' ').map((part) => {
    const word: Word = { text: part, x0: at, x1: at + part.length * ADVANCE, y: 600, size: SIZE, exact: true, spaced: false };
    at = word.x1 + 0.25 * SIZE;
    return word;
  });
}

function line(cells: Array<[x: number, text: string]>): Line {
  const all = cells.flatMap(([x, text]) => words(x, text));
  return { pageNumber: 1, y: 600, x0: all[0]!.x0, x1: all[all.length - 1]!.x1, size: SIZE, words: all, text: all.map((w) => w.text).join(' ') };
}

const COLUMNS: Column[] = [
  { role: 'name', x: 122, x1: 143, from: 41 },
  { role: 'value', x: 242, x1: 327, from: 230 },
  { role: 'range', x: 355, x1: 398, from: 343 },
  { role: 'previous', x: 447, x1: 483, from: 436 },
  { role: 'lab', x: 531, x1: 545, from: 519 },
];

function byRole(l: Line): Record<string, string> {
  const { texts } = cellsByColumn(splitCells(l, COLUMNS), COLUMNS);
  return Object.fromEntries(COLUMNS.map((c, i) => [c.role, texts[i]!]));
}

describe('splitCells with columns', () => {
  it('keeps a cell that starts a little before its column and lies mostly in it whole', () => {
    // `Non Reactive 09-03-2023` starts at 425, 11 points before `Previous Result`'s values were calibrated to start.
    const cells = byRole(line([[41, 'HIV Screen 4th Generation wRfx'], [233, 'Non Reactive'], [354, 'Non Reactive'], [425, 'Non Reactive 09-03-2023'], [531, '01']]));
    expect(cells.range).toBe('Non Reactive');
    expect(cells.previous).toBe('Non Reactive 09-03-2023');
  });

  it('keeps a cell whole that starts well before its column where the column it starts in already holds a cell of the line', () => {
    // `AMBER Abnormal 2024-04-13`, centred under `Previous Result` and wider than it, starts 30 points early; the range already holds `YELLOW`.
    const cells = byRole(line([[41, 'COLOR'], [233, 'YELLOW'], [354, 'YELLOW'], [406, 'AMBER Abnormal 2024-04-13'], [531, '01']]));
    expect(cells.range).toBe('YELLOW');
    expect(cells.previous).toBe('AMBER Abnormal 2024-04-13');
    // With the range empty the run is cut at the column start, as before.
    const alone = byRole(line([[41, 'COLOR'], [233, 'YELLOW'], [406, 'AMBER Abnormal 2024-04-13'], [531, '01']]));
    expect([alone.range, alone.previous]).toEqual(['AMBER Abnormal', '2024-04-13']);
  });

  it('cuts a single-spaced run at a column start when it begins well before that column or lies mostly before it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 1, max: 999 }), fc.integer({ min: 0, max: 4 }), fc.boolean(), (letters, value, lead, early) => {
        // One run, single-spaced (a text view joined with single spaces; gaps under a cell gap): a word, then a value at the value column.
        const from = COLUMNS[1]!.from;
        const nameWord = 'X'.repeat(letters);
        const width = letters * ADVANCE;
        const x0 = early ? from - 14 - width : from - 2 - width;
        const first: Word = { text: nameWord, x0, x1: x0 + width, y: 600, size: SIZE, exact: true, spaced: false };
        const second: Word = { text: String(value), x0: from + lead, x1: from + lead + String(value).length * ADVANCE, y: 600, size: SIZE, exact: false, spaced: false };
        const l: Line = { pageNumber: 1, y: 600, x0, x1: second.x1, size: SIZE, words: [first, second], text: `${nameWord} ${value}` };
        const cells = splitCells(l, COLUMNS);
        const mostlyRight = (first.x0 + second.x1) / 2 >= from;
        // A cell may start up to 12 points early (a centred header's column calibrated on few rows).
        if (from - first.x0 < 12 && mostlyRight) expect(cells.map((c) => c.text)).toEqual([`${nameWord} ${value}`]);
        else expect(cells.map((c) => c.text)).toEqual([nameWord, String(value)]);
      }),
    );
  });
});

describe('splitCells between recognised words', () => {
  /** Two words, the second `gap` font sizes after the first's inked box; recognised words carry OCR's confidence. */
  function pair(first: string, second: string, gap: number, recognised = true): Line {
    const a: Word = { text: first, x0: 40, x1: 40 + first.length * ADVANCE, y: 600, size: SIZE, exact: true, spaced: false, ...(recognised ? { confidence: 0.95 } : {}) };
    const x0 = a.x1 + gap * SIZE;
    const b: Word = { text: second, x0, x1: x0 + second.length * ADVANCE, y: 600, size: SIZE, exact: true, spaced: false, ...(recognised ? { confidence: 0.95 } : {}) };
    return { pageNumber: 1, y: 600, x0: a.x0, x1: b.x1, size: SIZE, words: [a, b], text: `${first} ${second}` };
  }
  const texts = (l: Line) => splitCells(l).map((c) => c.text);

  it('keeps a word after a comma or a letter’s point in the cell up to 1.4 font sizes: a fixed-pitch mark and space (`PROTEIN,` `TOTAL` 1.18 apart)', () => {
    expect(texts(pair('PROTEIN,', 'TOTAL', 1.18))).toEqual(['PROTEIN, TOTAL']);
    expect(texts(pair('Comp.', 'Metabolic', 1.36))).toEqual(['Comp. Metabolic']);
  });

  it('ends the cell beyond that, after other words beyond one font size, and between words of a text layer beyond 0.8', () => {
    expect(texts(pair('RNA,', 'NOT', 1.5))).toEqual(['RNA,', 'NOT']);
    expect(texts(pair('PROTEIN', 'TOTAL', 1.18))).toEqual(['PROTEIN', 'TOTAL']);
    // A number's point or comma is no name going on.
    expect(texts(pair('1.5,', '4.5', 1.18))).toEqual(['1.5,', '4.5']);
    expect(texts(pair('PROTEIN,', 'TOTAL', 1.18, false))).toEqual(['PROTEIN,', 'TOTAL']);
  });
});
