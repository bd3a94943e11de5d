import { INK as POINT_INK } from './decimal-points';
import type { PageImage } from './recognizer';

/**
 * Text the first recognition pass left out. In sparse-text mode Tesseract can miss a short isolated
 * word on low-resolution scans (a lone `7` in a value column), and a row without its value is no
 * result at all. Ink that no recognised word covers, in clusters the size of a line of text, is where
 * such words are: each cluster is handed back for a second, single-line reading.
 *
 * The ink is looked at in cells of CELL × CELL pixels (a cell is ink when it holds at least two dark
 * pixels: one stray pixel of noise is not text), which keeps the search to a fraction of the page's
 * pixels.
 */

/** Grey level under which a pixel counts as ink (as in deskew.ts and despeckle.ts). */
const INK = 128;
/**
 * Grey level under which a pixel counts as faint ink: as light as a point's ink counts (decimal-points.ts).
 * A thin Courier blurred on a 150-dpi scan (URW's Nimbus Mono) draws much of its strokes lighter than
 * 128: there its `9.8` was a cluster of part of the `8`, read `a`; with its faint ink, the whole value,
 * read `9.8`.
 */
const FAINT_INK = POINT_INK;
/**
 * How much wider (share of the text height) than the ink clusters inside it a cluster of faint ink must
 * be to stand for them: about a glyph more. Faint ink that only thickens a cluster changes its box by a
 * pixel or two, and the engine reads a box a few pixels taller differently (a noisy Courier `L` flag
 * read `It`, then `k`): such a cluster stays as its ink found it.
 */
const FAINT_GAIN = 0.5;
/**
 * Least height (share of the text height) of a cluster of faint ink with no darker ink in it: faint ink
 * alone is weaker evidence of text, and a glyph's faint rest beside the word the engine read is short
 * (a photographed Helvetica `%` boxed without the faint side of its rings: 16 pixels of faint ink, read
 * `/0` and joined to it as `%/0`), where a faint value's digits stand as tall as its line (a blurred
 * Nimbus Mono `6.6` at 8.5 points: 24 pixels).
 */
const FAINT_ALONE_HEIGHT = 0.7;
const CELL = 4;
/** Dark pixels a cell needs to count as ink. */
const MIN_CELL_INK = 2;

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface UncoveredInkOptions {
  /** Typical height of a word's box on the page (pixels): clusters are judged against it. */
  textHeight: number;
  /** At most this many clusters, largest ink first (a second pass must stay cheap). */
  maxClusters?: number;
}

/** Clusters far from the text's height are rules, logos, shading or dust, not words. */
const MIN_HEIGHT_SHARE = 0.5;
const MAX_HEIGHT_SHARE = 1.8;
/** Ink of a cluster (cells × CELL², pixels) at least this share of the text height squared: a glyph, not a scratch. */
const MIN_INK_SHARE = 0.15;
/** Horizontal gap (share of the text height) under which ink is one cluster: the letters of a word and its spaces. */
const JOIN_GAP_SHARE = 0.6;
/** Margin (share of the text height) around recognised words whose ink is theirs (serifs, descenders, blur). */
const WORD_MARGIN_SHARE = 0.15;
const DEFAULT_MAX_CLUSTERS = 40;

function inkCells(image: PageImage, ink: number): { cells: Uint8Array; columns: number; rows: number } {
  const columns = Math.ceil(image.width / CELL);
  const rows = Math.ceil(image.height / CELL);
  const counts = new Uint8Array(columns * rows);
  for (let y = 0; y < image.height; y++) {
    const row = y * image.width;
    const cellRow = ((y / CELL) | 0) * columns;
    for (let x = 0; x < image.width; x++) {
      if (image.grey[row + x]! < ink) {
        const i = cellRow + ((x / CELL) | 0);
        if (counts[i]! < 255) counts[i]!++;
      }
    }
  }
  const cells = new Uint8Array(columns * rows);
  for (let i = 0; i < cells.length; i++) cells[i] = counts[i]! >= MIN_CELL_INK ? 1 : 0;
  return { cells, columns, rows };
}

type Cluster = Box & { ink: number };

/** Text-sized clusters (pixels, inclusive) of the pixels darker than `ink` that no word covers. */
function clustersOf(image: PageImage, words: readonly Box[], textHeight: number, ink: number): Cluster[] {
  const { cells, columns, rows } = inkCells(image, ink);
  const margin = WORD_MARGIN_SHARE * textHeight;
  for (const w of words) {
    const cx0 = Math.max(0, Math.floor((w.x0 - margin) / CELL));
    const cx1 = Math.min(columns - 1, Math.floor((w.x1 + margin) / CELL));
    const cy0 = Math.max(0, Math.floor((w.y0 - margin) / CELL));
    const cy1 = Math.min(rows - 1, Math.floor((w.y1 + margin) / CELL));
    for (let y = cy0; y <= cy1; y++) cells.fill(0, y * columns + cx0, y * columns + cx1 + 1);
  }
  // Clusters: 8-connected ink cells, with horizontal gaps up to a space's width bridged.
  const bridge = Math.max(1, Math.round((JOIN_GAP_SHARE * textHeight) / CELL));
  const label = new Int32Array(columns * rows).fill(-1);
  const clusters: Cluster[] = [];
  const stack: number[] = [];
  for (let start = 0; start < cells.length; start++) {
    if (!cells[start] || label[start]! >= 0) continue;
    const id = clusters.length;
    const cluster = { x0: columns, y0: rows, x1: -1, y1: -1, ink: 0 };
    label[start] = id;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % columns;
      const y = (i / columns) | 0;
      cluster.ink++;
      if (x < cluster.x0) cluster.x0 = x;
      if (x > cluster.x1) cluster.x1 = x;
      if (y < cluster.y0) cluster.y0 = y;
      if (y > cluster.y1) cluster.y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= rows) continue;
        const reach = dy === 0 ? bridge : 1;
        for (let dx = -reach; dx <= reach; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= columns) continue;
          const n = ny * columns + nx;
          if (cells[n] && label[n]! < 0) {
            label[n] = id;
            stack.push(n);
          }
        }
      }
    }
    clusters.push(cluster);
  }
  return clusters
    .map((c) => ({ x0: c.x0 * CELL, y0: c.y0 * CELL, x1: Math.min(image.width, (c.x1 + 1) * CELL) - 1, y1: Math.min(image.height, (c.y1 + 1) * CELL) - 1, ink: c.ink * CELL * CELL }))
    .filter((c) => {
      const height = c.y1 - c.y0 + 1;
      return height >= MIN_HEIGHT_SHARE * textHeight && height <= MAX_HEIGHT_SHARE * textHeight && c.ink >= MIN_INK_SHARE * textHeight * textHeight;
    });
}

const within = (inner: Box, outer: Box) => inner.x0 >= outer.x0 && inner.x1 <= outer.x1 && inner.y0 >= outer.y0 && inner.y1 <= outer.y1;

/**
 * Boxes (pixels, inclusive) of ink clusters that no word covers and that are sized like text, largest
 * ink first: the clusters of ink, and where faint ink adds glyphs to them (FAINT_GAIN) or stands alone
 * as tall as text (FAINT_ALONE_HEIGHT), the clusters of faint ink instead. Pure: the same image and words give the same boxes.
 */
export function uncoveredInk(image: PageImage, words: readonly Box[], options: UncoveredInkOptions): Box[] {
  const { textHeight } = options;
  if (!(textHeight > 0) || image.width === 0 || image.height === 0) return [];
  const dark = clustersOf(image, words, textHeight, INK);
  const faint = clustersOf(image, words, textHeight, FAINT_INK).filter((f) => {
    const inside = dark.filter((d) => within(d, f));
    if (inside.length === 0) return f.y1 - f.y0 + 1 >= FAINT_ALONE_HEIGHT * textHeight;
    const width = Math.max(...inside.map((d) => d.x1)) - Math.min(...inside.map((d) => d.x0));
    return f.x1 - f.x0 - width >= FAINT_GAIN * textHeight;
  });
  return [...dark.filter((d) => !faint.some((f) => within(d, f))), ...faint]
    .sort((a, b) => b.ink - a.ink || a.y0 - b.y0 || a.x0 - b.x0)
    .slice(0, options.maxClusters ?? DEFAULT_MAX_CLUSTERS)
    .map(({ x0, y0, x1, y1 }) => ({ x0, y0, x1, y1 }));
}

/** Horizontal gap (share of the text height) under which uncovered ink is part of the word beside it: narrower than a space. */
const BESIDE_GAP_SHARE = 0.5;

/**
 * The index of the word the uncovered ink stands beside on its line, closer than a space, or -1. Sparse
 * reading leaves out glyphs at a word's edge as well as whole words: monospaced `3.6-5.1` comes back as
 * `6-5.1`, its `3.` covered by no word, and read alone two glyphs are too little to read (`3¥`, `TL`).
 */
export function wordBeside(ink: Box, words: readonly Box[], textHeight: number): number {
  const gap = (w: Box) => Math.max(w.x0 - ink.x1, ink.x0 - w.x1);
  const sameLine = (w: Box) => Math.min(w.y1, ink.y1) - Math.max(w.y0, ink.y0) >= 0.5 * Math.min(w.y1 - w.y0, ink.y1 - ink.y0);
  let beside = -1;
  for (const [i, w] of words.entries()) {
    if (!sameLine(w) || gap(w) > BESIDE_GAP_SHARE * textHeight) continue;
    if (beside < 0 || gap(w) < gap(words[beside]!)) beside = i;
  }
  return beside;
}
