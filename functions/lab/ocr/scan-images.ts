import { decodePDFRawStream, PDFArray, PDFBool, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFStream } from 'pdf-lib';
import { type ContentOperator, contentOperators, type Operand } from './content-operators';
import { exifOrientation } from './jpeg-orientation';

/**
 * Pages that show nothing but JPEG images (what scanners, fax gateways and phone apps write) or JPEG
 * 2000 ones (PDF's JPXDecode, allowed since PDF 1.5 and in PDF/A-2 archives), with where each image is
 * drawn. Such a page is drawn from the
 * images' bytes (scan-image-drawing.ts): a JPEG by a native decoder instead of pdf.js's JavaScript one,
 * which was most of a scanned page's rendering time; a JPEG 2000 by pdf.js's own OpenJPEG decoder,
 * which unpdf's build of pdf.js leaves out (jpx-image.ts).
 *
 * A page qualifies only when drawing its images alone gives what pdf.js would draw: its content draws
 * 8-bit grey or RGB images (no mask, no decode array, no transparency) and text only in an invisible
 * mode (a scanner's hidden OCR layer, or the undecodable text of a custom-encoded font that made the
 * page need OCR). Anything else it draws — paths, other images, forms, shadings, visible text — sends
 * the page to pdf.js.
 */

/** A 2D affine transform [a, b, c, d, e, f], as PDF's `cm` and the canvas's setTransform take it. */
export type Matrix = readonly [number, number, number, number, number, number];

export interface PlacedScanImage {
  /** The image's stream as stored: a JPEG file, or a JPEG 2000 codestream or file. */
  bytes: Uint8Array;
  codec: 'jpeg' | 'jpx';
  /**
   * Colour components its colour space gives (1 grey, 3 RGB), or 0 where the PDF names none (allowed
   * for JPEG 2000 only, whose codestream then says).
   */
  colourComponents: 0 | 1 | 3;
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

/** The image's codec, by its one filter (with no parameters): JPEG or JPEG 2000; undefined for any other encoding. */
function codecOf(dict: PDFDict): PlacedScanImage['codec'] | undefined {
  const filter = dict.lookup(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray().map((_, i) => filter.lookup(i)) : [filter];
  if (filters.length !== 1 || dict.has(PDFName.of('DecodeParms'))) return undefined;
  if (isName(filters[0], 'DCTDecode')) return 'jpeg';
  if (isName(filters[0], 'JPXDecode')) return 'jpx';
  return undefined;
}

/** The scanned image a `Do` paints, when it is one pdf.js would paint as decoded and nothing more. */
function scanImageOf(xobject: PDFStream | undefined, concatenated: readonly Matrix[]): PlacedScanImage | undefined {
  if (!(xobject instanceof PDFRawStream)) return undefined;
  const { dict } = xobject;
  if (!isName(dict.lookup(PDFName.of('Subtype')), 'Image')) return undefined;
  const codec = codecOf(dict);
  if (!codec) return undefined;
  for (const key of ['SMask', 'Mask', 'Decode', 'SMaskInData']) if (dict.has(PDFName.of(key))) return undefined;
  const imageMask = dict.lookup(PDFName.of('ImageMask'));
  if (imageMask instanceof PDFBool && imageMask.asBoolean()) return undefined;
  // A JPEG 2000 image may leave its depth and colours to its codestream (ISO 32000-2, 8.9.5).
  const optional = codec === 'jpx';
  const bits = dict.lookupMaybe(PDFName.of('BitsPerComponent'), PDFNumber)?.asNumber();
  if (bits !== 8 && !(optional && bits === undefined)) return undefined;
  const space = dict.lookup(PDFName.of('ColorSpace'));
  const colourComponents = space === undefined && optional ? 0 : greyOrRgbComponents(space, dict);
  if (colourComponents === undefined) return undefined;
  // Skia would turn a JPEG by its EXIF orientation; pdf.js draws the samples as stored.
  if (codec === 'jpeg' && exifOrientation(xobject.contents) !== 1) return undefined;
  const width = dict.lookupMaybe(PDFName.of('Width'), PDFNumber)?.asNumber();
  const height = dict.lookupMaybe(PDFName.of('Height'), PDFNumber)?.asNumber();
  if (!width || !height) return undefined;
  const interpolate = dict.lookup(PDFName.of('Interpolate'));
  return { bytes: xobject.contents, codec, colourComponents, width, height, concatenated, interpolate: interpolate instanceof PDFBool && interpolate.asBoolean() };
}

/** 1 for DeviceGray, 3 for DeviceRGB, or an ICC profile's 1 or 3 components (drawn as those by pdf.js); undefined for any other space. */
function greyOrRgbComponents(space: unknown, image: PDFDict): 1 | 3 | undefined {
  if (isName(space, 'DeviceGray')) return 1;
  if (isName(space, 'DeviceRGB')) return 3;
  if (!(space instanceof PDFArray) || space.size() !== 2 || !isName(space.lookup(0), 'ICCBased')) return undefined;
  const profile = image.context.lookup(space.get(1));
  const components = (profile as PDFStream | undefined)?.dict?.lookupMaybe(PDFName.of('N'), PDFNumber)?.asNumber();
  return components === 1 || components === 3 ? components : undefined;
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

/** The page's scanned images in drawing order, or undefined when it draws anything else (see above). */
function scanImagesDrawnBy(operators: readonly ContentOperator[], resources: PDFDict | undefined): PlacedScanImage[] | undefined {
  const xobjects = resources?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  const extGStates = resources?.lookupMaybe(PDFName.of('ExtGState'), PDFDict);
  const stack: GraphicsState[] = [];
  let state: GraphicsState = { ctm: [], renderMode: 0, fillAlpha: 1, strokeAlpha: 1 };
  const placed: PlacedScanImage[] = [];
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
      const image = scanImageOf(xobjects?.lookupMaybe(PDFName.of(name), PDFStream), state.ctm);
      if (!image) return undefined;
      placed.push(image);
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
 * For each page (1-based) that shows only scanned images, the images; pages that draw anything else,
 * and every page of a PDF pdf-lib cannot read (encrypted, damaged), are absent: pdf.js renders them.
 */
export async function scannedImagePages(bytes: Uint8Array): Promise<Map<number, PlacedScanImage[]>> {
  const pages = new Map<number, PlacedScanImage[]>();
  let pdf: PDFDocument;
  try {
    pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    pdf.getPages().forEach((page, index) => {
      const content = contentBytes(page.node.Contents());
      const read = content && contentOperators(content);
      const images = read && !read.inlineImage ? scanImagesDrawnBy(read.operators, page.node.Resources()) : undefined;
      if (images) pages.set(index + 1, images);
    });
  } catch {
    // A PDF pdf-lib cannot read, or a stream it cannot decode (an unsupported filter): pdf.js renders it all.
    pages.clear();
  }
  return pages;
}
