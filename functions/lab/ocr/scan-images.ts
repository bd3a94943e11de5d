import { decodePDFRawStream, PDFArray, PDFBool, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFStream } from 'pdf-lib';
import { type ContentOperator, contentOperators, type Operand } from './content-operators';
import { exifOrientation } from './jpeg-orientation';

/**
 * Pages that show nothing but JPEG images (what scanners, fax gateways and phone apps write), with
 * where each image is drawn. Such a page can be drawn from the JPEG bytes by a native decoder instead
 * of pdf.js, whose JPEG decoder is JavaScript and was most of a scanned page's rendering time.
 *
 * A page qualifies only when drawing its images alone gives what pdf.js would draw: its content draws
 * baseline 8-bit grey or RGB JPEGs (no mask, no decode array, no transparency) and text only in an
 * invisible mode (a scanner's hidden OCR layer, or the undecodable text of a custom-encoded font that
 * made the page need OCR). Anything else it draws — paths, other images, forms, shadings, visible
 * text — sends the page to pdf.js.
 */

/** A 2D affine transform [a, b, c, d, e, f], as PDF's `cm` and the canvas's setTransform take it. */
export type Matrix = readonly [number, number, number, number, number, number];

export interface PlacedJpeg {
  jpeg: Uint8Array;
  width: number;
  height: number;
  /**
   * The `cm` operands in effect at its `Do`, outermost first: their composition maps the image's unit
   * square to the page's user space. Kept apart so the image is drawn through the same sequence of
   * canvas transforms as pdf.js draws it (whose float rounding decides which sample a pixel takes).
   */
  concatenated: readonly Matrix[];
  /** The image's /Interpolate flag (pdf.js then always smooths it). */
  interpolate: boolean;
}

/** Operators that only set state no image depends on: colours, line style, text state, marked content. */
const STATE_ONLY = new Set([
  ...['g', 'G', 'rg', 'RG', 'k', 'K', 'cs', 'CS', 'sc', 'SC', 'scn', 'SCN'],
  ...['w', 'J', 'j', 'M', 'd', 'ri', 'i'],
  ...['BT', 'ET', 'Tc', 'Tw', 'Tz', 'TL', 'Tf', 'Ts', 'Td', 'TD', 'Tm', 'T*'],
  ...['BMC', 'BDC', 'EMC', 'MP', 'DP', 'BX', 'EX'],
]);
const SHOWS_TEXT = new Set(['Tj', 'TJ', "'", '"']);
/** The text render mode that paints nothing and clips nothing. */
const INVISIBLE_RENDER_MODE = 3;
/** ExtGState keys that change nothing but the alpha of what is painted. */
const ALPHA_KEYS = new Set(['Type', 'CA', 'ca']);

interface GraphicsState {
  /** The `cm` operands that make the CTM, outermost first. */
  ctm: readonly Matrix[];
  renderMode: number;
  fillAlpha: number;
  strokeAlpha: number;
}

function numbers(operands: readonly Operand[], count: number): number[] | undefined {
  if (operands.length !== count || operands.some((o) => typeof o !== 'number')) return undefined;
  return operands as number[];
}

function nameOf(operands: readonly Operand[]): string | undefined {
  const only = operands.length === 1 ? operands[0] : undefined;
  return typeof only === 'object' && 'name' in only ? only.name : undefined;
}

function isName(value: unknown, ...names: string[]): boolean {
  return value instanceof PDFName && names.includes(value.asString().slice(1));
}

/** The JPEG a `Do` paints, when it is one pdf.js would paint as decoded and nothing more. */
function jpegOf(xobject: PDFStream | undefined, concatenated: readonly Matrix[]): PlacedJpeg | undefined {
  if (!(xobject instanceof PDFRawStream)) return undefined;
  const { dict } = xobject;
  if (!isName(dict.lookup(PDFName.of('Subtype')), 'Image')) return undefined;
  const filter = dict.lookup(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray().map((_, i) => filter.lookup(i)) : [filter];
  if (filters.length !== 1 || !isName(filters[0], 'DCTDecode') || dict.has(PDFName.of('DecodeParms'))) return undefined;
  for (const key of ['SMask', 'Mask', 'Decode', 'SMaskInData']) if (dict.has(PDFName.of(key))) return undefined;
  const imageMask = dict.lookup(PDFName.of('ImageMask'));
  if (imageMask instanceof PDFBool && imageMask.asBoolean()) return undefined;
  if (dict.lookupMaybe(PDFName.of('BitsPerComponent'), PDFNumber)?.asNumber() !== 8) return undefined;
  if (!isDeviceGreyOrRgb(dict.lookup(PDFName.of('ColorSpace')), dict)) return undefined;
  // Skia would turn the image by its EXIF orientation; pdf.js draws the samples as stored.
  if (exifOrientation(xobject.contents) !== 1) return undefined;
  const width = dict.lookupMaybe(PDFName.of('Width'), PDFNumber)?.asNumber();
  const height = dict.lookupMaybe(PDFName.of('Height'), PDFNumber)?.asNumber();
  if (!width || !height) return undefined;
  const interpolate = dict.lookup(PDFName.of('Interpolate'));
  return { jpeg: xobject.contents, width, height, concatenated, interpolate: interpolate instanceof PDFBool && interpolate.asBoolean() };
}

/** DeviceGray, DeviceRGB, or an ICC profile of 1 or 3 components (drawn as those by pdf.js). */
function isDeviceGreyOrRgb(space: unknown, image: PDFDict): boolean {
  if (isName(space, 'DeviceGray', 'DeviceRGB')) return true;
  if (!(space instanceof PDFArray) || space.size() !== 2 || !isName(space.lookup(0), 'ICCBased')) return false;
  const profile = image.context.lookup(space.get(1));
  const components = (profile as PDFStream | undefined)?.dict?.lookupMaybe(PDFName.of('N'), PDFNumber)?.asNumber();
  return components === 1 || components === 3;
}

/** The alphas an ExtGState sets, when it sets nothing else. */
function alphasOf(state: PDFDict | undefined): { fill?: number; stroke?: number } | undefined {
  if (!state) return undefined;
  const keys = state.keys().map((k) => k.asString().slice(1));
  if (keys.some((k) => !ALPHA_KEYS.has(k))) return undefined;
  return { fill: state.lookupMaybe(PDFName.of('ca'), PDFNumber)?.asNumber(), stroke: state.lookupMaybe(PDFName.of('CA'), PDFNumber)?.asNumber() };
}

function paintsText(state: GraphicsState): boolean {
  // Modes 4–7 add the glyphs to the clipping path, which changes what later images show.
  if (state.renderMode >= 4) return true;
  if (state.renderMode === INVISIBLE_RENDER_MODE) return false;
  // 0 fills, 1 strokes, 2 does both.
  const fills = state.renderMode !== 1;
  const strokes = state.renderMode !== 0;
  return (fills && state.fillAlpha > 0) || (strokes && state.strokeAlpha > 0);
}

/** The page's JPEGs in drawing order, or undefined when it draws anything else (see above). */
function jpegsDrawnBy(operators: readonly ContentOperator[], resources: PDFDict | undefined): PlacedJpeg[] | undefined {
  const xobjects = resources?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  const extGStates = resources?.lookupMaybe(PDFName.of('ExtGState'), PDFDict);
  const stack: GraphicsState[] = [];
  let state: GraphicsState = { ctm: [], renderMode: 0, fillAlpha: 1, strokeAlpha: 1 };
  const placed: PlacedJpeg[] = [];
  for (const { operator, operands } of operators) {
    if (STATE_ONLY.has(operator)) continue;
    if (operator === 'q') {
      stack.push(state);
    } else if (operator === 'Q') {
      state = stack.pop() ?? state;
    } else if (operator === 'cm') {
      const m = numbers(operands, 6);
      if (!m) return undefined;
      state = { ...state, ctm: [...state.ctm, [m[0]!, m[1]!, m[2]!, m[3]!, m[4]!, m[5]!]] };
    } else if (operator === 'Tr') {
      const [mode] = numbers(operands, 1) ?? [];
      if (mode === undefined) return undefined;
      state = { ...state, renderMode: mode };
    } else if (operator === 'gs') {
      const name = nameOf(operands);
      const alphas = name === undefined ? undefined : alphasOf(extGStates?.lookupMaybe(PDFName.of(name), PDFDict));
      if (!alphas) return undefined;
      state = { ...state, fillAlpha: alphas.fill ?? state.fillAlpha, strokeAlpha: alphas.stroke ?? state.strokeAlpha };
    } else if (SHOWS_TEXT.has(operator)) {
      if (paintsText(state)) return undefined;
    } else if (operator === 'Do') {
      const name = nameOf(operands);
      if (name === undefined || state.fillAlpha !== 1) return undefined;
      const jpeg = jpegOf(xobjects?.lookupMaybe(PDFName.of(name), PDFStream), state.ctm);
      if (!jpeg) return undefined;
      placed.push(jpeg);
    } else {
      return undefined;
    }
  }
  return placed.length > 0 ? placed : undefined;
}

function contentBytes(contents: PDFStream | PDFArray | undefined): Uint8Array | undefined {
  const streams = contents instanceof PDFArray ? contents.asArray().map((_, i) => contents.lookup(i)) : [contents];
  const parts: Uint8Array[] = [];
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) return undefined;
    parts.push(decodePDFRawStream(stream).decode());
  }
  // Content streams of one page are one stream split anywhere between tokens (§7.8.2).
  return Buffer.concat(parts.flatMap((part) => [part, Buffer.from('\n')]));
}

/**
 * For each page (1-based) that shows only JPEGs, the JPEGs; pages that draw anything else, and every
 * page of a PDF pdf-lib cannot read (encrypted, damaged), are absent: pdf.js renders them.
 */
export async function scannedJpegPages(bytes: Uint8Array): Promise<Map<number, PlacedJpeg[]>> {
  const pages = new Map<number, PlacedJpeg[]>();
  let pdf: PDFDocument;
  try {
    pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    pdf.getPages().forEach((page, index) => {
      const content = contentBytes(page.node.Contents());
      const read = content && contentOperators(content);
      const jpegs = read && !read.inlineImage ? jpegsDrawnBy(read.operators, page.node.Resources()) : undefined;
      if (jpegs) pages.set(index + 1, jpegs);
    });
  } catch {
    // A PDF pdf-lib cannot read, or a stream it cannot decode (an unsupported filter): pdf.js renders it all.
    pages.clear();
  }
  return pages;
}
