import { getDocumentProxy } from 'unpdf';
import { HaleError } from '../http/errors';
import { imagePixelsByPage, SCAN_PIXELS } from './ocr/image-pixels';
import { type PageDrawing, pageDrawing } from './ocr/page-drawing';
import { textLayerVerdict } from './ocr/text-layer';
import { uprightText } from './parsers/orientation';
import { PDFJS_OPTIONS } from './pdfjs-options';

/**
 * The text layer of a PDF with positions, read by pdf.js (bundled in unpdf). Parsers rebuild rows and
 * columns from these coordinates instead of trusting the order or the chunking of the text items.
 */

/**
 * One text run; `x`, `y` are the baseline origin in PDF units (origin bottom-left) of the page turned so
 * that its text reads left to right (see parsers/orientation.ts).
 */
export interface TextItem {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** OCR only: how sure the recogniser is of this word (0–1). Absent for text read from the text layer. */
  confidence?: number;
}

/**
 * Where a page's items come from: its own text layer, or OCR of its rendered image (one item per
 * recognised word, functions/lab/ocr). A page without `source` has no usable text layer (none, or text
 * that decodes to no recognisable tokens) and no items yet: it waits for recognition.
 */
export type PageSource = 'text' | 'ocr';

export interface PageText {
  /** 1-based. */
  pageNumber: number;
  width: number;
  height: number;
  items: TextItem[];
  source?: PageSource;
  /**
   * A searchable scan waiting for OCR: the text layer another program wrote, hidden from view (drawn
   * invisibly or under the page's image), which reads well. Read in its place only when OCR cannot read
   * the page (recognize-pages.ts), as from a scan whose image was stored coarser than the one that
   * program read.
   */
  hiddenLayer?: TextItem[];
}

/** The bytes are not a PDF pdf.js can read (corrupt, truncated, password-protected, not a PDF at all). */
export class InvalidPdfError extends HaleError {
  constructor(message: string, cause?: unknown) {
    super(400, 'invalid_pdf', message, { cause });
  }
}

/**
 * More of the PDF's pages need OCR than the caller reads (`maxScanPages`). Reading stops at the first
 * page over: looking at what a page draws decodes its images, and a searchable scan of hundreds of
 * pages would spend the step's time on pages it would refuse anyway.
 */
export class TooManyScannedPagesError extends HaleError {
  constructor(readonly limit: number) {
    super(400, 'too_many_pages', `The PDF has more than ${limit} scanned pages; upload one lab report per document`);
  }
}

/**
 * A page mostly covered by images (a scan, a photo) is read by OCR when its text layer is sparse, or
 * when most of its text is hidden, drawn invisibly or under an opaque image of the whole page: a
 * searchable scan, whose OCR layer another program wrote (its words placed as that program measured
 * them, with no confidence to flag a doubtful value by). Hale reads the image itself, as it reads any
 * scan, and falls back on that layer only where it cannot (`hiddenLayer`).
 */
const SCANNED_IMAGE_COVERAGE = 0.5;
/** More than this share of a page's characters hidden: its text is a hidden layer, not what the page shows. */
const HIDDEN_LAYER_SHARE = 0.5;

/** Whether a page whose text layer reads (`usable` or `sparse`) is a scan all the same. */
function isScanBehindText(verdict: 'usable' | 'sparse', drawing: PageDrawing): boolean {
  if (drawing.imageCoverage < SCANNED_IMAGE_COVERAGE) return false;
  return verdict === 'sparse' || drawing.invisibleCharacters + drawing.coveredCharacters > HIDDEN_LAYER_SHARE * drawing.textCharacters;
}

interface PdfJsTextItem {
  str: string;
  // biome-ignore lint/suspicious/noExplicitAny: pdf.js types the matrix as Array<any>; it holds six numbers
  transform: any[];
  width: number;
  height: number;
}

function isTextItem(item: object): item is PdfJsTextItem {
  return 'str' in item && 'transform' in item;
}

/**
 * Reads every page's text items with positions; empty and whitespace-only runs are dropped. A page
 * whose text layer is unusable (see ocr/text-layer.ts) comes back without `source` and without items,
 * for OCR to read; so does a page-sized image under a little text (a scan with a stamped header) or
 * with its text hidden (a searchable scan, its layer kept in `hiddenLayer`).
 */
export async function readPdfText(bytes: Uint8Array, { maxScanPages = Number.POSITIVE_INFINITY }: { maxScanPages?: number } = {}): Promise<PageText[]> {
  // pdf.js takes ownership of (detaches) the buffer it is given; the caller keeps theirs.
  const data = new Uint8Array(bytes);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(data, { ...PDFJS_OPTIONS, disableFontFace: true });
  } catch (error) {
    throw new InvalidPdfError('The file is not a readable PDF', error);
  }
  try {
    const imagePixels = await imagePixelsByPage(bytes, pdf.numPages);
    const mayBeScan = (pageNumber: number) => imagePixels?.length !== pdf.numPages || (imagePixels[pageNumber - 1] ?? 0) >= SCAN_PIXELS;
    const pages: PageText[] = [];
    let scanPages = 0;
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      const page = await pdf.getPage(pageNumber);
      const content = await page.getTextContent();
      const runs: PdfJsTextItem[] = [];
      for (const raw of content.items) if (isTextItem(raw) && raw.str.trim() !== '') runs.push(raw);
      const { items, width, height } = uprightText(runs, page.view as [number, number, number, number]);
      const verdict = textLayerVerdict(items);
      // A sparse page is looked at whatever its images (an inline image, which no dictionary lists, may be its scan).
      const looked = verdict === 'sparse' || (verdict === 'usable' && mayBeScan(pageNumber));
      const scanned = verdict === 'unusable' || (looked && isScanBehindText(verdict, await pageDrawing(page)));
      // A usable layer on a scan is a hidden one (a sparse layer is a stamp on the scan, not its text).
      const hidden = scanned && verdict === 'usable' ? { hiddenLayer: items } : {};
      pages.push(scanned ? { pageNumber, width, height, items: [], ...hidden } : { pageNumber, width, height, items, source: 'text' });
      page.cleanup();
      if (scanned && ++scanPages > maxScanPages) throw new TooManyScannedPagesError(maxScanPages);
    }
    return pages;
  } catch (error) {
    if (error instanceof TooManyScannedPagesError) throw error;
    throw new InvalidPdfError('The PDF could not be read', error);
  } finally {
    await pdf.destroy();
  }
}
