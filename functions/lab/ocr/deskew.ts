/**
 * Skew of a scanned page from the projection profile of its dark pixels: text lines sheared back by
 * the right angle pile up into sharp rows, so the sum of squared row counts peaks there. A coarse
 * search over ±MAX_SKEW_DEGREES and a fine one around the best angle; a 1–2° skew is enough to merge
 * neighbouring table rows, so every scan is straightened before recognition.
 */

export const MAX_SKEW_DEGREES = 5;
/** Grey level under which a pixel counts as ink. */
const INK = 128;
/** Enough ink samples for a sharp profile; more only costs time. */
const MAX_SAMPLES = 120_000;

interface GreyImage {
  width: number;
  height: number;
  grey: Uint8Array;
}

/** Share of ink pixels (0–1); a blank page has almost none. */
export function inkShare(image: GreyImage, stride = 4): number {
  let ink = 0;
  let total = 0;
  for (let y = 0; y < image.height; y += stride) {
    const row = y * image.width;
    for (let x = 0; x < image.width; x += stride) {
      total++;
      if (image.grey[row + x]! < INK) ink++;
    }
  }
  return total === 0 ? 0 : ink / total;
}

function inkSamples(image: GreyImage): { xs: Float64Array; ys: Float64Array } {
  const { width, height, grey } = image;
  let count = 0;
  for (let i = 0; i < grey.length; i++) if (grey[i]! < INK) count++;
  const step = Math.max(1, Math.ceil(count / MAX_SAMPLES));
  const xs = new Float64Array(Math.ceil(count / step));
  const ys = new Float64Array(xs.length);
  let seen = 0;
  let n = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (grey[row + x]! >= INK) continue;
      if (seen++ % step === 0 && n < xs.length) {
        xs[n] = x;
        ys[n] = y;
        n++;
      }
    }
  }
  return { xs: xs.subarray(0, n), ys: ys.subarray(0, n) };
}

function sharpness(xs: Float64Array, ys: Float64Array, height: number, width: number, degrees: number): number {
  const slope = Math.tan((degrees * Math.PI) / 180);
  const offset = Math.ceil(Math.abs(slope) * width) + 1;
  const bins = new Float64Array(height + 2 * offset);
  for (let i = 0; i < xs.length; i++) {
    const row = Math.round(ys[i]! - xs[i]! * slope) + offset;
    bins[row]! += 1;
  }
  let sum = 0;
  for (let i = 0; i < bins.length; i++) sum += bins[i]! * bins[i]!;
  return sum;
}

function bestAngle(xs: Float64Array, ys: Float64Array, image: GreyImage, from: number, to: number, step: number): number {
  let best = 0;
  let bestScore = -1;
  for (let degrees = from; degrees <= to + step / 2; degrees += step) {
    const score = sharpness(xs, ys, image.height, image.width, degrees);
    // Ties (a page of one word) keep the angle nearest zero.
    if (score > bestScore || (score === bestScore && Math.abs(degrees) < Math.abs(best))) {
      bestScore = score;
      best = degrees;
    }
  }
  return best;
}

/**
 * The angle (degrees) by which the page's text lines rise from left to right in image coordinates
 * (y down): a line through (x, y) continues through (x + 1, y + tan(angle)). Rotating the image by
 * −angle straightens it. 0 for a page with too little ink to tell.
 */
export function estimateSkew(image: GreyImage): number {
  const { xs, ys } = inkSamples(image);
  if (xs.length < 200) return 0;
  const coarse = bestAngle(xs, ys, image, -MAX_SKEW_DEGREES, MAX_SKEW_DEGREES, 0.25);
  const fine = bestAngle(xs, ys, image, coarse - 0.25, coarse + 0.25, 0.025);
  return Math.round(fine * 1000) / 1000;
}

/**
 * Whether the straightened page's ink piles up in columns more sharply than in rows: its lines of text
 * run down the page, as on a sheet scanned sideways. The skew measure's sharpness of the rows at 0°,
 * against the same of the columns, each per bin (a page is taller than wide): upright pages of the
 * bench's scans measure their rows 1–5 times sharper than their columns, sideways ones 0.27–0.56 times
 * (at half resolution).
 */
export function linesRunDown(image: GreyImage): boolean {
  const { xs, ys } = inkSamples(image);
  // At 0° the profile has a bin per row (and one spare at each end), or per column with the axes swapped.
  const rows = sharpness(xs, ys, image.height, image.width, 0) * (image.height + 2);
  const columns = sharpness(ys, xs, image.width, image.height, 0) * (image.width + 2);
  return columns > rows;
}
