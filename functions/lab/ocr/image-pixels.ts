import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRef, PDFStream } from 'pdf-lib';

/**
 * The pixels of the images each page's resources hold (its own and its forms', however deep), read from
 * the image dictionaries alone: nothing is decoded, and an encrypted PDF's dictionaries read the same
 * (only strings and streams are encrypted). A page whose images are too small to hold a readable page
 * cannot be a scan, so the costlier look at what it draws (page-drawing.ts) is spared it: the look
 * decodes every image, a text page's logo too.
 */

/**
 * Images of at least this many pixels together may be a scan: a letter page at 50 dpi (425 × 550),
 * below the resolution anything on it can be read at.
 */
export const SCAN_PIXELS = 200_000;

function pixelsOf(resources: PDFDict | undefined, seen: Set<PDFDict>): number {
  if (!resources || seen.has(resources)) return 0;
  seen.add(resources);
  const xobjects = resources.lookupMaybe(PDFName.of('XObject'), PDFDict);
  let pixels = 0;
  for (const [, value] of xobjects?.entries() ?? []) {
    const xobject = value instanceof PDFRef ? resources.context.lookup(value) : value;
    if (!(xobject instanceof PDFStream)) continue;
    const { dict } = xobject;
    const subtype = dict.lookupMaybe(PDFName.of('Subtype'), PDFName)?.asString();
    if (subtype === '/Image') {
      const width = dict.lookupMaybe(PDFName.of('Width'), PDFNumber)?.asNumber() ?? 0;
      const height = dict.lookupMaybe(PDFName.of('Height'), PDFNumber)?.asNumber() ?? 0;
      pixels += width * height;
    } else if (subtype === '/Form') {
      pixels += pixelsOf(dict.lookupMaybe(PDFName.of('Resources'), PDFDict), seen);
    }
  }
  return pixels;
}

/** Bytes that end a PDF name (whitespace and delimiters, ISO 32000-1 §7.2.2). */
const NAME_ENDS = new Set([...'\0\t\n\f\r ()<>[]{}/%'].map((c) => c.charCodeAt(0)));

/**
 * Whether the file names `/Image` anywhere (not `/ImageB` and the like, ProcSet's names). An image
 * XObject is a stream, and a stream's dictionary is never packed in an object stream (§7.5.7), so
 * every image XObject's `/Subtype /Image` stands in the file as written: a file without the name holds
 * no image XObject, and pdf-lib need not read it. (A name spelt with `#` escapes, `/Im#61ge`, is
 * legal but written by no producer.)
 */
export function namesImage(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = buffer.indexOf('/Image'); at >= 0; at = buffer.indexOf('/Image', at + 6)) {
    const next = buffer[at + 6];
    if (next === undefined || NAME_ENDS.has(next)) return true;
  }
  return false;
}

/**
 * Each page's image pixels, in page order, for a PDF of `pageCount` pages; undefined when pdf-lib
 * cannot read the PDF's structure (then every page may hold a scan).
 */
export async function imagePixelsByPage(bytes: Uint8Array, pageCount: number): Promise<number[] | undefined> {
  if (!namesImage(bytes)) return new Array<number>(pageCount).fill(0);
  try {
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true, throwOnInvalidObject: false });
    return pdf.getPages().map((page) => pixelsOf(page.node.Resources(), new Set()));
  } catch {
    return undefined;
  }
}
