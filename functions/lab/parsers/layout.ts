import { memoizeByObject } from '../memo';
import type { PageText, TextItem } from '../pdf-text';

/**
 * Rebuilds words and lines from positioned text items, whatever their chunking: one item per cell,
 * per word, per glyph, or per whole line with the columns joined by runs of spaces. Items that touch
 * on one baseline are one word (glyph-by-glyph producers); a multi-word item is split into words with
 * estimated positions, and a run of two or more spaces inside it is kept as a column break.
 * Tolerances scale with the font size (docs/research/generic-table-reading.md §1).
 */

export interface Word {
  text: string;
  x0: number;
  x1: number;
  /** Baseline, PDF units (origin bottom-left). */
  y: number;
  size: number;
  /** False when `x0` was estimated (a word after the first of a longer text item). */
  exact: boolean;
  /** A run of two or more spaces precedes this word inside its text item: a column break. */
  spaced: boolean;
  /** OCR word confidence (0–1) when the page was recognised from an image. */
  confidence?: number;
}

export interface Line {
  pageNumber: number;
  /** Baseline of the line's main text. */
  y: number;
  x0: number;
  x1: number;
  size: number;
  words: Word[];
  text: string;
}

/** OCR word confidence under which a word is doubted: a value so read is flagged for checking rather than trusted. */
export const LOW_OCR_CONFIDENCE = 0.8;

/** OCR word confidence under which the engine itself could not read a word (a row's cell, a header word). */
export const UNREADABLE_OCR_CONFIDENCE = 0.5;

/** Whether the line was recognised by OCR (its words carry the engine's confidence), not read from a text layer. */
export function isRecognised(line: Line): boolean {
  return line.words.some((word) => word.confidence !== undefined);
}

/** Em widths of Helvetica-like glyph classes; only used to place words inside a multi-word run. */
const GLYPH_CLASSES: ReadonlyArray<[chars: string, weight: number]> = [
  ['ABCDEFGHJKLMNOPQRSTUVWXYZ&', 0.68],
  ['mwMW%@', 0.86],
  ['r()-/[]', 0.333],
  ["iljIft.,:;'!|", 0.26],
  ['0123456789', 0.556],
  [' ', 0.278],
];
const OTHER_GLYPH = 0.53;
/** Weight by character code (ASCII; any other character weighs OTHER_GLYPH), later classes winning. */
const GLYPH_WEIGHTS = (() => {
  const weights = new Float64Array(128).fill(OTHER_GLYPH);
  for (const [chars, weight] of GLYPH_CLASSES) for (const ch of chars) weights[ch.charCodeAt(0)] = weight;
  return weights;
})();

function glyphWeight(code: number): number {
  return code < 128 ? GLYPH_WEIGHTS[code]! : OTHER_GLYPH;
}

/** Courier and other fixed-pitch fonts advance 0.6 em per character; a text view printed to PDF uses them. */
const MONOSPACE_ADVANCE = 0.6;

function isMonospaced(item: TextItem, characters: number): boolean {
  if (characters < 4 || item.height <= 0) return false;
  return Math.abs(item.width / (characters * item.height * MONOSPACE_ADVANCE) - 1) < 0.03;
}

/** Whether a UTF-16 code is white space: exactly the characters of a regular expression's `\s`. */
function isBlank(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** One array for the glyph offsets of every item split (read before the next item is), grown as items need. */
let offsetScratch = new Float64Array(256);

function offsetsFor(characters: number): Float64Array {
  if (offsetScratch.length <= characters) offsetScratch = new Float64Array(2 * (characters + 1));
  offsetScratch[0] = 0;
  return offsetScratch;
}

function splitItem(item: TextItem): Word[] {
  const size = item.height > 0 ? item.height : 8;
  const text = item.str;
  // Start and end of each run of non-blank characters, in pairs: one scan, no match objects (a page has thousands of items).
  const spans: number[] = [];
  for (let i = 0; i < text.length; ) {
    while (i < text.length && isBlank(text.charCodeAt(i))) i++;
    if (i === text.length) break;
    const start = i;
    while (i < text.length && !isBlank(text.charCodeAt(i))) i++;
    spans.push(start, i);
  }
  if (spans.length === 2 && spans[0] === 0 && spans[1] === text.length) return [wordOf(item, size, text, item.x, item.x + item.width, true, false)];
  // Offset of each UTF-16 position in glyph weights; a surrogate pair is one glyph, weighed at its first unit.
  const offsets = offsetsFor(text.length);
  let characters = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const trailing = code >= 0xdc00 && code <= 0xdfff && i > 0;
    if (!trailing) characters++;
    offsets[i + 1] = offsets[i]! + (trailing ? 0 : glyphWeight(code));
  }
  const monospaced = isMonospaced(item, characters);
  if (monospaced) {
    let glyphs = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (!(code >= 0xdc00 && code <= 0xdfff && i > 0)) glyphs++;
      offsets[i + 1] = glyphs;
    }
  }
  const total = offsets[text.length]!;
  const scale = total > 0 ? item.width / total : 0;
  const words: Word[] = [];
  for (let k = 0; k < spans.length; k += 2) {
    const start = spans[k]!;
    const end = spans[k + 1]!;
    // Two or more blanks, or a tab, before a word inside the run: a column break.
    const gap = k === 0 ? 0 : start - spans[k - 1]!;
    const spaced = gap >= 2 || (gap === 1 && text.charCodeAt(start - 1) === 9);
    // The first word of a run starts where the run does; later ones are placed by estimate.
    words.push(wordOf(item, size, text.slice(start, end), item.x + offsets[start]! * scale, item.x + offsets[end]! * scale, start === 0, spaced));
  }
  return words;
}

/** A word of `item` (a module function, not a closure: splitItem runs once per text item). */
function wordOf(item: TextItem, size: number, text: string, x0: number, x1: number, exact: boolean, spaced: boolean): Word {
  return item.confidence === undefined ? { text, x0, x1, y: item.y, size, exact, spaced } : { text, x0, x1, y: item.y, size, exact, spaced, confidence: item.confidence };
}

/** Gap, in font sizes, below which two items touch: less than any font's space (Times: 0.25 em). */
const TOUCHING = 0.1;

/**
 * Joins glyphs drawn one by one on the same baseline into words (`P`,`H`,`O`,… each its own item). Only
 * single characters join, and only at exact starts: two words of whole runs that happen to touch (an
 * estimated end running into the next cell) stay apart; `cellText` joins word pieces within a cell.
 */
function joinGlyphs(words: Word[]): Word[] {
  // The words are splitItem's own, made for this page: sorted and joined in place.
  const sorted = words.sort((a, b) => b.y - a.y || a.x0 - b.x0);
  const out: Word[] = [];
  const glyphRuns = new Set<Word>();
  for (const word of sorted) {
    const previous = out[out.length - 1];
    const glyph = word.text.length === 1 && word.exact;
    const touches =
      previous !== undefined &&
      glyph &&
      (previous.text.length === 1 || glyphRuns.has(previous)) &&
      Math.abs(previous.y - word.y) < 0.15 * word.size &&
      Math.abs(previous.size - word.size) < 0.5 &&
      word.x0 > previous.x0 &&
      word.x0 - previous.x1 < TOUCHING * word.size;
    if (touches) {
      previous.text += word.text;
      previous.x1 = Math.max(previous.x1, word.x1);
      if (word.confidence !== undefined) previous.confidence = Math.min(previous.confidence ?? 1, word.confidence);
      glyphRuns.add(previous);
    } else out.push(word);
  }
  return out;
}

function makeLine(pageNumber: number, words: Word[]): Line {
  words.sort((a, b) => a.x0 - b.x0);
  let main = words[0]!;
  let x1 = main.x1;
  for (const word of words) {
    if (word.size > main.size) main = word;
    x1 = Math.max(x1, word.x1);
  }
  return { pageNumber, y: main.y, x0: words[0]!.x0, x1, size: main.size, words, text: words.map((w) => w.text).join(' ') };
}

/** Words of a page, top to bottom and left to right: items split at spaces, glyphs drawn one by one joined. */
function pageWords(page: PageText): Word[] {
  const words: Word[] = [];
  for (const item of page.items) words.push(...splitItem(item));
  return joinGlyphs(words);
}

/**
 * Lines of a page, top to bottom; words whose baselines lie within ~half a font size share a line. Built
 * once per page: the document check and the table reader both read them, and nothing changes a line.
 */
export const pageLines: (page: PageText) => readonly Line[] = memoizeByObject(buildLines);

/** How far (in font sizes) a word's baseline may lie from its line's and share it. */
const LINE_TOLERANCE = 0.45;
/**
 * The same under a recognised raised superscript that opens a line (a word at most `SUPERSCRIPT_SIZE`
 * of the next word's size): OCR sizes a word by its glyphs, a font size's 0.7 or so, and places a
 * Labcorp lab number 0.46 of the line's size above it (`Phosphatase 01` in 7-point type, the `01`
 * 2.9 points up), just beyond 0.45: alone on a line between a wrapped name's two lines, it parted them.
 */
const RAISED_LINE_TOLERANCE = 0.6;
const SUPERSCRIPT_SIZE = 0.85;

/** How far below the line's anchor a word's baseline may lie and still join the line. */
function lineTolerance(anchorSize: number, word: Word): number {
  const raisedAnchor = word.confidence !== undefined && anchorSize <= SUPERSCRIPT_SIZE * word.size;
  return raisedAnchor ? RAISED_LINE_TOLERANCE * word.size : LINE_TOLERANCE * Math.max(anchorSize, word.size);
}

function buildLines(page: PageText): Line[] {
  const words = pageWords(page);
  const lines: Line[] = [];
  let current: Word[] = [];
  let anchorY = Number.NaN;
  let anchorSize = 0;
  for (const word of words) {
    const tolerance = lineTolerance(anchorSize, word);
    if (current.length > 0 && anchorY - word.y <= tolerance) {
      current.push(word);
      // A raised superscript may open the line; the baseline of the larger text anchors it.
      if (word.size > anchorSize) {
        anchorY = word.y;
        anchorSize = word.size;
      }
      continue;
    }
    if (current.length > 0) lines.push(makeLine(page.pageNumber, current));
    current = [word];
    anchorY = word.y;
    anchorSize = word.size;
  }
  if (current.length > 0) lines.push(makeLine(page.pageNumber, current));
  return lines;
}

/** Bounding box of a group of lines, [x0, y0, x1, y1] in PDF units. */
export function boundingBox(lines: readonly Line[]): [number, number, number, number] {
  const x0 = Math.min(...lines.map((l) => l.x0));
  const x1 = Math.max(...lines.map((l) => l.x1));
  const y0 = Math.min(...lines.map((l) => l.y - 0.25 * l.size));
  const y1 = Math.max(...lines.map((l) => l.y + 0.8 * l.size));
  return [round(x0), round(y0), round(x1), round(y1)];
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
