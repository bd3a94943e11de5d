import type { PageImage, RecognizedWord } from './recognizer';

/**
 * Decimal points the engine dropped. On low-resolution or noisy scans Tesseract reads `5.3` as `53`
 * with full confidence: the point is a few pixels, and the line model scales it away. A wrong value is
 * worse than a missed one, so every whole number OCR returns is checked against the page, also one the
 * engine read glued to the flag printed after it (`24L` for `2.4 L`): a dot on the digits' baseline
 * between two of its digits is a decimal point. Where each digit is one blob of ink,
 * the point goes where it is printed; otherwise the word's confidence drops to zero, so the value is
 * flagged (`low_ocr_confidence`) rather than trusted.
 *
 * Noise over a point also makes the engine read it as another mark between two digits (`3:3`, `5;5`,
 * `4,2`), which no value has (a ratio or titre is written `1:40`, a thousands comma has three digits
 * after it). Such a word is a decimal number only when the image shows exactly that: one point on the
 * baseline between the digits and no other mark above or below it (a colon's second dot, a comma's
 * tail); otherwise it is left as read, and the reader does not take it for a value.
 */

/** A point is small, and blur and JPEG leave it lighter than the strokes: a lighter grey counts as its ink. */
export const INK = 160;
/** Confidence of a word whose point was put back from the image: sure enough to use, flagged to check. */
export const RESTORED_CONFIDENCE = 0.5;

export interface Blob {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  area: number;
}

/** The 8-connected blobs of ink inside a box of the page. */
function blobsIn(image: PageImage, x0: number, y0: number, x1: number, y1: number): Blob[] {
  const width = x1 - x0 + 1;
  const height = y1 - y0 + 1;
  const seen = new Uint8Array(width * height);
  const ink = (x: number, y: number) => image.grey[(y0 + y) * image.width + x0 + x]! < INK;
  const found: Blob[] = [];
  const stack: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (seen[y * width + x] || !ink(x, y)) continue;
      const blob: Blob = { x0: x, y0: y, x1: x, y1: y, area: 0 };
      seen[y * width + x] = 1;
      stack.push(x, y);
      while (stack.length > 0) {
        const py = stack.pop()!;
        const px = stack.pop()!;
        blob.area++;
        blob.x0 = Math.min(blob.x0, px);
        blob.x1 = Math.max(blob.x1, px);
        blob.y0 = Math.min(blob.y0, py);
        blob.y1 = Math.max(blob.y1, py);
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const nx = px + dx;
            const ny = py + dy;
            if (nx < 0 || ny < 0 || nx >= width || ny >= height || seen[ny * width + nx]) continue;
            if (!ink(nx, ny)) continue;
            seen[ny * width + nx] = 1;
            stack.push(nx, ny);
          }
        }
      }
      found.push(blob);
    }
  }
  return found;
}

/**
 * Two digit runs around one mark that is no decimal point, short enough after it to be no thousands
 * separator. `%` among them: a blurred point read as one (`3%9`), which no value prints between digits;
 * and `s` and `$`, as the engine reads the point of a thin Courier (URW's Nimbus Mono: `9s4`, `7$2`).
 */
const MISREAD_MARK = /[:;,%s$]/;
const MISREAD_POINT = new RegExp(`^\\d+${MISREAD_MARK.source}\\d{1,2}$`);

/** Whether the word is a number read with a mark no value prints between its digits (`3:0`, `5;5`, `4,2`). */
export function hasMisreadPoint(text: string): boolean {
  return MISREAD_POINT.test(text);
}

/**
 * A whole number or a range of two, alone or glued to a flag of capitals (`H`, `LL`: the flag letters
 * of data/lab/report-vocabulary.json); some number of it has two digits or more.
 */
const WHOLE_NUMBERS = /^(?=.*\d\d)\d+(?:-\d+)?[A-Z]{0,2}$/;

/**
 * The word with a point after each of the given counts of glyphs (every character but the hyphen is
 * one); null when a point would not stand between two digits of one number, or two in one number.
 */
function withPointsAfter(text: string, glyphCounts: readonly number[]): string | null {
  const glyphEnds: number[] = [];
  for (let i = 0; i < text.length; i++) if (text[i] !== '-') glyphEnds.push(i + 1);
  const cuts = [...new Set(glyphCounts)].sort((a, b) => b - a).map((count) => glyphEnds[count - 1] ?? 0);
  if (cuts.length !== glyphCounts.length) return null;
  let result = text;
  for (const cut of cuts) {
    if (!/\d/.test(text[cut - 1] ?? '') || !/\d/.test(text[cut] ?? '')) return null;
    result = `${result.slice(0, cut)}.${result.slice(cut)}`;
  }
  return result.split('-').some((number) => (number.match(/\./g) ?? []).length > 1) ? null : result;
}

/**
 * Digits are set on a fixed pitch, and a point takes an advance of its own: the digits around a printed
 * point stand further apart than the word's other neighbouring digits (a point widens the pitch by half
 * in Times, Helvetica and Courier alike). In a word with no two plain neighbouring digits the pitch is
 * held to the glyph height instead: 0.75–0.8 of it without a point, 1.1–1.6 with one, and about 0.9
 * where blur broke a stroke off a digit and moved its blob's centre; a point-sized mark in the narrow
 * gap of a Courier pair cannot stand apart from both digits. A broken stroke of a blurred digit, or a
 * speck in the usual gap, widens nothing.
 */
const POINT_PITCH_RATIO = 1.25;
export const POINT_PITCH_HEIGHTS = 0.8;

function widensSpacing(dot: Blob, glyphs: readonly Blob[], blobs: readonly Blob[], tallest: number, characters: string): boolean {
  const centre = (b: Blob) => (b.x0 + b.x1) / 2;
  const pitches = glyphs.slice(1).map((next, i) => ({ before: glyphs[i]!, next, pitch: centre(next) - centre(glyphs[i]!), digits: /^\d\d$/.test(characters.slice(i, i + 2)) }));
  const around = pitches.find((p) => p.before.x1 < dot.x0 && p.next.x0 > dot.x1);
  if (!around) return false;
  // Two digits with nothing between them (no point, no hyphen) give the word's pitch; a letter's width is its own.
  const plain = pitches
    .filter((p) => p.digits && !blobs.some((b) => !glyphs.includes(b) && b.x0 > p.before.x1 && b.x1 < p.next.x0))
    .map((p) => p.pitch)
    .sort((a, b) => a - b);
  const reference = plain[plain.length >> 1];
  return reference === undefined ? around.pitch >= POINT_PITCH_HEIGHTS * tallest : around.pitch >= POINT_PITCH_RATIO * reference;
}

/** The ink of a word's box: its blobs, the tallest blob's height, the glyphs (blobs over 0.6 of it) left to right, and their baseline. */
export interface WordInk {
  /** The page column of the box's left edge, where the blobs' x = 0. */
  left: number;
  /** The page row of the box's top edge, where the blobs' y = 0. */
  top: number;
  blobs: Blob[];
  tallest: number;
  glyphs: Blob[];
  baseline: number;
}

/** The ink of the word's box, a pixel wider on every side and `below` pixels deeper; none in a box too small or empty. */
export function inkOf(word: RecognizedWord, image: PageImage, below = 0): WordInk | undefined {
  const x0 = Math.max(0, Math.floor(word.x0) - 1);
  const y0 = Math.max(0, Math.floor(word.y0) - 1);
  const x1 = Math.min(image.width - 1, Math.ceil(word.x1) + 1);
  const y1 = Math.min(image.height - 1, Math.ceil(word.y1) + 1 + below);
  if (x1 - x0 < 4 || y1 - y0 < 6) return undefined;
  const found = blobsIn(image, x0, y0, x1, y1);
  const tallest = Math.max(...found.map((b) => b.y1 - b.y0 + 1));
  const { blobs, glyphs } = withBrokenStrokesJoined(found, tallest);
  if (glyphs.length === 0) return undefined;
  return { blobs, tallest, glyphs, baseline: Math.max(...glyphs.map((b) => b.y1)), left: x0, top: y0 };
}

/** How far (pixels) below a glyph's lowest ink a stroke broken off it may start. */
const BREAK_GAP = 2;

/**
 * The glyphs (blobs over 0.6 of the tallest) left to right, each joined with the strokes broken off its
 * foot, and the other blobs. A serif type's hairlines are lighter than `INK` on a soft scan, so Nimbus
 * Roman's `3.3` at 8 points came apart: each `3`'s lower bowl a blob of its own under the digit, the
 * glyphs' lowest ink three pixels above the point's, and the point was taken for no point (`33`). A
 * broken stroke lies under its glyph (most of its width within the glyph's) and starts where the glyph's
 * ink stops; a point stands between glyphs, under none.
 */
function withBrokenStrokesJoined(found: readonly Blob[], tallest: number): { blobs: Blob[]; glyphs: Blob[] } {
  const glyphs = found.filter((b) => b.y1 - b.y0 + 1 >= 0.6 * tallest).map((b) => ({ ...b }));
  const overlap = (a: Blob, b: Blob) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) + 1;
  const blobs: Blob[] = [...glyphs];
  for (const b of found) {
    if (b.y1 - b.y0 + 1 >= 0.6 * tallest) continue;
    const glyph = glyphs.find((g) => 2 * overlap(b, g) >= b.x1 - b.x0 + 1 && b.y0 >= g.y1 - 1 && b.y0 <= g.y1 + BREAK_GAP);
    if (!glyph) {
      blobs.push(b);
      continue;
    }
    Object.assign(glyph, { x0: Math.min(glyph.x0, b.x0), x1: Math.max(glyph.x1, b.x1), y1: Math.max(glyph.y1, b.y1), area: glyph.area + b.area });
  }
  return { blobs, glyphs: glyphs.sort((a, b) => a.x0 - b.x0) };
}

/**
 * Whether a blob is shaped and placed as a point: round, a tenth to a third of the glyphs' height (a
 * speck of dust is smaller; `smallest` pixels across at least), resting on their baseline (a hyphen or
 * a speck above or below it is no point).
 */
export function isPointShaped(b: Blob, tallest: number, baseline: number, smallest = 0.1 * tallest): boolean {
  const w = b.x1 - b.x0 + 1;
  const h = b.y1 - b.y0 + 1;
  return Math.min(w, h) >= smallest && Math.max(w, h) <= 0.35 * tallest && Math.max(w, h) <= 2 * Math.min(w, h) && Math.abs(b.y1 - baseline) <= 0.1 * tallest;
}

/**
 * Whether a blob of a word's ink is a printed point: point-shaped, between two glyphs, apart from both.
 * Between glyphs a point is measured in whole pixels, a tenth of their height to the nearest one: 7-pt
 * Helvetica's `4.8` on a 150-dpi scan is digits 22 pixels tall at 300 dpi and a point 2 pixels across.
 * (Where it stands is evidence a speck lacks; a period after a word has no such evidence, and keeps the tenth.)
 */
export function isPrintedPoint(b: Blob, { tallest, glyphs, baseline }: WordInk): boolean {
  const centre = (b.x0 + b.x1) / 2;
  return isPointShaped(b, tallest, baseline, Math.round(0.1 * tallest)) && glyphs.some((d) => d.x1 < centre && d.x1 < b.x0) && glyphs.some((d) => d.x0 > centre && d.x0 > b.x1);
}

/** The word as read, or with its decimal point put back, or doubted (confidence 0). */
export function withDecimalPoint(word: RecognizedWord, image: PageImage): RecognizedWord {
  const misread = hasMisreadPoint(word.text);
  if (!misread && !WHOLE_NUMBERS.test(word.text)) return word;
  const digitText = word.text.replace(MISREAD_MARK, '');
  // Below a misread mark, room for a comma's tail: the box OCR gives may end at the baseline.
  const ink = inkOf(word, image, misread ? Math.ceil((word.y1 - word.y0) / 3) : 0);
  if (!ink) return word;
  const { blobs, tallest, glyphs } = ink;
  const candidates = blobs.filter((b) => isPrintedPoint(b, ink));
  // The characters each glyph shows (when the engine's reading has one per glyph), for the digits' pitch.
  const characters = misread ? digitText : word.text.replace('-', '');
  const dots = candidates.filter((dot) => glyphs.length === characters.length && widensSpacing(dot, glyphs, blobs, tallest, characters));
  if (misread) {
    // Only a lone point, the glyphs each one blob and no other mark in the gap, makes the word a decimal.
    const dot = dots.length === 1 ? dots[0]! : undefined;
    const marks = blobs.filter((b) => !glyphs.includes(b) && b.x1 >= (dot?.x0 ?? 0) && b.x0 <= (dot?.x1 ?? 0));
    if (!dot || marks.length !== 1) return word;
    const before = glyphs.filter((d) => d.x1 <= dot.x0).length;
    if (before !== word.text.search(MISREAD_MARK)) return word;
    return { ...word, text: `${digitText.slice(0, before)}.${digitText.slice(before)}`, confidence: Math.min(word.confidence, RESTORED_CONFIDENCE) };
  }
  // A point where the glyphs are not one blob each (touching, broken) cannot be placed: doubt, not a guess.
  if (dots.length === 0) return candidates.length > 0 && glyphs.length !== characters.length ? { ...word, confidence: 0 } : word;
  const text = withPointsAfter(word.text, dots.map((dot) => glyphs.filter((d) => d.x1 <= dot.x0).length));
  return text === null ? { ...word, confidence: 0 } : { ...word, text, confidence: Math.min(word.confidence, RESTORED_CONFIDENCE) };
}
