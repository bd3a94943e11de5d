import { findDates } from './dates';
import { wordGroups } from './header';
import type { Line, Word } from './layout';
import { COLLECTION_LABEL, COLLECTION_LABEL_ENDS, OTHER_DATE_LABEL } from './vocabulary';

/**
 * Specimen collection dates, wherever a report prints them (docs/research/generic-table-reading.md §4):
 * label and value on one line (`Date Collected: 03/14/2025`, a panel's `Collected: …` stamp), the value
 * on the next line under the label or in the next row of a label/value table, and labels split over
 * two lines (`Date/Time` over `Collected`). Received, reported and previous-result dates never count:
 * only text after a collection label and before the next label is read.
 */

/** Characters after a label within which its date must start. */
const SAME_LINE_REACH = 40;
/** Lines below a label searched for its value. */
const LINES_BELOW = 3;

/** Compiled once: the label patterns are data (vocabulary), these their combinations. */
const ANY_DATE_LABEL = new RegExp(`${COLLECTION_LABEL.source}|${OTHER_DATE_LABEL.source}`, 'gi');
const WHOLE_LABEL = new RegExp(`^(?:${COLLECTION_LABEL.source})\\s*:?$`, 'i');
const LABEL_START = new RegExp(`^(?:${COLLECTION_LABEL.source})`, 'i');
/** A label anywhere in a line: a cell is a run of the line's words, so a cell holds a label only if its line does. */
const HOLDS_LABEL = new RegExp(COLLECTION_LABEL.source, 'i');

/** One of `words` standing alone in a text (between spaces, slashes or colons). */
function standingWord(words: ReadonlySet<string>): RegExp {
  return new RegExp(`(?<![^\\s/:])(?:${[...words].map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![^\\s/:])`, 'i');
}

/** A label split over two lines (`Date/Time` over `Collected`) opens the upper line's cell and closes the lower's. */
const LABEL_OPENING = standingWord(COLLECTION_LABEL_ENDS.first);
const LABEL_CLOSING = standingWord(COLLECTION_LABEL_ENDS.last);

interface Label {
  line: Line;
  x0: number;
  x1: number;
}

/** The text after a label up to the next date label, with its leading colon or "on" removed. */
function afterLabel(text: string): string {
  const next = [...text.matchAll(ANY_DATE_LABEL)].find((m) => m.index! > 0);
  return (next ? text.slice(0, next.index) : text).replace(/^\s*(?::|-|on\b)?\s*/i, '');
}

/** A date printed under a label: the words below overlapping its span, on the next few lines. */
function dateBelow(label: Label, lines: readonly Line[], index: number): string | null {
  let upper = label.line;
  for (const below of lines.slice(index + 1, index + 1 + LINES_BELOW)) {
    if (upper.y - below.y > 2.6 * Math.max(upper.size, below.size)) return null;
    for (const group of wordGroups(below.words)) {
      const x0 = group[0]!.x0;
      const x1 = group[group.length - 1]!.x1;
      const overlaps = Math.min(x1, label.x1 + 4) - Math.max(x0, label.x0 - 4) > 0;
      if (!overlaps) continue;
      const date = findDates(group.map((w) => w.text).join(' '))[0];
      if (date) return date.date;
    }
    upper = below;
  }
  return null;
}

function labelSpan(words: readonly Word[]): { x0: number; x1: number } {
  return { x0: words[0]!.x0, x1: words[words.length - 1]!.x1 };
}

/**
 * Labels that stand on one line, each with the date after it or under it. A label is read within its
 * cell (`Collected` / `Date Received` side by side are two labels, not `Collected Date`).
 */
function lineLabels(lines: readonly Line[], dates: Set<string>): void {
  lines.forEach((line, index) => {
    if (!HOLDS_LABEL.test(line.text)) return;
    const groups = wordGroups(line.words);
    groups.forEach((group, g) => {
      const cell = group.map((w) => w.text).join(' ');
      const following = groups
        .slice(g + 1)
        .map((next) => next.map((w) => w.text).join(' '))
        .join(' ');
      for (const m of cell.matchAll(COLLECTION_LABEL)) {
        const end = m.index! + m[0].length;
        const found = findDates(afterLabel(`${cell.slice(end)} ${following}`))[0];
        if (found && found.index <= SAME_LINE_REACH) {
          dates.add(found.date);
          continue;
        }
        // Nothing after the label in its cell: the value is printed below it.
        if (cell.slice(end).replace(/[\s:]/g, '') !== '') continue;
        const date = dateBelow({ line, ...labelSpan(group) }, lines, index);
        if (date) dates.add(date);
      }
    });
  });
}

/** Labels split over two lines (`Date/Time` over `Collected`, `Collection` over `Date`). */
function stackedLabels(lines: readonly Line[], dates: Set<string>): void {
  const opening = lines.map((line) => LABEL_OPENING.test(line.text));
  const closing = lines.map((line) => LABEL_CLOSING.test(line.text));
  lines.forEach((upper, index) => {
    const lower = lines[index + 1];
    if (!lower || upper.y - lower.y > 1.8 * Math.max(upper.size, lower.size) || !opening[index] || !closing[index + 1]) return;
    for (const top of wordGroups(upper.words)) {
      const span = labelSpan(top);
      for (const bottom of wordGroups(lower.words)) {
        const b = labelSpan(bottom);
        if (Math.min(span.x1, b.x1) - Math.max(span.x0, b.x0) <= 0) continue;
        const stacked = `${top.map((w) => w.text).join(' ')} ${bottom.map((w) => w.text).join(' ')}`;
        if (!WHOLE_LABEL.test(stacked) || LABEL_START.test(bottom.map((w) => w.text).join(' '))) continue;
        const date = dateBelow({ line: lower, x0: Math.min(span.x0, b.x0), x1: Math.max(span.x1, b.x1) }, lines, index + 1);
        if (date) dates.add(date);
      }
    }
  });
}

/** Every distinct collection date the lines print, as YYYY-MM-DD. */
export function collectionDates(lines: readonly Line[]): string[] {
  const dates = new Set<string>();
  lineLabels(lines, dates);
  stackedLabels(lines, dates);
  return [...dates];
}
