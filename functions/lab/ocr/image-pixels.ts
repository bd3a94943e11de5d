import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRef, PDFStream } from 'pdf-lib';

/**
 * The pixels of the images each page's resources hold (its own and its forms', however deep), read from
 * the image dictionaries alone: nothing is decoded, and an encrypted PDF's dictionaries read the same
 * (only strings and streams are encrypted). A page that holds no large image cannot be a scan, so the
 * costlier look at what it draws (page-drawing.ts) is spared: a text page's logo holds a few hundred
 * thousand pixels at most, a letter page scanned at 72 dpi holds 485,000.
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

/**
 * Each page's image pixels, in page order; undefined when pdf-lib cannot read the PDF's structure
 * (then every page may hold a scan).
 */
export async function imagePixelsByPage(bytes: Uint8Array): Promise<number[] | undefined> {
  try {
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true, throwOnInvalidObject: false });
    return pdf.getPages().map((page) => pixelsOf(page.node.Resources(), new Set()));
  } catch {
    return undefined;
  }
}
