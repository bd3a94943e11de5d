import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import { createIsomorphicCanvasFactory, getDocumentProxy } from 'unpdf';
import { estimateSkew } from './deskew';
import { drawJpegs } from './jpeg-drawing';
import type { PageImage } from './recognizer';
import { type Matrix, scannedJpegPages } from './scan-images';

/**
 * Pages rendered for OCR on @napi-rs/canvas (Skia; prebuilt for Linux x64 and arm64 on npm),
 * straightened, as 8-bit grey: by pdf.js (unpdf's build), or, for a page that shows only JPEGs (a scan,
 * scan-images.ts), from the JPEG bytes decoded by Skia and drawn the way pdf.js draws them, which spares
 * pdf.js's JavaScript JPEG decoder (most of a scanned page's rendering time). 300 dpi puts 8 pt text at ~33 px lines, where
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
  /** The skew that was corrected (degrees, see deskew.ts). */
  skewDegrees: number;
  /** What drew the page: its JPEGs decoded natively (a scan, jpeg-drawing.ts) or pdf.js. */
  renderer: 'jpeg' | 'pdf.js';
}

type CanvasFactory = Awaited<ReturnType<typeof createIsomorphicCanvasFactory>>;
type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof getDocumentProxy>>['getPage']>>;
type PageViewport = ReturnType<PdfPage['getViewport']>;
let canvasFactory: Promise<CanvasFactory> | undefined;

function factory(): Promise<CanvasFactory> {
  canvasFactory ??= createIsomorphicCanvasFactory(() => import('@napi-rs/canvas'));
  return canvasFactory;
}

function greyOf(context: SKRSContext2D, width: number, height: number): Uint8Array {
  const rgba = context.getImageData(0, 0, width, height).data;
  // One read per pixel: R, G, B, A are its bytes from the lowest (Node runs little-endian on x64 and arm64).
  const pixels = new Uint32Array(rgba.buffer, rgba.byteOffset, width * height);
  const grey = new Uint8Array(width * height);
  // ITU-R BT.601 luma in integer arithmetic.
  for (let i = 0; i < grey.length; i++) {
    const pixel = pixels[i]!;
    grey[i] = ((pixel & 0xff) * 77 + ((pixel >>> 8) & 0xff) * 150 + ((pixel >>> 16) & 0xff) * 29) >> 8;
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

/** The page's rendering drawn again under a transform of its pixels (smoothed), onto white. */
function redrawn(rendering: Canvas, transform: Matrix, width: number, height: number, Factory: CanvasFactory): SKRSContext2D {
  const { context } = blank(width, height, Factory);
  context.setTransform(...transform);
  context.drawImage(rendering, 0, 0);
  return context;
}

/** Turns the page's pixels by −`degrees` about its centre (straightening a skew of `degrees`). */
function straightening(degrees: number, width: number, height: number): Matrix {
  const radians = (-degrees * Math.PI) / 180;
  const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
  const [cx, cy] = [width / 2, height / 2];
  return [cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy];
}

async function drawWithPdfJs({ canvas, context }: { canvas: Canvas; context: SKRSContext2D }, page: PdfPage, viewport: PageViewport): Promise<void> {
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

/** Renders `pageNumbers` of the PDF one at a time (a page's pixels are dropped before the next). */
export async function* renderPages(bytes: Uint8Array, pageNumbers: readonly number[], dpi = RENDER_DPI): AsyncGenerator<RenderedPage> {
  const Factory = await factory();
  const jpegPages = await scannedJpegPages(bytes);
  // pdf.js takes ownership of (detaches) the buffer it is given; the caller keeps theirs.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, CanvasFactory: Factory } as Parameters<typeof getDocumentProxy>[1]);
  try {
    for (const pageNumber of pageNumbers) {
      const page = await pdf.getPage(pageNumber);
      const viewport = page.getViewport({ scale: dpi / 72 });
      const width = Math.ceil(viewport.width);
      const height = Math.ceil(viewport.height);
      const jpegs = jpegPages.get(pageNumber);
      const viewportTransform = viewport.transform as unknown as Matrix;
      const rendering = blank(width, height, Factory);
      const renderer = jpegs && (await drawJpegs(rendering.context, jpegs, viewportTransform)) ? 'jpeg' : 'pdf.js';
      if (renderer === 'pdf.js') await drawWithPdfJs(rendering, page, viewport);
      await yieldToEventLoop();
      // The skew is measured on the page at half the resolution (within 0.025° of the full one, in a
      // quarter of the time); then the page is straightened once at full resolution.
      const [halfWidth, halfHeight] = [Math.ceil(width / 2), Math.ceil(height / 2)];
      const half = greyOf(redrawn(rendering.canvas, [0.5, 0, 0, 0.5, 0, 0], halfWidth, halfHeight, Factory), halfWidth, halfHeight);
      const skewDegrees = estimateSkew({ width: halfWidth, height: halfHeight, grey: half });
      await yieldToEventLoop();
      const straightened = Math.abs(skewDegrees) >= MIN_CORRECTION_DEGREES ? redrawn(rendering.canvas, straightening(skewDegrees, width, height), width, height, Factory) : rendering.context;
      const grey = greyOf(straightened, width, height);
      await yieldToEventLoop();
      page.cleanup();
      yield { pageNumber, width: viewport.width * (72 / dpi), height: viewport.height * (72 / dpi), image: { width, height, dpi, grey }, skewDegrees, renderer };
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
  return canvas.encode('png');
}
