import type { PageImage } from './recognizer';

/**
 * Removes isolated specks (dust, toner, fax noise) from a rendered page before recognition. Tesseract
 * reads a speck in a column gap as a word (`i`, `;`, `3`), and one such word between a row's cells
 * keeps the reader from accounting for every cell. A speck is a blob of ink no larger than a decimal
 * point with no other ink near it: a decimal point, the dot of an i or a period always stands a stroke
 * width from its neighbours, so the rule cannot take a character away, and a page without specks comes
 * out unchanged.
 */

/** Grey level under which a pixel counts as ink (as in deskew.ts). */
const INK = 128;
/** The largest speck: about a 6-pt period at 300 dpi (areas scale with the square of the resolution). */
const MAX_SPECK_AREA_AT_300_DPI = 20;
const MAX_SPECK_SIDE_INCHES = 0.02;
/** How far (inches) a blob must stand from other ink to be a speck: over twice a period's gap to its digit. */
const CLEARANCE_INCHES = 0.03;

interface Blob {
  area: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Labels the ink's 8-connected blobs (two passes with union–find). Returns the label of every pixel
 * (0: no ink) and each label's blob.
 */
function blobs(image: PageImage): { labels: Int32Array; found: Map<number, Blob> } {
  const { width, height, grey } = image;
  const labels = new Int32Array(width * height);
  const parent: number[] = [0];
  const find = (label: number): number => {
    let root = label;
    while (parent[root]! !== root) root = parent[root]!;
    while (parent[label]! !== root) {
      const next = parent[label]!;
      parent[label] = root;
      label = next;
    }
    return root;
  };
  const union = (a: number, b: number): number => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) return ra;
    const [low, high] = ra < rb ? [ra, rb] : [rb, ra];
    parent[high] = low;
    return low;
  };
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const i = row + x;
      if (grey[i]! >= INK) continue;
      let label = 0;
      // Neighbours already labelled: left, and the three above.
      const neighbours = [x > 0 ? labels[i - 1]! : 0, y > 0 && x > 0 ? labels[i - width - 1]! : 0, y > 0 ? labels[i - width]! : 0, y > 0 && x < width - 1 ? labels[i - width + 1]! : 0];
      for (const n of neighbours) {
        if (n === 0) continue;
        label = label === 0 ? find(n) : union(label, n);
      }
      if (label === 0) {
        label = parent.length;
        parent.push(label);
      }
      labels[i] = label;
    }
  }
  const found = new Map<number, Blob>();
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const i = row + x;
      if (labels[i] === 0) continue;
      const label = find(labels[i]!);
      labels[i] = label;
      const blob = found.get(label);
      if (blob) {
        blob.area++;
        if (x < blob.x0) blob.x0 = x;
        if (x > blob.x1) blob.x1 = x;
        blob.y1 = y;
      } else found.set(label, { area: 1, x0: x, y0: y, x1: x, y1: y });
    }
  }
  return { labels, found };
}

function isolated(labels: Int32Array, width: number, height: number, label: number, blob: Blob, clearance: number): boolean {
  const top = Math.max(0, blob.y0 - clearance);
  const bottom = Math.min(height - 1, blob.y1 + clearance);
  const left = Math.max(0, blob.x0 - clearance);
  const right = Math.min(width - 1, blob.x1 + clearance);
  for (let y = top; y <= bottom; y++) {
    const row = y * width;
    for (let x = left; x <= right; x++) {
      const other = labels[row + x]!;
      if (other !== 0 && other !== label) return false;
    }
  }
  return true;
}

/** The page with its isolated specks turned white, and how many were removed. */
export function despeckle(image: PageImage): { image: PageImage; removed: number } {
  const { width, height, dpi } = image;
  const maxArea = Math.max(1, Math.round(MAX_SPECK_AREA_AT_300_DPI * (dpi / 300) ** 2));
  const maxSide = Math.max(1, Math.round(MAX_SPECK_SIDE_INCHES * dpi));
  const clearance = Math.max(2, Math.round(CLEARANCE_INCHES * dpi));
  const { labels, found } = blobs(image);
  const specks = new Set<number>();
  for (const [label, blob] of found) {
    if (blob.area > maxArea || blob.x1 - blob.x0 >= maxSide || blob.y1 - blob.y0 >= maxSide) continue;
    if (isolated(labels, width, height, label, blob, clearance)) specks.add(label);
  }
  if (specks.size === 0) return { image, removed: 0 };
  const grey = new Uint8Array(image.grey);
  for (let i = 0; i < grey.length; i++) if (labels[i] !== 0 && specks.has(labels[i]!)) grey[i] = 255;
  return { image: { ...image, grey }, removed: specks.size };
}
