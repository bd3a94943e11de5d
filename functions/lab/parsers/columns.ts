import type { Line, Word } from './layout';
import type { ColumnRole, HeaderPhrase } from './vendors';

export interface Column {
  role: ColumnRole;
  /** Left edge of the column (its header's first word). */
  x: number;
}

/**
 * Reads a column-header row (`Test Name  In Range  Out Of Range  Reference Range  Lab`) into columns,
 * or null when the line is not one. Every word must belong to a known header phrase, so a sentence
 * that happens to contain "Result" is never taken for a header.
 */
export function matchHeader(line: Line, headerPhrases: readonly HeaderPhrase[]): Column[] | null {
  const words = line.words;
  const columns: Column[] = [];
  let i = 0;
  while (i < words.length) {
    const phrase = headerPhrases.find((p) => p.words.every((w, k) => words[i + k]?.text.toLowerCase() === w));
    if (!phrase) return null;
    const previous = columns[columns.length - 1];
    // A header printed as "Previous Result" + "Date" is one column.
    if (!(previous && previous.role === phrase.role && phrase.role === 'previous')) {
      columns.push({ role: phrase.role, x: words[i]!.x0 });
    }
    i += phrase.words.length;
  }
  if (columns.length < 3 || columns[0]!.role !== 'name') return null;
  if (!columns.some((c) => c.role === 'value')) return null;
  return columns;
}

/**
 * A cell belongs to the rightmost column whose header starts at most this far (PDF units) right of
 * the cell: headers may sit over their values with an offset (centred), and values may be nudged.
 */
const HEADER_LEAD = 12;

/**
 * Groups a line's words into cells: a gap of about three spaces or more ends a cell, and so does a
 * column start, for text runs that hold a whole line with single spaces.
 */
function cellsOfLine(line: Line, columns: readonly Column[]): Word[][] {
  const cells: Word[][] = [];
  for (const word of line.words) {
    const cell = cells[cells.length - 1];
    const previous = cell?.[cell.length - 1];
    const gap = previous ? word.x0 - previous.x1 : Number.POSITIVE_INFINITY;
    const crosses = previous !== undefined && columns.some((c) => previous.x0 < c.x - HEADER_LEAD && word.x0 >= c.x - HEADER_LEAD);
    if (!cell || gap > 0.8 * word.size || crosses) cells.push([word]);
    else cell.push(word);
  }
  return cells;
}

/** Index of the column a cell starting at `x0` belongs to. */
export function columnAt(x0: number, columns: readonly Column[]): number {
  let index = 0;
  for (let c = 1; c < columns.length; c++) {
    if (x0 >= columns[c]!.x - HEADER_LEAD) index = c;
  }
  return index;
}

/** A line's words grouped by column; each entry is the column's text (possibly empty). */
export interface Cells {
  texts: string[];
  words: Word[][];
}

export function cellsOf(line: Line, columns: readonly Column[]): Cells {
  const words: Word[][] = columns.map(() => []);
  for (const cell of cellsOfLine(line, columns)) words[columnAt(cell[0]!.x0, columns)]!.push(...cell);
  return { texts: words.map((ws) => ws.map((w) => w.text).join(' ')), words };
}

/** Joined text of every column with the given role. */
export function roleText(cells: Cells, columns: readonly Column[], role: ColumnRole): string {
  return columns
    .map((c, i) => (c.role === role ? cells.texts[i]! : ''))
    .filter((t) => t !== '')
    .join(' ');
}

export function roleWords(cells: Cells, columns: readonly Column[], role: ColumnRole): Word[] {
  return columns.flatMap((c, i) => (c.role === role ? cells.words[i]! : []));
}
