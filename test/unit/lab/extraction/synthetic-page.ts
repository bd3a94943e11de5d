import type { PageText } from '../../../../functions/lab/pdf-text';

/**
 * Builds the text layer of a page by hand (no PDF): each line is a baseline `y` and cells `[x, text]`,
 * so a test can place text exactly where a layout puts it. Widths approximate Helvetica (0.5 em/char).
 */
export type SyntheticLine = [y: number, cells: Array<[x: number, text: string, size?: number]>];

export function syntheticPage(pageNumber: number, lines: SyntheticLine[], size = 8): PageText {
  return {
    pageNumber,
    width: 612,
    height: 792,
    items: lines.flatMap(([y, cells]) =>
      cells.map(([x, str, cellSize]) => ({ str, x, y, width: str.length * (cellSize ?? size) * 0.5, height: cellSize ?? size })),
    ),
  };
}

/** Consecutive baselines from `top`, `step` apart, for the given lines. */
export function stack(top: number, step: number, rows: Array<SyntheticLine[1]>): SyntheticLine[] {
  return rows.map((cells, i) => [top - i * step, cells]);
}
