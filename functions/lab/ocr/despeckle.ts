import type { Blob } from './decimal-points';
import type { PageImage } from './recognizer';

/**
 * Removes isolated specks (dust, toner, fax noise) from a rendered page before recognition. Tesseract
 * reads a speck in a column gap as a word (`i`, `;`, `3`), and one such word between a row's cells
 * keeps the reader from accounting for every cell. A speck is a blob of ink no larger than a decimal
 * point with no other ink near it. In a proportional font a decimal point, the dot of an i or a period
 * stands a stroke width from its neighbours, so the rule cannot take it away. A monospaced font (Courier,
 * the type of many lab systems) centres the point in a whole character cell, as far from its digits as
 * a speck may be from text: a lone dot resting on the baseline of a glyph close on each side is that
 * point (`5.4`), and stays. A page without specks comes out unchanged.
 */

/** Grey level under which a pixel counts as ink (as in deskew.ts). */
const INK = 128;
/** The largest speck: about a 6-pt period at 300 dpi (areas scale with the square of the resolution). */
const MAX_SPECK_AREA_AT_300_DPI = 20;
const MAX_SPECK_SIDE_INCHES = 0.02;
/** How far (inches) a blob must stand from other ink to be a speck: over twice a period's gap to its digit. */
const CLEARANCE_INCHES = 0.03;
/**
 * A printed point's neighbours: glyphs at least this many times its height (a digit is four to six
 * times a period's), at most this tall (inches, a 20-pt digit: no table rule or border), each at most
 * POINT_GAP of its own height away, their bottoms within BASELINE_TOLERANCE of their height from the
 * point's. A Courier point stands about half a digit's height from each digit.
 */
const POINT_NEIGHBOUR_HEIGHT_RATIO = 2.5;
const MAX_GLYPH_HEIGHT_INCHES = 0.2;
const POINT_GAP = 0.7;
const BASELINE_TOLERANCE = 0.15;

/**
 * The page's ink as horizontal runs, row by row (x0..x1 inclusive). A page is mostly paper and its ink
 * a few hundred thousand runs, so blobs are found among runs, not among the page's millions of pixels.
 */
class InkRuns {
  count = 0;
  y = new Int32Array(4096);
  x0 = new Int32Array(4096);
  x1 = new Int32Array(4096);
  /** The runs of row y are rowStart[y] .. rowStart[y + 1] − 1. */
  readonly rowStart: Int32Array;

  constructor(image: PageImage) {
    const { width, height, grey } = image;
    this.rowStart = new Int32Array(height + 1);
    for (let y = 0; y < height; y++) {
      this.rowStart[y] = this.count;
      const row = y * width;
      let x = 0;
      while (x < width) {
        if (grey[row + x]! >= INK) {
          x++;
          continue;
        }
        const first = x;
        while (x < width && grey[row + x]! < INK) x++;
        this.add(y, first, x - 1);
      }
    }
    this.rowStart[height] = this.count;
  }

  private add(y: number, x0: number, x1: number): void {
    if (this.count === this.y.length) {
      const grown = (values: Int32Array) => {
        const copy = new Int32Array(values.length * 2);
        copy.set(values);
        return copy;
      };
      [this.y, this.x0, this.x1] = [grown(this.y), grown(this.x0), grown(this.x1)];
    }
    this.y[this.count] = y;
    this.x0[this.count] = x0;
    this.x1[this.count] = x1;
    this.count++;
  }
}

/**
 * The ink's 8-connected blobs: a run joins each run of the row above that overlaps it or touches it
 * at a corner (union–find over runs).
 */
function blobs(runs: InkRuns): Blob[] {
  const parent = new Int32Array(runs.count);
  for (let i = 0; i < runs.count; i++) parent[i] = i;
  const find = (run: number): number => {
    let root = run;
    while (parent[root]! !== root) root = parent[root]!;
    while (parent[run]! !== root) {
      const next = parent[run]!;
      parent[run] = root;
      run = next;
    }
    return root;
  };
  for (let y = 1; y + 1 < runs.rowStart.length; y++) {
    let above = runs.rowStart[y - 1]!;
    const aboveEnd = runs.rowStart[y]!;
    for (let run = runs.rowStart[y]!; run < runs.rowStart[y + 1]!; run++) {
      while (above < aboveEnd && runs.x1[above]! < runs.x0[run]! - 1) above++;
      for (let other = above; other < aboveEnd && runs.x0[other]! <= runs.x1[run]! + 1; other++) {
        const [a, b] = [find(other), find(run)];
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  }
  const byRoot = new Map<number, Blob>();
  for (let run = 0; run < runs.count; run++) {
    const [y, x0, x1] = [runs.y[run]!, runs.x0[run]!, runs.x1[run]!];
    const blob = byRoot.get(find(run));
    if (!blob) {
      byRoot.set(find(run), { area: x1 - x0 + 1, x0, y0: y, x1, y1: y });
      continue;
    }
    blob.area += x1 - x0 + 1;
    blob.x0 = Math.min(blob.x0, x0);
    blob.x1 = Math.max(blob.x1, x1);
    blob.y1 = y;
  }
  return [...byRoot.values()];
}

/** Ink pixels in the box (inclusive bounds). */
function inkIn(image: PageImage, x0: number, y0: number, x1: number, y1: number): number {
  let ink = 0;
  for (let y = y0; y <= y1; y++) {
    const row = y * image.width;
    for (let x = x0; x <= x1; x++) if (image.grey[row + x]! < INK) ink++;
  }
  return ink;
}

/** Blobs that may be glyphs, by their bottom row, for finding a point's neighbours on its baseline. */
class GlyphsByBottom {
  private readonly glyphs: Blob[];
  /** How far a glyph's bottom may be from a point's, at the tallest glyph. */
  private readonly reachY: number;

  constructor(all: readonly Blob[], maxHeight: number) {
    this.glyphs = all.filter((b) => b.y1 - b.y0 < maxHeight).sort((a, b) => a.y1 - b.y1);
    this.reachY = BASELINE_TOLERANCE * maxHeight;
  }

  /** Whether glyphs flank the blob on its baseline, as they do a printed point (see POINT_GAP). */
  flank(point: Blob): boolean {
    const height = point.y1 - point.y0 + 1;
    let left = false;
    let right = false;
    for (let i = this.firstEndingAtOrBelow(point.y1 - this.reachY); i < this.glyphs.length && !(left && right); i++) {
      const glyph = this.glyphs[i]!;
      if (glyph.y1 > point.y1 + this.reachY) break;
      const glyphHeight = glyph.y1 - glyph.y0 + 1;
      if (glyphHeight < POINT_NEIGHBOUR_HEIGHT_RATIO * height || Math.abs(glyph.y1 - point.y1) > BASELINE_TOLERANCE * glyphHeight) continue;
      const reach = POINT_GAP * glyphHeight;
      left ||= glyph.x1 < point.x0 && point.x0 - glyph.x1 <= reach;
      right ||= glyph.x0 > point.x1 && glyph.x0 - point.x1 <= reach;
    }
    return left && right;
  }

  private firstEndingAtOrBelow(y: number): number {
    let [low, high] = [0, this.glyphs.length];
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.glyphs[middle]!.y1 < y) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** The page with its isolated specks turned white, how many were removed, and the blobs of ink left (its glyphs, rules and marks). */
export function despeckle(image: PageImage): { image: PageImage; removed: number; blobs: Blob[] } {
  const { width, height, dpi } = image;
  const maxArea = Math.max(1, Math.round(MAX_SPECK_AREA_AT_300_DPI * (dpi / 300) ** 2));
  const maxSide = Math.max(1, Math.round(MAX_SPECK_SIDE_INCHES * dpi));
  const clearance = Math.max(2, Math.round(CLEARANCE_INCHES * dpi));
  const all = blobs(new InkRuns(image));
  const isolated = all.filter((blob) => {
    if (blob.area > maxArea || blob.x1 - blob.x0 >= maxSide || blob.y1 - blob.y0 >= maxSide) return false;
    // Isolated: the box around it, `clearance` wider on every side, holds no ink but its own.
    const box = [Math.max(0, blob.x0 - clearance), Math.max(0, blob.y0 - clearance), Math.min(width - 1, blob.x1 + clearance), Math.min(height - 1, blob.y1 + clearance)] as const;
    return inkIn(image, ...box) === blob.area;
  });
  if (isolated.length === 0) return { image, removed: 0, blobs: all };
  const glyphs = new GlyphsByBottom(all, MAX_GLYPH_HEIGHT_INCHES * dpi);
  const specks = new Set(isolated.filter((blob) => !glyphs.flank(blob)));
  if (specks.size === 0) return { image, removed: 0, blobs: all };
  const grey = new Uint8Array(image.grey);
  // All the ink in a speck's own box is the speck's: its wider box holds no other.
  for (const speck of specks) {
    for (let y = speck.y0; y <= speck.y1; y++) {
      for (let i = y * width + speck.x0; i <= y * width + speck.x1; i++) if (grey[i]! < INK) grey[i] = 255;
    }
  }
  return { image: { ...image, grey }, removed: specks.size, blobs: all.filter((blob) => !specks.has(blob)) };
}
