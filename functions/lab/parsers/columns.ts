import type { Line, Word } from './layout';
import type { ColumnRole, HeaderPhrase } from './vendors';

export interface Column {
  role: ColumnRole;
  /** Left edge of the column's header (its first word). */
  x: number;
  /** Cells starting at or right of this belong to the column (see `calibrateColumns`). */
  from: number;
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
      const x = words[i]!.x0;
      columns.push({ role: phrase.role, x, from: x - HEADER_LEAD });
    }
    i += phrase.words.length;
  }
  if (columns.length < 3 || columns[0]!.role !== 'name') return null;
  if (!columns.some((c) => c.role === 'value')) return null;
  return columns;
}

/**
 * Until the values under a header are seen, a cell belongs to the rightmost column whose header starts
 * at most this far (PDF units) right of it: headers may sit over their values with an offset (centred).
 */
const HEADER_LEAD = 12;
/** Values aligned on a column edge may be nudged by a few points, or estimated a few points early. */
const EDGE_SLACK = 4;

/** Left edges closer than this (PDF units) are one alignment, nudged. */
const ALIGNMENT_SPREAD = 6;

/**
 * Sets where each column starts from the values printed under it: the leftmost of the text runs that
 * start within HEADER_LEAD of the header and line up with at least one other (a run's first word has
 * an exact position; a lone start may be text spilling over from the column before). A column whose
 * values start left of its header then starts there, one whose values start at or right of it at the
 * header, each less EDGE_SLACK.
 */
export function calibrateColumns(columns: readonly Column[], lines: readonly Line[]): Column[] {
  const starts = lines.flatMap((line) => line.words.filter((w) => w.exact).map((w) => w.x0));
  return columns.map((column, i) => {
    if (i === 0) return column;
    const near = starts.filter((x) => x >= column.x - HEADER_LEAD && x <= column.x + EDGE_SLACK);
    const aligned = near.filter((x, k) => near.some((y, j) => j !== k && Math.abs(x - y) <= ALIGNMENT_SPREAD));
    if (aligned.length === 0) return column;
    return { ...column, from: Math.min(column.x, ...aligned) - EDGE_SLACK };
  });
}

/**
 * Groups a line's words into cells: a gap of about three spaces or more ends a cell, and so does a
 * column start, for text runs that hold a whole line with single spaces (but not for a superscript).
 */
function cellsOfLine(line: Line, columns: readonly Column[]): Word[][] {
  const cells: Word[][] = [];
  for (const word of line.words) {
    const cell = cells[cells.length - 1];
    const previous = cell?.[cell.length - 1];
    const gap = previous ? word.x0 - previous.x1 : Number.POSITIVE_INFINITY;
    // A superscript (Labcorp's performing-lab number after a long test name) annotates the text before it,
    // even where it reaches past the next column's start.
    const superscript = word.size < line.size - 1;
    const crosses = previous !== undefined && !superscript && columns.some((c) => previous.x0 < c.from && word.x0 >= c.from);
    if (!cell || gap > 0.8 * word.size || crosses) cells.push([word]);
    else cell.push(word);
  }
  return cells;
}

/** Index of the column a cell starting at `x0` belongs to. */
export function columnAt(x0: number, columns: readonly Column[]): number {
  let index = 0;
  for (let c = 1; c < columns.length; c++) {
    if (x0 >= columns[c]!.from) index = c;
  }
  return index;
}

/**
 * The column of a cell: where it starts, unless most of it lies in the next column. A right-aligned
 * value wider than the numbers under its header (`YELLOW`, `NEGATIVE`) can start a few points before
 * that column does; the line's first cell is the name and stays where it starts.
 */
function cellColumn(cell: readonly Word[], index: number, columns: readonly Column[]): number {
  const column = columnAt(cell[0]!.x0, columns);
  const next = columns[column + 1];
  if (index === 0 || !next) return column;
  const middle = (cell[0]!.x0 + cell[cell.length - 1]!.x1) / 2;
  return middle >= next.from ? column + 1 : column;
}

/** A line's words grouped by column; each entry is the column's text (possibly empty). */
export interface Cells {
  texts: string[];
  words: Word[][];
}

export function cellsOf(line: Line, columns: readonly Column[]): Cells {
  const words: Word[][] = columns.map(() => []);
  for (const [index, cell] of cellsOfLine(line, columns).entries()) words[cellColumn(cell, index, columns)]!.push(...cell);
  return { texts: words.map(cellText), words };
}

/** Gap, in font sizes, below which two text items touch: no room for a space (about 0.25 em). */
const ABUTTING = 0.06;

/**
 * Text of a cell's words. Producers that position every glyph run write one word as several text items;
 * pdf.js joins most, not all, and may place the second a little inside the first (`PHOSPHATA` + `SE`).
 * An item that starts with no room for a space after the word before continues that word.
 */
function cellText(words: readonly Word[]): string {
  let text = '';
  words.forEach((word, i) => {
    const previous = words[i - 1];
    const touching = previous !== undefined && word.exact && Math.abs(word.size - previous.size) < 0.5 && word.x0 - previous.x1 < ABUTTING * word.size && word.x0 > previous.x0;
    text += previous === undefined || touching ? word.text : ` ${word.text}`;
  });
  return text;
}

/** Joined text of every column with the given role. */
export function roleText(cells: Cells, columns: readonly Column[], role: ColumnRole): string {
  return columns
    .map((c, i) => (c.role === role ? cells.texts[i]! : ''))
    .filter((t) => t !== '')
    .join(' ');
}
