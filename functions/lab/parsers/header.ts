import { memoizeByObject } from '../memo';
import { withoutAccents } from '../ocr/test-name-repair';
import { isPrintedUnit } from '../ucum/to-ucum';
import { type Line, UNREADABLE_OCR_CONFIDENCE, type Word } from './layout';
import { splitRangeAndUnit } from './values';
import { type ColumnRole, flagOf, HEADER_PHRASES, headerWordMisread, isHeaderWord } from './vocabulary';

/**
 * Column-header rows (`Test Name  In Range  Out Of Range  Reference Range  Lab`), in any of the
 * vocabulary's wordings and column orders, on one line or wrapped over two (`Current Result` over
 * `and Flag`). Every word must belong to a header phrase, so a sentence that happens to contain
 * "Result" is never taken for a header.
 */

export interface Column {
  role: ColumnRole;
  /** Left edge of the column's header (its first word). */
  x: number;
  /** Right edge of the column's header. */
  x1: number;
  /** Cells starting at or right of this belong to the column (see `calibrateColumns`). */
  from: number;
}

/**
 * Until the values under a header are seen, a cell belongs to the rightmost column whose header starts
 * at most this far (PDF units) right of it: headers may sit over their values with an offset (centred).
 */
export const HEADER_LEAD = 12;

interface Phrase {
  role: ColumnRole;
  words: Word[];
}

/**
 * A recognised word that is two header words OCR read without the space between them (`Resultand` in
 * `Previous Resultand Date`), as those two words, the box shared by their lengths; any other word as it is.
 */
function unglued(word: Word): Word[] {
  if (word.confidence === undefined || isHeaderWord(word.text)) return [word];
  const perCharacter = (word.x1 - word.x0) / word.text.length;
  for (let k = 1; k < word.text.length; k++) {
    const [first, second] = [word.text.slice(0, k), word.text.slice(k)];
    if (!isHeaderWord(first) || !isHeaderWord(second)) continue;
    const cut = word.x0 + k * perCharacter;
    return [
      { ...word, text: first, x1: cut },
      { ...word, text: second, x0: cut, exact: false },
    ];
  }
  return [word];
}

/** Marks a speck of a scan puts after a word (`Test.` for `Test`): OCR reads it as punctuation. */
const SPECK_MARKS_AFTER = /[.,:;'`]+$/;

/**
 * A recognised word that is a header word but for a speck's mark after it or accent on it, or one
 * letter misread in a word of four or more (`BATE` in `PREVIOUS RESULT AND BATE`), as that header word;
 * any other word as it is. A header is still only a line every word of which is a header word, read as
 * the vocabulary's phrases.
 */
function withoutSpeckMark(word: Word): Word {
  if (word.confidence === undefined || isHeaderWord(word.text)) return word;
  // An accent a speck over a letter put on it (`Reférence`) is no part of the word either.
  const text = withoutAccents(word.text).replace(SPECK_MARKS_AFTER, '');
  if (isHeaderWord(text)) return text === word.text ? word : { ...word, text };
  const misread = headerWordMisread(text);
  return misread === null ? word : { ...word, text: misread };
}

/**
 * The words without one the engine could not read (`Janae` at 0.24 for `Reference` in `Janae Range`)
 * that stands right before a header word, a space apart: the first word of that word's phrase, whose
 * column starts where it does. Any other word, read or not, is left where it is.
 */
function withoutUnreadLead(words: readonly Word[]): Word[] {
  const unread = words.filter((w) => !isHeaderWord(w.text));
  if (unread.length !== 1 || (unread[0]!.confidence ?? 1) >= UNREADABLE_OCR_CONFIDENCE) return [...words];
  const at = words.indexOf(unread[0]!);
  const next = words[at + 1];
  if (next === undefined || next.spaced || next.x0 - unread[0]!.x1 > 0.8 * next.size) return [...words];
  return [...words.slice(0, at), { ...next, x0: unread[0]!.x0, exact: false }, ...words.slice(at + 2)];
}

/** The header words of a line read as phrases, longest first, or null when a word is not one. */
function phrasesOf(read: readonly Word[]): Phrase[] | null {
  // Nearly every line holds a word no header does: that is told before a phrase is sought.
  if (!read.every((w) => w.confidence !== undefined || isHeaderWord(w.text))) return null;
  const words = withoutUnreadLead(read.map(withoutSpeckMark).flatMap(unglued));
  if (!words.every((w) => isHeaderWord(w.text))) return null;
  const texts = words.map((w) => w.text.toLowerCase());
  const phrases: Phrase[] = [];
  let i = 0;
  while (i < words.length) {
    const phrase = HEADER_PHRASES.find((p) => p.words.every((w, k) => texts[i + k] === w));
    if (!phrase) return null;
    phrases.push({ role: phrase.role, words: words.slice(i, i + phrase.words.length) });
    i += phrase.words.length;
  }
  return phrases;
}

function columnsOf(phrases: readonly Phrase[]): Column[] | null {
  const columns: Column[] = [];
  for (const phrase of phrases) {
    const previous = columns[columns.length - 1];
    const x = phrase.words[0]!.x0;
    const x1 = phrase.words[phrase.words.length - 1]!.x1;
    // "In Range" + "Out Of Range" are both the value; "Previous Result" + "Date" one column.
    if (previous && previous.role === phrase.role && (phrase.role === 'previous' || phrase.role === 'value')) {
      if (phrase.role === 'previous') previous.x1 = x1;
      else columns.push({ role: phrase.role, x, x1, from: x - HEADER_LEAD });
      continue;
    }
    if (previous && previous.role === phrase.role) return null;
    columns.push({ role: phrase.role, x, x1, from: x - HEADER_LEAD });
  }
  if (columns.length < 3 || columns[0]!.role !== 'name') return null;
  if (!columns.some((c) => c.role === 'value')) return null;
  return columns;
}

/** Reads a one-line column header into columns, or null when the line is not one. */
export function matchHeader(line: Line): Column[] | null {
  const phrases = phrasesOf(line.words);
  return phrases ? columnsOf(phrases) : null;
}

/** Whether every word of the line can belong to a header (a header's second line: `and Flag`, `Interval`). */
export function isHeaderFragment(line: Line): boolean {
  return line.words.every((w) => isHeaderWord(withoutSpeckMark(w).text));
}

/**
 * Whether a scanned line is part of a column header that no header reading could place: header words
 * only (`Out`, `Of Ref`: one line of a header wrapped over three), or at least two of them and one word
 * the engine could not read (`Test se Range Range Lab`, where `In` over `Range` was lost and `Range`
 * read `se`). It is no title and no row.
 */
export function isGarbledHeader(line: Line): boolean {
  if (!line.words.some((w) => w.confidence !== undefined)) return false;
  const words = line.words.map(withoutSpeckMark);
  const others = words.filter((w) => !isHeaderWord(w.text));
  if (others.length === 0) return true;
  return others.length === 1 && (others[0]!.confidence ?? 1) < UNREADABLE_OCR_CONFIDENCE && words.length >= 3;
}

/** Groups of words a wide gap (about three spaces) or a run of spaces apart: a header's phrases. */
export function wordGroups(words: readonly Word[]): Word[][] {
  const groups: Word[][] = [];
  for (const word of words) {
    const group = groups[groups.length - 1];
    const previous = group?.[group.length - 1];
    if (!group || !previous || word.spaced || word.x0 - previous.x1 > 0.8 * word.size) groups.push([word]);
    else group.push(word);
  }
  return groups;
}

/**
 * A header wrapped over two lines: each phrase of the lower line (`and Flag`, `Interval`) joins the
 * upper-line phrase it sits under (horizontal overlap, else the nearest start), then the stacked words
 * are read as phrases.
 */
export function matchTwoLineHeader(upper: Line, lower: Line): Column[] | null {
  if (!isHeaderFragment(upper) || !isHeaderFragment(lower)) return null;
  if (upper.y - lower.y > 2 * Math.max(upper.size, lower.size)) return null;
  const stacks = wordGroups(upper.words).map((group) => ({ x0: group[0]!.x0, x1: group[group.length - 1]!.x1, words: [...group] }));
  for (const group of wordGroups(lower.words)) {
    const x0 = group[0]!.x0;
    const x1 = group[group.length - 1]!.x1;
    let best = stacks[0]!;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const stack of stacks) {
      const overlap = Math.min(stack.x1, x1) - Math.max(stack.x0, x0);
      const score = overlap > 0 ? overlap : -Math.abs(stack.x0 - x0);
      if (score > bestScore) {
        best = stack;
        bestScore = score;
      }
    }
    if (bestScore <= 0) {
      // A header printed on the lower line only (a short column name under an empty upper cell).
      stacks.push({ x0, x1, words: [...group] });
      continue;
    }
    // The stacked phrase keeps the upper line's left edge: that is where its column is.
    best.words.push(...group.map((w) => ({ ...w, x0: Math.max(w.x0, best.x0) })));
  }
  stacks.sort((a, b) => a.x0 - b.x0);
  const phrases = phrasesOf(stacks.flatMap((s) => s.words));
  return phrases ? columnsOf(phrases) : null;
}

/**
 * Cells whose text alone says which column they are in: a numeric reference interval (`<200 mg/dL`,
 * `> OR = 40`, `3.5-5.0`), a printed unit that is not also a flag (`L` is both).
 */
const READS_AS: Partial<Record<ColumnRole, (text: string) => boolean>> = {
  range: (text) => {
    const range = splitRangeAndUnit(text, true)?.range;
    return range !== undefined && range !== null && (range.min !== null || range.max !== null);
  },
  unit: (text) => isPrintedUnit(text) && flagOf(text) === null,
};

/** Word groups of a line whose start was measured, not estimated: where its cells start. Lines never change, so read once. */
const measuredGroups = memoizeByObject((line: Line): Word[][] => wordGroups(line.words).filter((group) => group[0]!.exact || group[0]!.spaced));

/** Values aligned on a column edge may be nudged by a few points, or estimated a few points early. */
const EDGE_SLACK = 4;
/** Left edges closer than this (PDF units) are one alignment, nudged. */
const ALIGNMENT_SPREAD = 6;

/**
 * Sets where each column starts from the cells printed under it: the leftmost of the cells that start
 * within HEADER_LEAD of the header (or, when none does, right of halfway from the previous column's
 * header, with a cell before it: a header centred over a wide column sits well right of its
 * values; for a range or unit column, anywhere right of the previous header's end when the cells
 * there read as reference ranges or units) and line up with at least
 * one other (a lone start may be text spilling over from the column before). Only the caller's `lines`
 * count: the reader passes the rows under the header, not titles or notes. A column whose values start left of
 * its header then starts there, one whose values start at or right of it at the header, each less
 * EDGE_SLACK.
 */
export function calibrateColumns(columns: readonly Column[], lines: readonly Line[]): Column[] {
  const lineGroups = lines.map(measuredGroups);
  const lineStarts = lineGroups.map((groups) => groups.map((group) => group[0]!.x0));
  /** Where the word groups `keep` takes (each with its place in its line) start, left to right. */
  const startsOf = (keep: (group: Word[], k: number) => boolean) => lineGroups.flatMap((groups) => groups.filter(keep).map((group) => group[0]!.x0)).sort((a, b) => a - b);
  const starts = startsOf(() => true);
  // A flag after its value (`19` `L`) is no start of the value column: flags of two rows set under a
  // centred RESULT header line up with it while their values start left of it.
  const valueStarts = startsOf((group, k) => k === 0 || group.length > 1 || flagOf(group[0]!.text) === null);
  const startsReadingAs = (role: ColumnRole) => {
    const reads = READS_AS[role];
    return reads ? startsOf((group) => reads(group.map((w) => w.text).join(' '))) : [];
  };
  const alignedIn = (from: number, to: number, among = starts) => {
    // Sorted: a start lines up with another exactly when one of its neighbours lies within the spread.
    const near = among.filter((x) => x > from && x <= to);
    return near.filter((x, k) => (k > 0 && x - near[k - 1]! <= ALIGNMENT_SPREAD) || (k + 1 < near.length && near[k + 1]! - x <= ALIGNMENT_SPREAD));
  };
  const calibrated: Column[] = [];
  for (const [i, column] of columns.entries()) {
    const before = calibrated[i - 1];
    if (!before) {
      calibrated.push(column);
      continue;
    }
    const among = column.role === 'value' ? valueStarts : starts;
    let aligned = alignedIn(column.x - HEADER_LEAD - 0.001, column.x + EDGE_SLACK, among);
    // Nothing starts near the header: it may be centred over a wider column; look left, but no further
    // than halfway to the header before (what starts left of that is the column before's), and only at
    // starts with a cell between them and the name on half their lines at least (right-aligned values
    // of the column before start right of its header too, and leave the columns before empty).
    if (aligned.length === 0) {
      const firstAfterName = calibrated[1]?.from;
      // Rows aligned on a column share their start: each start is judged once.
      const judged = new Map<number, boolean>();
      const leavesBefore = (x: number) => {
        if (firstAfterName === undefined) return true;
        const known = judged.get(x);
        if (known !== undefined) return known;
        const at = lineStarts.filter((own) => own.some((s) => Math.abs(s - x) <= ALIGNMENT_SPREAD));
        const leaves = 2 * at.filter((own) => own.some((s) => s >= firstAfterName && s < x - ALIGNMENT_SPREAD)).length >= at.length;
        judged.set(x, leaves);
        return leaves;
      };
      aligned = alignedIn((before.x1 + column.x) / 2 - EDGE_SLACK, column.x + EDGE_SLACK, among).filter(leavesBefore);
      // A centred header over ranges or units that start just right of the previous header: their shape says whose they are.
      if (aligned.length === 0) aligned = alignedIn(before.x1, column.x + EDGE_SLACK, startsReadingAs(column.role)).filter(leavesBefore);
    }
    calibrated.push(aligned.length === 0 ? column : { ...column, from: Math.min(column.x, ...aligned) - EDGE_SLACK });
  }
  return calibrated;
}
