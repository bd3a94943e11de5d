import type { PageText, TextItem } from '../pdf-text';

/**
 * Rebuilds words and lines from positioned text items, whatever their chunking: one item per cell,
 * per word or per whole line. Words inside a multi-word item get estimated positions so that columns
 * can be assigned from coordinates in every case.
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

/**
 * Relative advance widths (em) of Helvetica-like glyph classes. Only used to place words inside a text
 * run that holds several of them; an error of a few points is harmless because columns are tens of
 * points apart.
 */
function glyphWeight(ch: string): number {
  if (ch === ' ') return 0.278;
  if (/[0-9]/.test(ch)) return 0.556;
  if (/[iljIft.,:;'!|]/.test(ch)) return 0.26;
  if (/[r()\-/[\]]/.test(ch)) return 0.333;
  if (/[mwMW%@]/.test(ch)) return 0.86;
  if (/[A-Z&]/.test(ch)) return 0.68;
  return 0.53;
}

function splitItem(item: TextItem): Word[] {
  const size = item.height > 0 ? item.height : 8;
  const text = item.str;
  const pieces = [...text.matchAll(/\S+/g)];
  if (pieces.length === 1 && pieces[0]!.index === 0 && pieces[0]![0].length === text.length) {
    return [{ text, x0: item.x, x1: item.x + item.width, y: item.y, size, exact: true }];
  }
  const offsets: number[] = [0];
  for (const ch of text) offsets.push(offsets[offsets.length - 1]! + glyphWeight(ch));
  const total = offsets[offsets.length - 1]!;
  const scale = total > 0 ? item.width / total : 0;
  // Array.from(text) indexes code points, matchAll indexes UTF-16 units; map one onto the other.
  const codePointAt: number[] = [];
  let cp = 0;
  for (let i = 0; i < text.length; i++) {
    codePointAt[i] = cp;
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdbff) cp++;
  }
  codePointAt[text.length] = cp;
  return pieces.map((m) => {
    const start = codePointAt[m.index!]!;
    const end = codePointAt[m.index! + m[0].length]!;
    return {
      text: m[0],
      x0: item.x + offsets[start]! * scale,
      x1: item.x + offsets[end]! * scale,
      y: item.y,
      size,
      // The first word of a run starts where the run does; later ones are placed by estimate.
      exact: start === 0,
    };
  });
}

function makeLine(pageNumber: number, words: Word[]): Line {
  words.sort((a, b) => a.x0 - b.x0);
  const main = words.reduce((best, w) => (w.size > best.size ? w : best), words[0]!);
  return {
    pageNumber,
    y: main.y,
    x0: words[0]!.x0,
    x1: Math.max(...words.map((w) => w.x1)),
    size: main.size,
    words,
    text: words.map((w) => w.text).join(' '),
  };
}

/** Lines of a page, top to bottom; words whose baselines lie within ~half a font size share a line. */
export function pageLines(page: PageText): Line[] {
  const words = page.items.flatMap(splitItem).sort((a, b) => b.y - a.y || a.x0 - b.x0);
  const lines: Line[] = [];
  let current: Word[] = [];
  let anchorY = Number.NaN;
  let anchorSize = 0;
  for (const word of words) {
    const tolerance = 0.45 * Math.max(anchorSize, word.size);
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
