import type { PageText } from '../pdf-text';

/**
 * The text of a document as reading lines, built from the positioned items, with the offset of every
 * item. PHI detectors work on this text (labels and values sit side by side on a line, often in
 * separate items); redaction maps the spans they find back onto the items.
 */
export interface ItemRef {
  page: number;
  item: number;
  start: number;
  end: number;
}

export interface DocumentText {
  text: string;
  items: ItemRef[];
}

/** Items whose baselines differ by less than this share a line (PDF units; fonts on lab reports are 7–12 pt). */
const SAME_LINE = 2;
/** A horizontal gap wider than this separates table columns; the text gets a tab so a value never runs into its neighbour. */
const COLUMN_GAP = 12;

export function documentText(pages: readonly PageText[]): DocumentText {
  let text = '';
  const items: ItemRef[] = [];
  pages.forEach((page, pageIndex) => {
    if (pageIndex > 0) text += '\f\n';
    const order = page.items.map((item, index) => ({ item, index })).sort((a, b) => b.item.y - a.item.y || a.item.x - b.item.x);
    const lines: (typeof order)[] = [];
    for (const entry of order) {
      const line = lines[lines.length - 1];
      if (line && Math.abs(line[0]!.item.y - entry.item.y) < SAME_LINE) line.push(entry);
      else lines.push([entry]);
    }
    for (const line of lines) {
      line.sort((a, b) => a.item.x - b.item.x);
      let previousEnd: number | undefined;
      for (const { item, index } of line) {
        if (previousEnd !== undefined) text += item.x - previousEnd > COLUMN_GAP ? '\t' : ' ';
        items.push({ page: pageIndex, item: index, start: text.length, end: text.length + item.str.length });
        text += item.str;
        previousEnd = item.x + item.width;
      }
      text += '\n';
    }
  });
  return { text, items };
}
