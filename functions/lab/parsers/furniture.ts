import type { Line } from './layout';
import { FURNITURE } from './vocabulary';

/**
 * Page furniture: headers, footers and patient banners printed on every page. A line is furniture when
 * its text, with digits masked (page numbers, dates, times), stands at about the same height on at
 * least half of the pages (and two or more), or when it matches a furniture pattern of the vocabulary
 * (which also covers a single page). Boilerplate removal as docs/research/generic-table-reading.md §3
 * describes it. Lines that are column headers are the caller's to keep.
 */

/** A line and the index of its page. */
interface Occurrence {
  page: number;
  line: Line;
}

/** Points a repeated line may move between pages and still be the same furniture. */
const SAME_HEIGHT = 4;

/** A line's text, its digits masked; the text is its words joined by single spaces (layout.ts). */
function furnitureKey(line: Line): string {
  return line.text.toLowerCase().replace(/\d/g, '#');
}

/** Whether the text matches one of the vocabulary's furniture patterns. */
export function isPatternFurniture(text: string): boolean {
  return FURNITURE.test(text);
}

/**
 * The furniture lines of a document, page by page. `exactOnly` lines (result rows, say) count as
 * repeated only when their text repeats exactly, digits included: the same test printed at the same
 * height on two pages with different values is not furniture.
 */
export function findFurniture(pages: readonly (readonly Line[])[], exactOnly: (line: Line) => boolean = () => false): Set<Line> {
  const furniture = new Set<Line>();
  const needed = Math.max(2, Math.ceil(pages.length / 2));
  const byKey = new Map<string, Occurrence[]>();
  pages.forEach((lines, page) => {
    for (const line of lines) {
      if (isPatternFurniture(line.text)) furniture.add(line);
      const key = furnitureKey(line);
      const list = byKey.get(key) ?? [];
      list.push({ page, line });
      byKey.set(key, list);
    }
  });
  if (pages.length < 2) return furniture;
  for (const masked of byKey.values()) {
    // A group by exact text is part of its masked group: none repeats at one height when that does not.
    if (masked.length < needed || !masked.some(({ line }) => pagesAtHeight(masked, line) >= needed)) continue;
    const byText = new Map<string, Occurrence[]>();
    for (const occurrence of masked) byText.set(occurrence.line.text, [...(byText.get(occurrence.line.text) ?? []), occurrence]);
    // A line whose text repeats exactly is furniture, row or not; the others only when they are no row
    // (whether a line is a row costs a reading, asked only here and not of a furniture pattern's line).
    const exact = masked.filter(({ line }) => pagesAtHeight(byText.get(line.text)!, line) >= needed);
    for (const { line } of exact) furniture.add(line);
    if (exact.length === masked.length) continue;
    const rest = masked.filter((o) => !exact.includes(o) && (furniture.has(o.line) || !exactOnly(o.line)));
    const repeated = [...exact, ...rest];
    for (const { line } of rest) if (pagesAtHeight(repeated, line) >= needed) furniture.add(line);
  }
  return furniture;
}

/** On how many pages one of `occurrences` stands at about the height of `line`. */
function pagesAtHeight(occurrences: readonly Occurrence[], line: Line): number {
  return new Set(occurrences.filter((o) => Math.abs(o.line.y - line.y) <= SAME_HEIGHT).map((o) => o.page)).size;
}
