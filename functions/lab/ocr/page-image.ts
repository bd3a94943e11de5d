import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import { createIsomorphicCanvasFactory, getDocumentProxy } from 'unpdf';
import { PDFJS_OPTIONS } from '../pdfjs-options';
import { isBilevel } from './bilevel';
import { estimateSkew } from './deskew';
import { halved, straightened } from './grey-geometry';
import { evenlyLit } from './lighting';
import { flattened, isSlanted, sheetQuad } from './perspective';
import { encodedCanvas } from './pinned-canvas-work';
import type { PageImage } from './recognizer';
import { drawScanImages } from './scan-image-drawing';
import { type Matrix, scannedImagePages } from './scan-images';
import { surroundOf, whitened } from './sheet-surround';

/**
 * Pages rendered for OCR on @napi-rs/canvas (Skia; prebuilt for Linux x64 and arm64 on npm),
 * straightened, as 8-bit grey: by pdf.js (unpdf's build), or, for a page that shows only JPEG or JPEG
 * 2000 images (a scan, scan-images.ts), from the images' bytes decoded apart and drawn the way pdf.js
 * draws them, which spares pdf.js's JavaScript JPEG decoder (most of a scanned page's rendering time)
 * and draws the JPEG 2000 scans unpdf's pdf.js cannot decode. 300 dpi puts 8 pt text at ~33 px lines, where
 * Tesseract keeps decimal points that it drops at 200 dpi (`4.3` read `43`); recognition time grows
 * less than the pixel count (the LSTM sees each line scaled to a fixed height).
 */
export const RENDER_DPI = 300;

/** Skews under this are left alone: rotating resamples the page and costs more than it brings. */
const MIN_CORRECTION_DEGREES = 0.1;

export interface RenderedPage {
  pageNumber: number;
  /** Page size in PDF units, in the frame the image shows (after /Rotate). */
  width: number;
  height: number;
  image: PageImage;
  /** PDF units a pixel of the image spans (72 / dpi, or more on a page drawn under its size: `renderResolution`). */
  unitsPerPixel: number;
  /** The skew that was corrected (degrees, see deskew.ts). */
  skewDegrees: number;
  /**
   * The page as drawn, before straightening: a page the engine reads only turned a quarter (scanned
   * sideways) is turned from this and straightened afresh, its skew measured across its lines at last.
   */
  drawn: PageImage;
  /** The page as drawn with what surrounds its sheet made white, where something does (sheet-surround.ts): what its skew is measured on. */
  sheetAlone?: PageImage;
  /** What drew the page: its scanned images, decoded apart (a scan, scan-image-drawing.ts), or pdf.js. */
  renderer: 'scan-images' | 'pdf.js';
}

type CanvasFactory = Awaited<ReturnType<typeof createIsomorphicCanvasFactory>>;
type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof getDocumentProxy>>['getPage']>>;
type PageViewport = ReturnType<PdfPage['getViewport']>;
let canvasFactory: Promise<CanvasFactory> | undefined;

function factory(): Promise<CanvasFactory> {
  canvasFactory ??= createIsomorphicCanvasFactory(() => import('@napi-rs/canvas'));
  return canvasFactory;
}

/**
 * Where red sits among a pixel's four bytes in Canvas.data() (Skia's raw pixels, no conversion):
 * asked once of a one-pixel canvas rather than assumed, since Skia's native byte order is a build
 * choice (RGBA or BGRA).
 */
let redByte: 0 | 2 | undefined;

function redByteOf(Factory: CanvasFactory): 0 | 2 {
  if (redByte === undefined) {
    const { canvas, context } = new Factory().create(1, 1) as { canvas: Canvas; context: SKRSContext2D };
    context.fillStyle = '#ff0000';
    context.fillRect(0, 0, 1, 1);
    redByte = canvas.data()[0] === 255 ? 0 : 2;
  }
  return redByte;
}

/**
 * The canvas as 8-bit grey (ITU-R BT.601 luma in integer arithmetic). Read from Canvas.data(), Skia's
 * pixels as they are: getImageData converts and copies them first, which cost more than the page's
 * straightening. Canvases here are opaque (drawn on white), so premultiplied alpha changes nothing.
 */
function greyOf(canvas: Canvas, width: number, height: number, Factory: CanvasFactory): Uint8Array {
  const raw = canvas.data();
  // One read per pixel: its bytes from the lowest (Node runs little-endian on x64 and arm64).
  const pixels = new Uint32Array(raw.buffer, raw.byteOffset, width * height);
  const [redShift, blueShift] = redByteOf(Factory) === 0 ? [0, 16] : [16, 0];
  const grey = new Uint8Array(width * height);
  for (let i = 0; i < grey.length; i++) {
    const pixel = pixels[i]!;
    grey[i] = (((pixel >>> redShift) & 0xff) * 77 + ((pixel >>> 8) & 0xff) * 150 + ((pixel >>> blueShift) & 0xff) * 29) >> 8;
  }
  return grey;
}

/** A white canvas of the given size. */
function blank(width: number, height: number, Factory: CanvasFactory): { canvas: Canvas; context: SKRSContext2D } {
  const drawing = new Factory().create(width, height) as { canvas: Canvas; context: SKRSContext2D };
  drawing.context.fillStyle = '#ffffff';
  drawing.context.fillRect(0, 0, width, height);
  return drawing;
}

/**
 * Draws the page with pdf.js. `smoothImages` smooths every image however it is magnified (bicubic):
 * pdf.js decides per image, and a canvas whose smoothing cannot be turned off overrules it.
 */
async function drawWithPdfJs({ canvas, context }: { canvas: Canvas; context: SKRSContext2D }, page: PdfPage, viewport: PageViewport, smoothImages: boolean): Promise<void> {
  if (smoothImages) {
    context.imageSmoothingQuality = 'high';
    Object.defineProperty(context, 'imageSmoothingEnabled', { get: () => true, set: () => undefined, configurable: true });
  }
  // biome-ignore lint/suspicious/noExplicitAny: pdf.js types the context as the DOM's CanvasRenderingContext2D; Skia's implements what it uses
  await page.render({ canvas: canvas as any, canvasContext: context as any, viewport }).promise;
}

/**
 * Lets waiting I/O run between the synchronous stretches of a page (tenths of a second each): the
 * local runtime serves HTTP from the same thread that runs this step.
 */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Pixels a page may be drawn with: a legal-size sheet (8.5 × 14 in) at 300 dpi. A photo wrapped as a
 * PDF often gets a page the size of its pixels in points (a 12-megapixel photo: 42 × 56 in), which at
 * 300 dpi would be 200 megapixels (2.6 GB of memory, 38 s of CPU, and glyphs too tall for the engine).
 */
export const MAX_RENDER_PIXELS = 8.5 * 14 * 300 * 300;

/** Pixels per PDF inch to draw a page `size` (PDF units) with: `dpi`, or less where the page would exceed `MAX_RENDER_PIXELS`. */
export function renderResolution(size: { width: number; height: number }, dpi: number): number {
  return Math.min(dpi, 72 * Math.sqrt(MAX_RENDER_PIXELS / (size.width * size.height)));
}

/**
 * The page straightened: its skew measured at half the resolution (within 0.025° of the full one, in a
 * quarter of the time), on `measured` (the same page with what surrounds its sheet made white), then
 * corrected once, at full resolution.
 */
export async function straightenedPage(drawn: PageImage, measured: PageImage = drawn): Promise<{ image: PageImage; skewDegrees: number }> {
  const skewDegrees = estimateSkew(halved(measured));
  await yieldToEventLoop();
  return { image: Math.abs(skewDegrees) >= MIN_CORRECTION_DEGREES ? straightened(drawn, skewDegrees) : drawn, skewDegrees };
}

/** Renders `pageNumbers` of the PDF one at a time (a page's pixels are dropped before the next). */
export async function* renderPages(bytes: Uint8Array, pageNumbers: readonly number[], dpi = RENDER_DPI): AsyncGenerator<RenderedPage> {
  const Factory = await factory();
  const scanPages = await scannedImagePages(bytes);
  // pdf.js takes ownership of (detaches) the buffer it is given; the caller keeps theirs.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { ...PDFJS_OPTIONS, CanvasFactory: Factory } as Parameters<typeof getDocumentProxy>[1]);
  try {
    for (const pageNumber of pageNumbers) {
      const page = await pdf.getPage(pageNumber);
      const resolution = renderResolution(page.getViewport({ scale: 1 }), dpi);
      const viewport = page.getViewport({ scale: resolution / 72 });
      const width = Math.ceil(viewport.width);
      const height = Math.ceil(viewport.height);
      const scanImages = scanPages.get(pageNumber);
      const viewportTransform = viewport.transform as unknown as Matrix;
      const rendering = blank(width, height, Factory);
      const renderer = scanImages && (await drawScanImages(rendering.context, scanImages, viewportTransform)) ? 'scan-images' : 'pdf.js';
      if (renderer === 'pdf.js') await drawWithPdfJs(rendering, page, viewport, false);
      let grey = greyOf(rendering.canvas, width, height, Factory);
      // A black-and-white page (a fax) is drawn again with its images smoothed (bilevel.ts).
      if (renderer === 'pdf.js' && isBilevel(grey)) {
        const smoothed = blank(width, height, Factory);
        await drawWithPdfJs(smoothed, page, viewport, true);
        grey = greyOf(smoothed.canvas, width, height, Factory);
      }
      await yieldToEventLoop();
      // A photographed page's paper made evenly white before anything reads its grey levels (lighting.ts).
      // A page drawn smaller than `dpi` is a sheet of ordinary size shown on a page of a photo's size: its
      // glyphs are as many pixels tall as a sheet's at `dpi`, which is what the steps that size them by
      // the resolution (despeckling, the engine) are told.
      const asDrawn: PageImage = { width, height, dpi, grey };
      const drawn = evenlyLit(asDrawn);
      // A sheet that does not fill the frame (on a table, under an open lid) has its skew measured
      // without what surrounds it (sheet-surround.ts).
      const surround = surroundOf(asDrawn);
      const sheet = surround && whitened(drawn, surround);
      // A sheet photographed at a slant is drawn flat first (perspective.ts); it is then the whole picture.
      const quad = surround && sheetQuad(surround, asDrawn);
      const flat = sheet && quad && isSlanted(quad) ? flattened(sheet, quad) : undefined;
      const sheetAlone = flat ? undefined : sheet;
      const { image, skewDegrees } = await straightenedPage(flat ?? drawn, sheetAlone);
      await yieldToEventLoop();
      page.cleanup();
      const unitsPerPixel = 72 / resolution;
      yield { pageNumber, width: viewport.width * unitsPerPixel, height: viewport.height * unitsPerPixel, image, unitsPerPixel, skewDegrees, drawn: flat ?? drawn, sheetAlone, renderer };
    }
  } finally {
    await pdf.destroy();
  }
}

/** The page as PNG (for engines that take an image file, such as Amazon Textract). */
export async function pngOf(image: PageImage): Promise<Buffer> {
  const Factory = await factory();
  const { canvas, context } = new Factory().create(image.width, image.height) as { canvas: Canvas; context: SKRSContext2D };
  const pixels = context.createImageData(image.width, image.height);
  for (let i = 0, j = 0; i < image.grey.length; i++, j += 4) {
    const grey = image.grey[i]!;
    pixels.data[j] = grey;
    pixels.data[j + 1] = grey;
    pixels.data[j + 2] = grey;
    pixels.data[j + 3] = 255;
  }
  context.putImageData(pixels, 0, 0);
  return encodedCanvas(canvas, 'png');
}
