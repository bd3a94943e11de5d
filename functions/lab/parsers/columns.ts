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
 * Slack (PDF units) when assigning a word to the column whose header starts at or left of it: values
 * are left-aligned under their header, and positions estimated inside a long text run can be a few
 * points early.
 */
const COLUMN_SLACK = 4;

/** Index of the column a word belongs to. */
export function columnOf(word: Word, columns: readonly Column[]): number {
  let index = 0;
  for (let c = 1; c < columns.length; c++) {
    if (word.x0 >= columns[c]!.x - COLUMN_SLACK) index = c;
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
  for (const word of line.words) words[columnOf(word, columns)]!.push(word);
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
