import { type Blob, INK, inkOf, RESTORED_CONFIDENCE } from './decimal-points';
import type { PageImage, RecognizedWord } from './recognizer';

/**
 * Dotted zeros the engine read as another digit. Monospaced fonts print a zero with a dot inside to
 * tell it from an O (DejaVu Sans Mono, which poppler and browsers draw for Courier on Linux; IBM Plex
 * Mono, Source Code Pro), and on a fax or a blurred 150-dpi scan Tesseract reads that zero as an 8, a
 * 6 or a 9, however sure: `51.0` as `51.8`, `10.5` as `16.5`, `40` as `48`. A wrong digit is the worst
 * misreading there is, so every 6, 8 and 9 of a number is checked against its glyph: a dotted zero is
 * a ring closing one counter that runs most of its height, with a dot apart from the ring in its
 * middle. A glyph that shows one makes that digit a 0 and flags the word. An 8 has two counters, a 6
 * and a 9 one in half their height; blur can open an 8's waist or close a 6's hook into one tall
 * counter, but leaves no dot standing apart inside it. A plain zero misread (no dot to tell it by), a
 * ring broken by blur, a dot run into the ring, or glyphs that are not one blob each leave the word as
 * read.
 */

/** The digits a zero is read as: the ones with a closed counter. */
const READ_FOR_ZERO = /[689]/;
/** A number, a censored one or a range of two: the words whose digits are values. */
const NUMBER = /^[<>]?\d[\d.]*(?:-\d[\d.]*)?$/;
/** A zero's counter runs 0.7–0.8 of its height; an 8's larger one, a 6's or a 9's, about 0.4. */
const ZERO_COUNTER_HEIGHT = 0.58;
/** A pinhole JPEG noise leaves in a stroke is no counter: a counter covers this share of the glyph's box or more. */
const MIN_COUNTER_AREA = 0.03;
/** A zero's dot stands in the middle of the glyph: its centre within this share of the glyph's size of the centre. */
const DOT_OFF_CENTRE = 0.2;
/** The fewest pixels of ink a dot shows (a 150-dpi scan drawn at 300 dpi: about 2 × 2). */
const MIN_DOT_AREA = 3;

interface Counter {
  /** Rows of the glyph's box (0 = its top row) the counter spans. */
  top: number;
  bottom: number;
  area: number;
  /** Ink of other blobs inside the counter (a zero's dot): its pixels and their centre in the box. */
  dot: { area: number; x: number; y: number };
}

/** The counters of the glyph (`box` in page pixels): the regions of its box that its ink closes off from the outside. */
function counters(image: PageImage, box: Blob): Counter[] {
  // One pixel around the box, so the outside is one region.
  const width = box.x1 - box.x0 + 3;
  const height = box.y1 - box.y0 + 3;
  const isInk = (i: number) => {
    const px = box.x0 - 1 + (i % width);
    const py = box.y0 - 1 + Math.floor(i / width);
    return px >= 0 && py >= 0 && px < image.width && py < image.height && image.grey[py * image.width + px]! < INK;
  };
  const label = new Int32Array(width * height).fill(-1);
  const stack: number[] = [];
  /** Labels the region of `start` (8- or 4-connected), returning its pixels' extent and the ink among them. */
  const flood = (start: number, id: number, joins: (i: number) => boolean, diagonal: boolean): Counter => {
    const region: Counter = { top: height, bottom: -1, area: 0, dot: { area: 0, x: 0, y: 0 } };
    label[start] = id;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      const y = Math.floor(i / width);
      const x = i - y * width;
      region.area++;
      region.top = Math.min(region.top, y - 1);
      region.bottom = Math.max(region.bottom, y - 1);
      if (isInk(i)) {
        region.dot.area++;
        region.dot.x += x - 1;
        region.dot.y += y - 1;
      }
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if ((dx === 0 && dy === 0) || (!diagonal && dx !== 0 && dy !== 0)) continue;
          const nx = x + dx;
          const ny = y + dy;
          const n = ny * width + nx;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height || label[n] !== -1 || !joins(n)) continue;
          label[n] = id;
          stack.push(n);
        }
      }
    }
    region.dot.x /= Math.max(1, region.dot.area);
    region.dot.y /= Math.max(1, region.dot.area);
    return region;
  };
  // The glyph: the largest 8-connected blob of ink in its box.
  let glyph = -1;
  let largest = 0;
  for (let i = 0, id = 0; i < width * height; i++) {
    if (label[i] !== -1 || !isInk(i)) continue;
    const { area } = flood(i, id, isInk, true);
    if (area > largest) [largest, glyph] = [area, id];
    id++;
  }
  // Everything but the glyph, 4-connected (its ink closes a counter diagonally too): the outside, then the counters.
  const blobs = label.slice();
  const notGlyph = (i: number) => blobs[i] !== glyph;
  for (let i = 0; i < label.length; i++) label[i] = blobs[i] === glyph ? glyph : -1;
  if (label[0] === glyph) return [];
  flood(0, -2, notGlyph, false);
  const found: Counter[] = [];
  for (let i = 0; i < width * height; i++) {
    if (label[i] !== -1) continue;
    const region = flood(i, -3, notGlyph, false);
    if (region.area >= MIN_COUNTER_AREA * (width - 2) * (height - 2)) found.push(region);
  }
  return found;
}

/**
 * Whether the glyph is a dotted zero: its ink closes one counter running most of its height, and
 * inside that counter, clear of the ring, stands a dot in the middle of the glyph. An 8 has two
 * counters, and a 6 or a 9 one in half its height; where blur opens an 8's waist or closes a 6's hook,
 * the counter runs its height but holds no dot apart from the ring.
 */
export function isDottedZero(image: PageImage, glyph: Blob): boolean {
  const found = counters(image, glyph);
  const height = glyph.y1 - glyph.y0 + 1;
  const width = glyph.x1 - glyph.x0 + 1;
  if (found.length !== 1) return false;
  const { top, bottom, dot } = found[0]!;
  const middle = (at: number, size: number) => Math.abs(at - (size - 1) / 2) <= DOT_OFF_CENTRE * size;
  return bottom - top + 1 >= ZERO_COUNTER_HEIGHT * height && dot.area >= MIN_DOT_AREA && middle(dot.x, width) && middle(dot.y, height);
}

/** The word with every 6, 8 or 9 whose glyph shows a zero read as 0 and its confidence capped (flagged), or as read. */
export function withMisreadZeros(word: RecognizedWord, image: PageImage): RecognizedWord {
  if (!NUMBER.test(word.text) || !READ_FOR_ZERO.test(word.text)) return word;
  const ink = inkOf(word, image);
  if (!ink) return word;
  // The glyphs are the digits, and the comparison sign where it stands as tall as them.
  const digits = word.text.replace(/\D/g, '').length;
  const isGlyph = (c: string) => /\d/.test(c) || (/[<>]/.test(c) && ink.glyphs.length > digits);
  const characters = [...word.text].filter(isGlyph);
  if (ink.glyphs.length !== characters.length) return word;
  const onPage = (b: Blob): Blob => ({ ...b, x0: b.x0 + ink.left, x1: b.x1 + ink.left, y0: b.y0 + ink.top, y1: b.y1 + ink.top });
  const isZero = characters.map((c, k) => READ_FOR_ZERO.test(c) && isDottedZero(image, onPage(ink.glyphs[k]!)));
  if (!isZero.includes(true)) return word;
  let glyph = 0;
  const text = [...word.text].map((c) => (isGlyph(c) && isZero[glyph++] ? '0' : c)).join('');
  return { ...word, text, confidence: Math.min(word.confidence, RESTORED_CONFIDENCE) };
}
