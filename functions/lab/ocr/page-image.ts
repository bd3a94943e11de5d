import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import { createIsomorphicCanvasFactory, getDocumentProxy } from 'unpdf';
import { estimateSkew } from './deskew';
import type { PageImage } from './recognizer';

/**
 * Pages rendered for OCR by pdf.js (unpdf's build) on @napi-rs/canvas (Skia; prebuilt for Linux x64
 * and arm64 on npm), straightened, as 8-bit grey. 300 dpi puts 8 pt text at ~33 px lines, where
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
}

type CanvasFactory = Awaited<ReturnType<typeof createIsomorphicCanvasFactory>>;
let canvasFactory: Promise<CanvasFactory> | undefined;

function factory(): Promise<CanvasFactory> {
  canvasFactory ??= createIsomorphicCanvasFactory(() => import('@napi-rs/canvas'));
  return canvasFactory;
}

function greyOf(context: SKRSContext2D, width: number, height: number): Uint8Array {
  const rgba = context.getImageData(0, 0, width, height).data;
  const grey = new Uint8Array(width * height);
  // ITU-R BT.601 luma in integer arithmetic.
  for (let i = 0, j = 0; i < grey.length; i++, j += 4) grey[i] = (rgba[j]! * 77 + rgba[j + 1]! * 150 + rgba[j + 2]! * 29) >> 8;
  return grey;
}

function straightened(source: Canvas, degrees: number, Factory: CanvasFactory): { canvas: Canvas; context: SKRSContext2D } {
  const target = new Factory().create(source.width, source.height) as { canvas: Canvas; context: SKRSContext2D };
  const { context } = target;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, source.width, source.height);
  context.translate(source.width / 2, source.height / 2);
  context.rotate((-degrees * Math.PI) / 180);
  context.translate(-source.width / 2, -source.height / 2);
  context.drawImage(source, 0, 0);
  return target;
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
  // pdf.js takes ownership of (detaches) the buffer it is given; the caller keeps theirs.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, CanvasFactory: Factory } as Parameters<typeof getDocumentProxy>[1]);
  try {
    for (const pageNumber of pageNumbers) {
      const page = await pdf.getPage(pageNumber);
      const viewport = page.getViewport({ scale: dpi / 72 });
      const width = Math.ceil(viewport.width);
      const height = Math.ceil(viewport.height);
      const drawing = new Factory().create(width, height) as { canvas: Canvas; context: SKRSContext2D };
      drawing.context.fillStyle = '#ffffff';
      drawing.context.fillRect(0, 0, width, height);
      // biome-ignore lint/suspicious/noExplicitAny: pdf.js types the context as the DOM's CanvasRenderingContext2D; Skia's implements what it uses
      await page.render({ canvas: drawing.canvas as any, canvasContext: drawing.context as any, viewport }).promise;
      await yieldToEventLoop();
      let grey = greyOf(drawing.context, width, height);
      const skewDegrees = estimateSkew({ width, height, grey });
      await yieldToEventLoop();
      if (Math.abs(skewDegrees) >= MIN_CORRECTION_DEGREES) {
        grey = greyOf(straightened(drawing.canvas, skewDegrees, Factory).context, width, height);
        await yieldToEventLoop();
      }
      page.cleanup();
      yield { pageNumber, width: viewport.width * (72 / dpi), height: viewport.height * (72 / dpi), image: { width, height, dpi, grey }, skewDegrees };
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
