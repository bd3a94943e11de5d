/**
 * A page stored in black and white (a fax, a scanner's text mode: CCITT, JBIG2 or 1-bit images) is
 * drawn by pdf.js pixel by pixel where it is magnified, as it draws any image beyond 96/72 (a 200-dpi
 * fax drawn at 300 dpi is): each sample becomes one or two device pixels in turn, so a glyph's strokes
 * come out one and a half pixels wide on average but one or two in fact, with stair-steps on every
 * edge. Tesseract misreads digits so drawn (`199` as `198`, `450` as `430`, `29.0` as `28.0`): six
 * faxes of the bench's reports read value P / R 95.1 / 88.6 %, with 2 invented results. Smoothed as
 * it is magnified (bicubic), the same pages read 100 / 97.7 %, none invented. Grey scans keep pdf.js's
 * drawing: their glyphs' grey edges already carry what smoothing would add, and smoothing the 150-dpi
 * noisy class lost value recall (97.9 → 93.8 % on seed 17).
 *
 * A page is told black and white by its pixels as drawn, whatever stored them: its ink is pure black.
 * A grey scan's ink shades into the paper over a pixel or two at every edge (anti-aliasing, the scanner's
 * optics, JPEG), so a large share of its marked pixels are grey.
 */

/** Pixels sampled (every n-th): a page has millions, a few hundred thousand tell its kind. */
const SAMPLE_STEP = 7;
/** Grey levels within this of black or white count as such. */
const TOLERANCE = 8;
/** Share of the sampled pixels that must be marked (not paper) for the page to say anything: a blank page is no fax. */
const MIN_MARKED = 0.001;
/** Share of the marked pixels that must be black for the page to be black and white. */
const BLACK_SHARE = 0.98;

/** Whether the grey page (8-bit, row-major) was drawn from a black-and-white image: its marked pixels all but all pure black. */
export function isBilevel(grey: Uint8Array): boolean {
  let sampled = 0;
  let marked = 0;
  let black = 0;
  for (let i = 0; i < grey.length; i += SAMPLE_STEP) {
    sampled++;
    const level = grey[i]!;
    if (level >= 255 - TOLERANCE) continue;
    marked++;
    if (level <= TOLERANCE) black++;
  }
  return marked >= MIN_MARKED * sampled && black >= BLACK_SHARE * marked;
}
