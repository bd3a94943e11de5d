import type { PageImage } from './recognizer';

/**
 * Geometry on a page's 8-bit grey pixels: halving (for the skew measure and second readings) and
 * straightening. Done on one byte per pixel rather than by redrawing the page's canvas (four bytes per
 * pixel, read back and turned to grey again): on the bench's clean scans a page's rendering took about
 * 590 ms of CPU with the canvas route and 470 with this one, for the same bilinear result.
 */

/** Paper, for pixels a turn brings in from beyond the page's edges (a canvas redraw paints them white too). */
const WHITE = 255;
/** Fixed-point precision of source positions: 16 bits of fraction, so 32-bit integers hold any page width. */
const FRACTION_BITS = 16;
const ONE = 1 << FRACTION_BITS;
/** Interpolation weights use the top 8 bits of the fraction (steps of 1/256 pixel). */
const WEIGHT_SHIFT = FRACTION_BITS - 8;

/** Half the resolution: each pixel the rounded mean of a 2×2 square (a bilinear halving); an odd last row or column is dropped. */
export function halved(image: PageImage): PageImage {
  const width = image.width >> 1;
  const height = image.height >> 1;
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const top = 2 * y * image.width;
    const bottom = top + image.width;
    for (let x = 0; x < width; x++) {
      const sum = image.grey[top + 2 * x]! + image.grey[top + 2 * x + 1]! + image.grey[bottom + 2 * x]! + image.grey[bottom + 2 * x + 1]!;
      grey[y * width + x] = (sum + 2) >> 2;
    }
  }
  return { width, height, dpi: image.dpi / 2, grey };
}

/**
 * The image drawn one pixel bolder: each pixel the darkest of itself and its neighbours right, below
 * and below right (a 2×2 minimum), so a stroke a pixel or two wide, as a thin font's is, grows by one.
 */
export function emboldened(image: PageImage): PageImage {
  const { width, height, grey } = image;
  const bolder = new Uint8Array(grey.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const below = y + 1 < height ? row + width : row;
    for (let x = 0; x < width; x++) {
      const right = x + 1 < width ? 1 : 0;
      bolder[row + x] = Math.min(grey[row + x]!, grey[row + x + right]!, grey[below + x]!, grey[below + x + right]!);
    }
  }
  return { ...image, grey: bolder };
}

/**
 * The page turned by −`degrees` about its centre (straightening a skew of `degrees`, deskew.ts), same
 * size, sampled bilinearly at pixel centres as a canvas redraw does; what comes in from beyond the
 * edges is white. Each row walks its source line in fixed-point steps.
 */
export function straightened(image: PageImage, degrees: number): PageImage {
  const { width, height, grey } = image;
  const radians = (-degrees * Math.PI) / 180;
  const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
  const [cx, cy] = [width / 2, height / 2];
  const out = new Uint8Array(width * height);
  // Source position of a target pixel's centre (x + ½, y + ½), less ½ to index pixel centres:
  // the inverse turn, sx = cos·dx + sin·dy + cx, sy = −sin·dx + cos·dy + cy, with d = target − centre.
  const stepX = Math.round(cos * ONE);
  const stepY = Math.round(-sin * ONE);
  for (let y = 0; y < height; y++) {
    const dy = y + 0.5 - cy;
    const dx = 0.5 - cx;
    const startX = Math.round((cos * dx + sin * dy + cx - 0.5) * ONE);
    const startY = Math.round((-sin * dx + cos * dy + cy - 0.5) * ONE);
    const row = y * width;
    // Pixels whose four source neighbours all lie on the page: read directly; the rest (near the edges) checked.
    const [first, last] = interiorRun([startX, stepX, width], [startY, stepY, height], width);
    for (let x = 0; x < width; x++) {
      if (x === first) {
        straightenedRun(grey, out, width, row, first, last, startX + first * stepX, startY + first * stepY, stepX, stepY);
        x = last;
        continue;
      }
      out[row + x] = sampleNearEdge(image, startX + x * stepX, startY + x * stepY);
    }
  }
  return { width, height, dpi: image.dpi, grey: out };
}

/** A row's source positions along one axis: start + x·step (fixed point), on a page `size` pixels across. */
type Walk = readonly [start: number, step: number, size: number];

/**
 * The target pixels [first, last] of a row whose source position lies, on both axes, between the first
 * pixel and the last but one (whole pixels), so that its bilinear neighbours are all on the page; an
 * empty run is [−1, −2].
 */
function interiorRun(across: Walk, down: Walk, width: number): [number, number] {
  let [first, last] = [0, width - 1];
  for (const [start, step, size] of [across, down]) {
    const max = (size - 2) * ONE;
    if (step === 0) {
      if (start < 0 || start > max) return [-1, -2];
      continue;
    }
    // 0 ≤ start + x·step ≤ max, for whole x.
    const [low, high] = step > 0 ? [Math.ceil(-start / step), Math.floor((max - start) / step)] : [Math.ceil((max - start) / step), Math.floor(-start / step)];
    first = Math.max(first, low);
    last = Math.min(last, high);
  }
  return first <= last ? [first, last] : [-1, -2];
}

function straightenedRun(grey: Uint8Array, out: Uint8Array, width: number, row: number, first: number, last: number, sx: number, sy: number, stepX: number, stepY: number): void {
  for (let x = first; x <= last; x++, sx += stepX, sy += stepY) {
    const at = (sy >> FRACTION_BITS) * width + (sx >> FRACTION_BITS);
    const fx = (sx >> WEIGHT_SHIFT) & 0xff;
    const fy = (sy >> WEIGHT_SHIFT) & 0xff;
    const top = grey[at]! * (256 - fx) + grey[at + 1]! * fx;
    const bottom = grey[at + width]! * (256 - fx) + grey[at + width + 1]! * fx;
    out[row + x] = (top * (256 - fy) + bottom * fy + 32_768) >> 16;
  }
}

/** Bilinear sample at fixed-point (sx, sy), white beyond the page. */
function sampleNearEdge(image: PageImage, sx: number, sy: number): number {
  const x0 = sx >> FRACTION_BITS;
  const y0 = sy >> FRACTION_BITS;
  if (x0 < -1 || y0 < -1 || x0 >= image.width || y0 >= image.height) return WHITE;
  const fx = (sx >> WEIGHT_SHIFT) & 0xff;
  const fy = (sy >> WEIGHT_SHIFT) & 0xff;
  const top = pixelOrWhite(image, x0, y0) * (256 - fx) + pixelOrWhite(image, x0 + 1, y0) * fx;
  const bottom = pixelOrWhite(image, x0, y0 + 1) * (256 - fx) + pixelOrWhite(image, x0 + 1, y0 + 1) * fx;
  return (top * (256 - fy) + bottom * fy + 32_768) >> 16;
}

function pixelOrWhite(image: PageImage, x: number, y: number): number {
  return x >= 0 && y >= 0 && x < image.width && y < image.height ? image.grey[y * image.width + x]! : WHITE;
}

/** The page turned clockwise by `quarterTurns` quarter turns (0–3), pixel for pixel; a quarter turn swaps width and height. */
export function turned(image: PageImage, quarterTurns: number): PageImage {
  const { width, height, grey } = image;
  const turns = ((quarterTurns % 4) + 4) % 4;
  if (turns === 0) return image;
  if (turns === 2) return { width, height, dpi: image.dpi, grey: grey.slice().reverse() };
  // A clockwise quarter turn puts source (x, y) at (height − 1 − y, x); three quarters at (y, width − 1 − x).
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) out[turns === 1 ? x * height + (height - 1 - y) : (width - 1 - x) * height + y] = grey[row + x]!;
  }
  return { width: height, height: width, dpi: image.dpi, grey: out };
}
