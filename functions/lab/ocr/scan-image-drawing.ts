import type { Canvas, DOMMatrix, Image, SKRSContext2D } from '@napi-rs/canvas';
import { jpxCanvas } from './jpx-image';
import { decodedImage } from './pinned-canvas-work';
import type { Matrix, PlacedScanImage } from './scan-images';

/**
 * A scanned page drawn from its images' bytes instead of by pdf.js, pixel for pixel as pdf.js draws it:
 * the same canvas transforms in the same order, the same snapping to whole device pixels, the same
 * choice of smoothing. Only the decoding differs: a JPEG is decoded by Skia's libjpeg-turbo instead of
 * pdf.js's JavaScript decoder (a few times faster; at most the rounding of a grey level differs), a
 * JPEG 2000 by pdf.js's own OpenJPEG decoder, which unpdf's build of pdf.js lacks (jpx-image.ts).
 */

/**
 * pdf.js smooths an image only where it is not magnified beyond CSS pixels per PDF unit (96 / 72, at a
 * device pixel ratio of 1, as in Node): larger, it is drawn pixel by pixel (getImageSmoothingEnabled).
 * It compares with that ratio as a 32-bit float, a hair above 4/3: an image magnified exactly 4/3
 * (90 pixels drawn over 120) is smoothed.
 */
const PDF_TO_CSS_UNITS = Math.fround(96 / 72);

/** Device pixels per image pixel along each of the image's axes, under the canvas transform pdf.js draws it with. */
function magnification({ a, b, c, d }: DOMMatrix): [number, number] {
  return [Math.hypot(a, b), Math.hypot(c, d)];
}

/**
 * The canvas transform under which pdf.js draws an image (paintInlineImageXObject): the viewport,
 * each `cm` in turn, then 1/width by −1/height; the image goes to (0, −height) there. Built on the
 * canvas itself, in the same steps, so its rounding is pdf.js's.
 */
function imageTransform(context: SKRSContext2D, viewport: Matrix, placed: PlacedScanImage): DOMMatrix {
  context.resetTransform();
  context.transform(...viewport);
  for (const cm of placed.concatenated) context.transform(...cm);
  context.scale(1 / placed.width, -1 / placed.height);
  return context.getTransform();
}

/**
 * Draws the image as pdf.js's drawImageAtIntegerCoords does: an image kept upright or turned by a
 * quarter turn lands on whole device pixels (its corners rounded), any other one as transformed.
 */
function drawAsPdfJs(context: SKRSContext2D, image: Image | Canvas, placed: PlacedScanImage, t: DOMMatrix): void {
  const { width, height } = placed;
  if (t.b === 0 && t.c === 0) {
    const [left, top] = [Math.round(t.e), Math.round(-height * t.d + t.f)];
    context.setTransform(Math.sign(t.a), 0, 0, Math.sign(t.d), left, top);
    context.drawImage(image, 0, 0, width, height, 0, 0, Math.abs(Math.round(width * t.a + t.e) - left) || 1, Math.abs(Math.round(t.f) - top) || 1);
  } else if (t.a === 0 && t.d === 0) {
    const [left, top] = [Math.round(-height * t.c + t.e), Math.round(t.f)];
    const across = Math.abs(Math.round(t.e) - left) || 1;
    const down = Math.abs(Math.round(width * t.b + t.f) - top) || 1;
    context.setTransform(0, Math.sign(t.b), Math.sign(t.c), 0, left, top);
    context.drawImage(image, 0, 0, width, height, 0, 0, down, across);
  } else {
    context.setTransform(t);
    context.drawImage(image, 0, 0, width, height, 0, -height, width, height);
  }
}

/** The image decoded: a Skia image, or a canvas of a JPEG 2000's pixels. */
function decoded(placed: PlacedScanImage): Promise<Image | Canvas> {
  return placed.codec === 'jpeg' ? decodedImage(placed.bytes) : jpxCanvas(placed.bytes, placed.colourComponents);
}

/**
 * Draws the page's scanned images onto the page's canvas (device pixels, blank) as pdf.js draws them,
 * through the viewport transform. Draws nothing and answers false (pdf.js renders the page) when an
 * image is shrunk below half its size, which pdf.js halves step by step before drawing (_scaleImage),
 * or when an image does not decode, or not to the dimensions its PDF dictionary gives.
 * Leaves the canvas's transform reset.
 */
export async function drawScanImages(context: SKRSContext2D, placedImages: readonly PlacedScanImage[], viewport: Matrix): Promise<boolean> {
  const transforms = placedImages.map((placed) => imageTransform(context, viewport, placed));
  context.resetTransform();
  if (transforms.some((t) => magnification(t).some((scale) => scale < 0.5))) return false;
  const images = await Promise.all(placedImages.map((placed) => decoded(placed).catch(() => undefined)));
  if (images.some((image, i) => image?.width !== placedImages[i]!.width || image?.height !== placedImages[i]!.height)) return false;
  placedImages.forEach((placed, i) => {
    const t = transforms[i]!;
    // pdf.js's getImageSmoothingEnabled: smoothed unless magnified beyond CSS pixels per PDF unit.
    context.imageSmoothingEnabled = placed.interpolate || magnification(t).every((scale) => scale <= PDF_TO_CSS_UNITS);
    drawAsPdfJs(context, images[i]!, placed, t);
  });
  context.resetTransform();
  context.imageSmoothingEnabled = true;
  return true;
}

