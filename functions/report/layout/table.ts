import type { PageWriter, TextStyle } from './page-writer';
import { fillRectangles, strokeSegments } from './paths';
import { COLOR, TYPE } from './theme';

export interface Column {
  header: string;
  width: number;
  align?: 'left' | 'right' | 'center';
}

export interface CellBox {
  x: number;
  /** Bottom of the row. */
  y: number;
  width: number;
  height: number;
}

export interface TableOptions {
  size?: number;
  /** Draws a cell that is not text (e.g. a range bar); called for cells whose text is empty. */
  drawCell?: (row: number, column: number, box: CellBox) => void;
  /** Said in place of the rows a page-limited document had no room for. */
  omittedLabel?: (count: number) => string;
}

/**
 * A ruled table with a header that repeats on each new page. Text never runs into the next column
 * and is never cut: a cell wraps onto more lines and its row grows (`cellLines`). Returns how many
 * rows were drawn; in a page-limited document the rest are summarised in one line.
 */
export function drawTable(w: PageWriter, columns: readonly Column[], rows: readonly string[][], options: TableOptions = {}): number {
  const size = options.size ?? TYPE.body;
  const padding = 3;
  const lineStep = size * 1.2;
  const heightOf = (lines: number) => size * 1.9 + (lines - 1) * lineStep;
  const headerStyle = { size: size - 1, bold: true };
  const headerLines = columns.map((column) => cellLines(w, column.header, column.width - 2 * padding, headerStyle));
  const headerHeight = heightOf(Math.max(...headerLines.map((l) => l.length)));

  /** Lines of each cell, top-aligned; the first line sits where a one-line row's text would. */
  const drawLines = (lines: readonly string[], column: Column, x: number, top: number, style: TextStyle) => {
    for (const [i, line] of lines.entries()) w.text(line, anchor(column, x, padding), top - size * 1.9 * 0.68 - i * lineStep, style, column.align);
  };

  const header = (): void => {
    w.y -= headerHeight;
    fillRectangles(w.page, [{ x: w.left, y: w.y, width: totalWidth(columns), height: headerHeight }], COLOR.panel);
    let x = w.left;
    columns.forEach((column, i) => {
      drawLines(headerLines[i]!, column, x, w.y + headerHeight, headerStyle);
      x += column.width;
    });
  };

  if (!w.room(headerHeight + heightOf(1))) return 0;
  header();
  let drawn = 0;
  for (const [index, row] of rows.entries()) {
    const lines = columns.map((column, col) => cellLines(w, row[col] ?? '', column.width - 2 * padding, { size }));
    const rowHeight = heightOf(Math.max(1, ...lines.map((l) => l.length)));
    const last = index === rows.length - 1;
    // Keep one line free for the "not shown" note unless this is the last row.
    const needed = last ? rowHeight : rowHeight + heightOf(1);
    const page = w.page;
    if (!w.room(needed)) break;
    if (w.page !== page) header();
    w.y -= rowHeight;
    let x = w.left;
    for (const [col, column] of columns.entries()) {
      const text = row[col] ?? '';
      if (text === '' && options.drawCell) {
        options.drawCell(index, col, { x: x + padding, y: w.y, width: column.width - 2 * padding, height: rowHeight });
      } else {
        drawLines(lines[col]!, column, x, w.y + rowHeight, { size });
      }
      x += column.width;
    }
    strokeSegments(w.page, [[{ x: w.left, y: w.y }, { x: w.left + totalWidth(columns), y: w.y }]], { thickness: 0.3, color: COLOR.rule });
    drawn += 1;
  }
  const omitted = rows.length - drawn;
  const noteHeight = heightOf(1);
  if (omitted > 0 && w.remaining() >= noteHeight) {
    w.y -= noteHeight;
    const label = options.omittedLabel?.(omitted) ?? `${omitted} more rows not shown`;
    w.text(label, w.left + padding, w.y + noteHeight * 0.32, { size, color: COLOR.muted });
  }
  return drawn;
}

/**
 * The lines a cell's text needs at this width: words wrap, and a word wider than the column (a long
 * unit such as `mL/min/1.73`) breaks after a `/` or, failing that, between characters.
 */
export function cellLines(w: PageWriter, text: string, width: number, style: TextStyle): string[] {
  if (text === '') return [];
  if (w.width(text, style) <= width) return [text];
  return w.wrap(text, width, style).flatMap((line) => (w.width(line, style) <= width ? [line] : breakWord(w, line, width, style)));
}

function breakWord(w: PageWriter, word: string, width: number, style: TextStyle): string[] {
  const lines: string[] = [];
  let rest = word;
  while (rest !== '' && w.width(rest, style) > width) {
    let cut = rest.length - 1;
    while (cut > 1 && w.width(rest.slice(0, cut), style) > width) cut -= 1;
    const slash = rest.lastIndexOf('/', cut - 1);
    if (slash > 0) cut = slash + 1;
    lines.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest !== '') lines.push(rest);
  return lines;
}

function totalWidth(columns: readonly Column[]): number {
  return columns.reduce((sum, column) => sum + column.width, 0);
}

function anchor(column: Column, x: number, padding: number): number {
  if (column.align === 'right') return x + column.width - padding;
  if (column.align === 'center') return x + column.width / 2;
  return x + padding;
}
