import { confusionFold } from '../ocr/test-name-repair';
import { isRecognised, type Line } from './layout';
import { FURNITURE } from './vocabulary';

/**
 * Page furniture: headers, footers and patient banners printed on every page. A line is furniture when
 * its text, with digits masked (page numbers, dates, times), stands at about the same height on at
 * least half of the pages (and two or more), or when it matches a furniture pattern of the vocabulary
 * (which also covers a single page). Boilerplate removal as docs/research/generic-table-reading.md §3
 * describes it. Lines that are column headers are the caller's to keep.
 *
 * OCR reads the same banner differently on every page (`Report from L orp`, `ab Report from LabC orp`),
 * so recognised lines that are no result row also repeat when their readings are alike: most of their
 * letter pairs shared, OCR's usual confusions and spacing aside.
 */

/** A line and the index of its page. */
interface Occurrence {
  page: number;
  line: Line;
}

/** Points a repeated line may move between pages and still be the same furniture. */
const SAME_HEIGHT = 4;

/** Share of letter pairs (Dice) two readings of one recognised line have in common, at least. */
const SAME_READING = 0.8;
/** Readings shorter than this (letters, spaces aside) are too short to tell alike from chance. */
const MIN_READING = 8;

/** A line's text, its digits masked; the text is its words joined by single spaces (layout.ts). */
function furnitureKey(line: Line): string {
  return line.text.toLowerCase().replace(/\d/g, '#');
}

/** Whether the text matches one of the vocabulary's furniture patterns. */
export function isPatternFurniture(text: string): boolean {
  return FURNITURE.test(text);
}

/**
 * Whether `line` stands between two of its page's `rows`: inside a table, where a line that repeats at
 * one height is part of the table, not furniture (`Protein,` / `Total` at the top of one page's table
 * and `Cholesterol,` / `Total` at the top of the next: the wrapped name's second line). The nearest
 * lines are asked first, and below only when a row stands above: a banner at the top or a footer at
 * the bottom costs no reading.
 */
function betweenRows(line: Line, page: readonly Line[], rows: (line: Line) => boolean): boolean {
  const nearestFirst = (side: Line[]) => side.sort((a, b) => Math.abs(a.y - line.y) - Math.abs(b.y - line.y));
  const above = nearestFirst(page.filter((l) => l.y > line.y));
  if (!above.some(rows)) return false;
  return nearestFirst(page.filter((l) => l.y < line.y)).some(rows);
}

/**
 * The furniture lines of a document, page by page. `exactOnly` lines (result rows, say) count as
 * repeated only when their text repeats exactly, digits included: the same test printed at the same
 * height on two pages with different values is not furniture. A line between two `rows` of its page
 * is furniture only by a furniture pattern.
 */
export function findFurniture(
  pages: readonly (readonly Line[])[],
  exactOnly: (line: Line) => boolean = () => false,
  rows: (line: Line) => boolean = () => false,
): Set<Line> {
  const pageOf = new Map<Line, readonly Line[]>();
  for (const lines of pages) for (const line of lines) pageOf.set(line, lines);
  const found = repeatedLines(pages, exactOnly);
  return new Set([...found].filter((line) => isPatternFurniture(line.text) || !betweenRows(line, pageOf.get(line)!, rows)));
}

function repeatedLines(pages: readonly (readonly Line[])[], exactOnly: (line: Line) => boolean): Set<Line> {
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
  for (const line of readingsAlike(pages, needed, exactOnly)) furniture.add(line);
  return furniture;
}

/**
 * A recognised line's letter pairs, OCR's confusions folded; none when it is too short, or holds a
 * number of two digits or more. A date, time or count is what tells a page's line from another's
 * (`HS CRP Collected: 11/10/24 10:51 ET`, a title whose stamp is most of its letters, and
 * `URIC ACID Collected: 11/10/24 10:51 ET` on the next page), while OCR reads single letters as
 * digits (`NORTHS1DE`), which the fold takes back.
 */
function letterPairs(line: Line): string[] {
  if (!isRecognised(line) || /\d{2}/.test(line.text)) return [];
  const folded = confusionFold(line.text);
  if (folded.length < MIN_READING) return [];
  return [...folded].slice(1).map((c, i) => folded[i]! + c);
}

function alike(a: readonly string[], b: readonly string[]): boolean {
  const left = new Map<string, number>();
  for (const pair of a) left.set(pair, (left.get(pair) ?? 0) + 1);
  let shared = 0;
  for (const pair of b) {
    const count = left.get(pair) ?? 0;
    if (count > 0) {
      shared += 1;
      left.set(pair, count - 1);
    }
  }
  return (2 * shared) / (a.length + b.length) >= SAME_READING;
}

/** Recognised lines, no rows, read alike at about one height on `needed` pages or more. */
function readingsAlike(pages: readonly (readonly Line[])[], needed: number, exactOnly: (line: Line) => boolean): Line[] {
  const kept = pages.flatMap((lines, page) => lines.map((line) => ({ page, line, pairs: letterPairs(line) })).filter((c) => c.pairs.length > 0 && !exactOnly(c.line)));
  return kept
    .filter(({ page, line, pairs }) => {
      const pagesAlike = new Set([page]);
      for (const other of kept) {
        if (other.page !== page && Math.abs(other.line.y - line.y) <= Math.max(SAME_HEIGHT, line.size) && alike(pairs, other.pairs)) pagesAlike.add(other.page);
      }
      return pagesAlike.size >= needed;
    })
    .map(({ line }) => line);
}

/** On how many pages one of `occurrences` stands at about the height of `line`. */
function pagesAtHeight(occurrences: readonly Occurrence[], line: Line): number {
  return new Set(occurrences.filter((o) => Math.abs(o.line.y - line.y) <= SAME_HEIGHT).map((o) => o.page)).size;
}
