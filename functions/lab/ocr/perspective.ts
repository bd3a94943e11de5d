import { median } from './median';
import type { PageImage } from './recognizer';

/**
 * A sheet photographed at a slant (the camera tilted towards its top or one side) is drawn as a
 * quadrilateral, not a turned rectangle: its top edge shorter than its bottom, its columns leaning in.
 * Straightening by one angle leaves the columns leaning, and the reader, which finds a table's columns
 * by where its cells stand, loses the rows whose cells stand outside them. Where the table the sheet lies
 * on shows around it (sheet-surround.ts), its four edges are measured from that surround, and the sheet
 * is drawn flat again through the projective transformation that takes its corners to a rectangle's.
 */

export type Point = [number, number];
/** Corners in order: top left, top right, bottom right, bottom left. */
export type Quad = [Point, Point, Point, Point];

/** Solves the linear system A·x = b (Gaussian elimination with partial pivoting); A is n × n. */
function solved(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let column = 0; column < n; column++) {
    let pivot = column;
    for (let row = column + 1; row < n; row++) if (Math.abs(m[row]![column]!) > Math.abs(m[pivot]![column]!)) pivot = row;
    [m[column], m[pivot]] = [m[pivot]!, m[column]!];
    for (let row = 0; row < n; row++) {
      if (row === column) continue;
      const factor = m[row]![column]! / m[column]![column]!;
      for (let k = column; k <= n; k++) m[row]![k]! -= factor * m[column]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/** A projective transformation: (x, y) goes to ((h0·x + h1·y + h2) / w, (h3·x + h4·y + h5) / w), w = h6·x + h7·y + 1. */
export type Homography = readonly [number, number, number, number, number, number, number, number];

/** The projective transformation taking each corner of `from` to the same corner of `to`. */
export function homography(from: Quad, to: Quad): Homography {
  const a: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [[x, y], [u, v]] = [from[i]!, to[i]!];
    a.push([x, y, 1, 0, 0, 0, -x * u, -y * u]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -x * v, -y * v]);
    b.push(v);
  }
  return solved(a, b) as unknown as Homography;
}

/** Grey level of `image` at a point between pixels (bilinear), or `fill` outside it. */
function sampled(image: PageImage, x: number, y: number, fill: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  if (x0 < 0 || y0 < 0 || x0 >= image.width - 1 || y0 >= image.height - 1) return fill;
  const fx = x - x0;
  const fy = y - y0;
  const { grey, width } = image;
  const at = y0 * width + x0;
  const top = grey[at]! + (grey[at + 1]! - grey[at]!) * fx;
  const bottom = grey[at + width]! + (grey[at + width + 1]! - grey[at + width]!) * fx;
  return Math.round(top + (bottom - top) * fy);
}

/**
 * An image of the same size whose pixel (x, y) shows `image` where `source` takes (x, y), `fill` where
 * that falls outside it. Along a row the transformation's numerators and denominator grow by constant
 * steps, so each pixel costs three additions and two divisions before its sampling.
 */
export function remapped(image: PageImage, source: Homography, fill: number): PageImage {
  const grey = new Uint8Array(image.width * image.height);
  const [h0, h1, h2, h3, h4, h5, h6, h7] = source;
  for (let y = 0, i = 0; y < image.height; y++) {
    let u = h1 * y + h2;
    let v = h4 * y + h5;
    let w = h7 * y + 1;
    for (let x = 0; x < image.width; x++, i++) {
      grey[i] = sampled(image, u / w, v / w, fill);
      u += h0;
      v += h3;
      w += h6;
    }
  }
  return { ...image, grey };
}

/** A straight line x = slope · y + offset (an edge that runs down the page) or y = slope · x + offset (across it). */
interface Line {
  slope: number;
  offset: number;
}

/** Share of an edge's samples its line must pass within the tolerance of: fewer, and the edge is no straight line (a thumb over it, a curled sheet). */
const STRAIGHT_SHARE = 0.9;

/**
 * A line through points (t, s) as s = slope · t + offset that samples off the edge cannot pull: the
 * median slope between each point and the one half the list further on, the median offset under that
 * slope (Theil–Sen over paired halves). A least-squares start would be tilted by the samples at one end
 * that lie on the neighbouring edge (a sheet turned 3° shows its side edge in the first columns of its
 * top one), and would then leave true samples outside the tolerance.
 */
function robustLine(points: readonly Point[]): Line | undefined {
  const half = points.length >> 1;
  const slopes: number[] = [];
  for (let k = 0; k < half; k++) {
    const [[t0, s0], [t1, s1]] = [points[k]!, points[k + half]!];
    if (t1 !== t0) slopes.push((s1 - s0) / (t1 - t0));
  }
  const slope = median(slopes);
  if (slope === undefined) return undefined;
  return { slope, offset: median(points.map(([t, s]) => s - slope * t))! };
}

/**
 * Line through points (t, s) as s = slope · t + offset: least squares through the points within
 * `tolerance` of a robust start; none where that leaves out more than a tenth of them.
 */
function fitted(points: readonly Point[], tolerance: number): Line | undefined {
  const leastSquares = (list: readonly Point[]): Line | undefined => {
    if (list.length < 2) return undefined;
    let [st, ss, stt, sts] = [0, 0, 0, 0];
    for (const [t, s] of list) [st, ss, stt, sts] = [st + t, ss + s, stt + t * t, sts + t * s];
    const n = list.length;
    const denominator = n * stt - st * st;
    if (denominator === 0) return undefined;
    const slope = (n * sts - st * ss) / denominator;
    return { slope, offset: (ss - slope * st) / n };
  };
  const start = robustLine(points);
  if (!start) return undefined;
  const near = (line: Line) => points.filter(([t, s]) => Math.abs(line.slope * t + line.offset - s) <= tolerance);
  const line = leastSquares(near(start));
  return line && near(line).length >= STRAIGHT_SHARE * points.length ? line : undefined;
}

/** Share of each edge's length, at either end, left out of its fit: the corners, where two edges meet. */
const CORNER_SHARE = 0.1;
/** An edge's samples more than this far (inches) from its fitted line are no part of it (a fold, a shadow, a thumb). */
const EDGE_TOLERANCE_INCHES = 0.02;

/**
 * The sheet's four corners, from the pixels around it (`outside`, 1 each, sheet-surround.ts): each edge
 * a straight line fitted to the sheet's outermost pixels along it, the corners where they meet. None
 * where the sheet reaches the frame on any side (that edge is not in the picture), an edge has too few
 * samples or is no straight line, or a corner falls outside the picture.
 */
export function sheetQuad(outside: Uint8Array, image: Pick<PageImage, 'width' | 'height' | 'dpi'>): Quad | undefined {
  const { width, height } = image;
  const tolerance = Math.max(2, EDGE_TOLERANCE_INCHES * image.dpi);
  // The sheet's extent in each row and column that holds any of it (−1 where none does).
  const [rowFirst, rowLast] = [new Int32Array(height).fill(-1), new Int32Array(height).fill(-1)];
  const [columnFirst, columnLast] = [new Int32Array(width).fill(-1), new Int32Array(width).fill(-1)];
  for (let y = 0; y < height; y++) {
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (outside[i]) continue;
      if (rowFirst[y]! < 0) rowFirst[y] = x;
      rowLast[y] = x;
      if (columnFirst[x]! < 0) columnFirst[x] = y;
      columnLast[x] = y;
    }
  }
  const rows = Array.from({ length: height }, (_, y) => y).filter((y) => rowFirst[y]! >= 0);
  const columns = Array.from({ length: width }, (_, x) => x).filter((x) => columnFirst[x]! >= 0);
  if (rows.length < 10 || columns.length < 10) return undefined;
  const inner = (list: number[]) => list.slice(Math.floor(CORNER_SHARE * list.length), Math.ceil((1 - CORNER_SHARE) * list.length));
  const [innerRows, innerColumns] = [inner(rows), inner(columns)];
  // An edge whose samples lie on the frame is the frame's, not the sheet's.
  const onFrame = (values: number[], limit: number) => values.filter((v) => v <= 0 || v >= limit).length > values.length / 2;
  const lefts = innerRows.map((y) => rowFirst[y]!);
  const rights = innerRows.map((y) => rowLast[y]!);
  const tops = innerColumns.map((x) => columnFirst[x]!);
  const bottoms = innerColumns.map((x) => columnLast[x]!);
  if (onFrame(lefts, width - 1) || onFrame(rights, width - 1) || onFrame(tops, height - 1) || onFrame(bottoms, height - 1)) return undefined;
  const left = fitted(innerRows.map((y, k) => [y, lefts[k]!]), tolerance);
  const right = fitted(innerRows.map((y, k) => [y, rights[k]!]), tolerance);
  const top = fitted(innerColumns.map((x, k) => [x, tops[k]!]), tolerance);
  const bottom = fitted(innerColumns.map((x, k) => [x, bottoms[k]!]), tolerance);
  if (!left || !right || !top || !bottom) return undefined;
  // Where x = a·y + b (down) meets y = c·x + d (across).
  const meeting = (down: Line, across: Line): Point => {
    const y = (across.slope * down.offset + across.offset) / (1 - across.slope * down.slope);
    return [down.slope * y + down.offset, y];
  };
  const corners: Quad = [meeting(left, top), meeting(right, top), meeting(right, bottom), meeting(left, bottom)];
  return corners.every(([x, y]) => x >= 0 && y >= 0 && x <= width - 1 && y <= height - 1) ? corners : undefined;
}

/** Opposite edges further from parallel than this (degrees): the sheet was photographed at a slant. */
const SLANT_DEGREES = 0.5;

function direction([x0, y0]: Point, [x1, y1]: Point): number {
  return (Math.atan2(y1 - y0, x1 - x0) * 180) / Math.PI;
}

/** Whether the quad's opposite edges converge (a slanted photo) rather than run parallel (a sheet merely turned). */
export function isSlanted([topLeft, topRight, bottomRight, bottomLeft]: Quad): boolean {
  const apart = (a: number, b: number) => Math.abs(((a - b + 540) % 360) - 180);
  return apart(direction(topLeft, topRight), direction(bottomLeft, bottomRight)) > SLANT_DEGREES || apart(direction(topLeft, bottomLeft), direction(topRight, bottomRight)) > SLANT_DEGREES;
}

const distance = ([x0, y0]: Point, [x1, y1]: Point) => Math.hypot(x1 - x0, y1 - y0);

/**
 * The sheet drawn flat: `quad` taken to an upright rectangle about its centre, as wide as its longer
 * horizontal edge and as tall as its longer vertical one (the nearer edge shows the sheet's size),
 * scaled down to fit the image; white around it.
 */
export function flattened(image: PageImage, quad: Quad): PageImage {
  const [topLeft, topRight, bottomRight, bottomLeft] = quad;
  let width = Math.max(distance(topLeft, topRight), distance(bottomLeft, bottomRight));
  let height = Math.max(distance(topLeft, bottomLeft), distance(topRight, bottomRight));
  const fit = Math.min(1, (image.width - 1) / width, (image.height - 1) / height);
  [width, height] = [width * fit, height * fit];
  const [cx, cy] = [quad.reduce((sum, [x]) => sum + x, 0) / 4, quad.reduce((sum, [, y]) => sum + y, 0) / 4];
  const [x0, y0] = [Math.max(0, Math.min(image.width - 1 - width, cx - width / 2)), Math.max(0, Math.min(image.height - 1 - height, cy - height / 2))];
  const rectangle: Quad = [
    [x0, y0],
    [x0 + width, y0],
    [x0 + width, y0 + height],
    [x0, y0 + height],
  ];
  return remapped(image, homography(rectangle, quad), 255);
}
