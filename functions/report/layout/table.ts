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
 * A ruled table with a header that repeats on each new page. Returns how many rows were drawn; in a
 * page-limited document the rest are summarised in one line.
 */
export function drawTable(w: PageWriter, columns: readonly Column[], rows: readonly string[][], options: TableOptions = {}): number {
  const size = options.size ?? TYPE.body;
  const rowHeight = size * 1.9;
  const padding = 3;

  const header = (): void => {
    w.y -= rowHeight;
    fillRectangles(w.page, [{ x: w.left, y: w.y, width: totalWidth(columns), height: rowHeight }], COLOR.panel);
    let x = w.left;
    for (const column of columns) {
      const style = { size: size - 1, bold: true };
      w.text(fitText(w, column.header, column.width - 2 * padding, style), anchor(column, x, padding), w.y + rowHeight * 0.32, style, column.align);
      x += column.width;
    }
  };

  if (!w.room(rowHeight * 2)) return 0;
  header();
  let drawn = 0;
  for (const [index, row] of rows.entries()) {
    const last = index === rows.length - 1;
    // Keep one line free for the "not shown" note unless this is the last row.
    const needed = last ? rowHeight : rowHeight * 2;
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
        w.text(fitText(w, text, column.width - 2 * padding, { size }), anchor(column, x, padding), w.y + rowHeight * 0.32, { size }, column.align);
      }
      x += column.width;
    }
    strokeSegments(w.page, [[{ x: w.left, y: w.y }, { x: w.left + totalWidth(columns), y: w.y }]], { thickness: 0.3, color: COLOR.rule });
    drawn += 1;
  }
  const omitted = rows.length - drawn;
  if (omitted > 0 && w.remaining() >= rowHeight) {
    w.y -= rowHeight;
    const label = options.omittedLabel?.(omitted) ?? `${omitted} more rows not shown`;
    w.text(label, w.left + padding, w.y + rowHeight * 0.32, { size, color: COLOR.muted });
  }
  return drawn;
}

/** Shortens text that would run into the next column, marking the cut with an ellipsis. */
export function fitText(w: PageWriter, text: string, width: number, style: TextStyle): string {
  if (w.width(text, style) <= width) return text;
  let cut = text.length;
  while (cut > 1 && w.width(`${text.slice(0, cut).trimEnd()}…`, style) > width) cut -= 1;
  return `${text.slice(0, cut).trimEnd()}…`;
}

function totalWidth(columns: readonly Column[]): number {
  return columns.reduce((sum, column) => sum + column.width, 0);
}

function anchor(column: Column, x: number, padding: number): number {
  if (column.align === 'right') return x + column.width - padding;
  if (column.align === 'center') return x + column.width / 2;
  return x + padding;
}
