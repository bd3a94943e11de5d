import type { Column } from './header';
import type { Line, Word } from './layout';
import type { ColumnRole } from './vocabulary';

/**
 * Cells of a line. A gap of about three spaces or more ends a cell, and so does a run of spaces inside
 * a text item (a text view printed to PDF); with columns known, so does a column start, for text runs
 * that hold a whole line with single spaces (but not for a superscript).
 */

export interface Cell {
  words: Word[];
  text: string;
  x0: number;
  x1: number;
}

/** Gap, in font sizes, between cells. */
const CELL_GAP = 0.8;
/**
 * The same between recognised words, whose gaps OCR measures between inked boxes: a space plus the
 * bearings of the glyphs beside it, widened where blur or noise thin a comma or a bracket (`Globulin,`
 * `Total`, `mg/dL` `(calc)` came out 0.8 of the size apart on noisy scans; columns stand 1.4 or more).
 */
const RECOGNISED_CELL_GAP = 1;
/**
 * The same after a recognised word that ends in a comma or a point after a letter (`PROTEIN,` `TOTAL`,
 * `Comp.` `Metabolic`): in a fixed-pitch font the mark's advance and the space come to 1.2 of the size
 * between the inked boxes, 1.36 at most over the samples. Still under the 1.4 columns stand apart; and a
 * cell ends in no such mark, a name goes on after it.
 */
const PUNCTUATED_CELL_GAP = 1.4;

/** The gap, in font sizes, that ends a cell between two words. */
function cellGapAfter(previous: Word, word: Word): number {
  if (word.confidence === undefined) return CELL_GAP;
  return /\p{L}[,.]$/u.test(previous.text) ? PUNCTUATED_CELL_GAP : RECOGNISED_CELL_GAP;
}

/** Cells of each line per set of columns (the reader interns its calibrated columns): a line is asked about again and again. */
const cellsOfLine = new WeakMap<Line, Array<{ columns: readonly Column[] | null; cells: readonly Cell[] }>>();

export function splitCells(line: Line, columns: readonly Column[] | null = null): readonly Cell[] {
  // A few sets of columns per line: a list is found faster than a map is made.
  let known = cellsOfLine.get(line);
  if (!known) {
    known = [];
    cellsOfLine.set(line, known);
  }
  for (const entry of known) if (entry.columns === columns) return entry.cells;
  const cells = cellsOf(line, columns);
  known.push({ columns, cells });
  return cells;
}

function cellsOf(line: Line, columns: readonly Column[] | null): Cell[] {
  const groups: Word[][] = [];
  for (const word of line.words) {
    const group = groups[groups.length - 1];
    const previous = group?.[group.length - 1];
    if (!group || !previous || word.spaced || word.x0 - previous.x1 > cellGapAfter(previous, word) * word.size) groups.push([word]);
    else group.push(word);
  }
  if (columns === null) return groups.map(toCell);
  const cells: Word[][] = [];
  for (const group of groups) {
    const last = cells[cells.length - 1];
    cells.push(...splitAtColumns(group, line.size, columns, last ? columnAt(last[0]!.x0, columns) : -1));
  }
  return cells.map(toCell);
}

/**
 * A gap-delimited group that runs over a column start: a text run holding several columns joined by
 * single spaces, split at each start it crosses (but not at a superscript: Labcorp's performing-lab
 * number after a long test name annotates the text before it). A group that crosses one start only,
 * begins before it and lies mostly right of it is one cell printed early (a centred header's column
 * calibrated on few rows): `Non Reactive 09-03-2023` under `Previous Result`. Early by a few points,
 * or by any amount where the column it begins in already holds a cell of the line, `taken` (the last
 * cell's column), and is no name column (a name runs over several cells, `TRIGLYCERIDES` `(S)`):
 * `YELLOW` under the range, then `AMBER Abnormal 2024-04-13` centred under `Previous Result` and wider
 * than it, is no second range cell.
 */
function splitAtColumns(group: Word[], lineSize: number, columns: readonly Column[], taken: number): Word[][] {
  const x0 = group[0]!.x0;
  const x1 = group[group.length - 1]!.x1;
  const crossed = columns.filter((c) => x0 < c.from && group.some((w) => w.x0 >= c.from && w.size >= lineSize - 1));
  if (crossed.length === 0) return [group];
  const startsIn = columnAt(x0, columns);
  const early = crossed.length === 1 && (crossed[0]!.from - x0 < EARLY_CELL || (startsIn <= taken && columns[startsIn]!.role !== 'name'));
  if (early && group.length > 1 && (x0 + x1) / 2 >= crossed[0]!.from) return [group];
  const pieces: Word[][] = [];
  for (const word of group) {
    const piece = pieces[pieces.length - 1];
    const previous = piece?.[piece.length - 1];
    const superscript = word.size < lineSize - 1;
    const crosses = previous !== undefined && !superscript && crossed.some((c) => previous.x0 < c.from && word.x0 >= c.from);
    if (!piece || crosses) pieces.push([word]);
    else piece.push(word);
  }
  return pieces;
}

/** How far (PDF units) left of its column a cell may start and still be that column's, when most of it lies in it. */
const EARLY_CELL = 12;

export function toCell(words: Word[]): Cell {
  return { words, text: cellText(words), x0: words[0]!.x0, x1: words[words.length - 1]!.x1 };
}

/** Gap, in font sizes, below which two text items touch: no room for a space (about 0.25 em). */
const ABUTTING = 0.06;

/**
 * Text of a cell's words. Producers that position every glyph run write one word as several text items;
 * pdf.js joins most, not all, and may place the second a little inside the first (`PHOSPHATA` + `SE`).
 * An item that starts with no room for a space after the word before continues that word.
 */
export function cellText(words: readonly Word[]): string {
  let text = '';
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const previous = words[i - 1];
    const touching = previous !== undefined && word.exact && Math.abs(word.size - previous.size) < 0.5 && word.x0 - previous.x1 < ABUTTING * word.size && word.x0 > previous.x0;
    text += previous === undefined || touching ? word.text : ` ${word.text}`;
  }
  return text;
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
export function cellColumn(cell: Cell, index: number, columns: readonly Column[]): number {
  const column = columnAt(cell.x0, columns);
  const next = columns[column + 1];
  if (index === 0 || !next) return column;
  const middle = (cell.x0 + cell.x1) / 2;
  return middle >= next.from ? column + 1 : column;
}

/** A line's cells grouped by column; each entry is the column's text (possibly empty). */
export interface ColumnCells {
  texts: string[];
  words: Word[][];
}

export function cellsByColumn(cells: readonly Cell[], columns: readonly Column[]): ColumnCells {
  const words: Word[][] = columns.map(() => []);
  const texts: string[] = columns.map(() => '');
  cells.forEach((cell, index) => {
    const column = cellColumn(cell, index, columns);
    words[column]!.push(...cell.words);
    // A cell's text is never empty: an empty text is a column with no cell yet.
    texts[column] = texts[column] === '' ? cell.text : `${texts[column]} ${cell.text}`;
  });
  return { texts, words };
}

/** The texts of each role's columns, joined by spaces (empty columns left out); a role with none is absent. */
export type RoleTexts = Partial<Record<ColumnRole, string>>;

export function textsByRole(texts: readonly string[], columns: readonly Column[]): RoleTexts {
  const byRole: RoleTexts = {};
  for (let i = 0; i < columns.length; i++) {
    const text = texts[i]!;
    if (text === '') continue;
    const role = columns[i]!.role;
    const known = byRole[role];
    byRole[role] = known === undefined ? text : `${known} ${text}`;
  }
  return byRole;
}
