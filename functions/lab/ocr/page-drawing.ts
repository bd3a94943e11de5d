import { getResolvedPDFJS } from 'unpdf';
import type { Matrix } from './scan-images';

/**
 * What a page draws, as far as telling a scan from a text page needs: how much of it images cover, and
 * how much of its text is hidden, drawn invisibly or under the page's image. Read from pdf.js's operator
 * list, which decodes the page's images, so a page whose text reads well is asked only when it holds a
 * large image (image-pixels.ts).
 */

/** pdf.js's store of a page's decoded images (`objs`, and `commonObjs` for those pages share). */
interface ObjectStore {
  get(id: string, callback: (data: unknown) => void): null;
}

interface PageWithOperators {
  view: number[];
  getOperatorList(): Promise<{ fnArray: number[]; argsArray: unknown[] }>;
  objs: ObjectStore;
  commonObjs: ObjectStore;
}

export interface PageDrawing {
  /** Share of the page (0–1, capped) that its images paint over. */
  imageCoverage: number;
  /** Characters its text operators show (spaces left out). */
  textCharacters: number;
  /**
   * Of those, the ones drawn invisibly: in render mode 3 (neither filled nor stroked) or 7 (clipping
   * only), or filled at alpha 0 (ISO 32000-1 §9.3.6, §11.3.7.2). A searchable scan carries its OCR
   * layer this way over the page's image.
   */
  invisibleCharacters: number;
  /**
   * Of the others, the ones an opaque image drawn after them covers, with most of the page: the
   * searchable scans that put their OCR layer under the page's image in ordinary ink (ABBYY
   * FineReader's "text under the page image"), which a viewer never shows.
   */
  coveredCharacters: number;
}

/** Share of the page an image must cover to hide the text drawn before it. */
const COVERING_SHARE = 0.9;
/** How long to wait for pdf.js to hand over a decoded image (it resolves every one, with null when it cannot decode it). */
const IMAGE_WAIT_MS = 5_000;

/** Render modes that paint no glyph: 3 (invisible) and 7 (add to the clipping path only). */
const INVISIBLE_RENDER_MODES = new Set([3, 7]);
/** Render modes that fill glyphs (0 fill, 2 fill and stroke, 4 and 6 the same and clip), which a fill alpha of 0 hides. */
const FILLING_RENDER_MODES = new Set([0, 2, 4, 6]);

interface State {
  ctm: Matrix;
  renderMode: number;
  fillAlpha: number;
}

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

function isMatrix(value: unknown): value is Matrix {
  return Array.isArray(value) && value.length === 6 && value.every((v) => typeof v === 'number');
}

/** Non-space characters of a showText operand: pdf.js's glyphs, between numbers that only move the pen. */
function shownCharacters(glyphs: unknown): number {
  if (!Array.isArray(glyphs)) return 0;
  let count = 0;
  for (const glyph of glyphs) {
    if (typeof glyph !== 'object' || glyph === null) continue;
    const unicode = (glyph as { unicode?: unknown }).unicode;
    if (typeof unicode === 'string' && unicode.trim() !== '') count += unicode.trim().length;
  }
  return count;
}

/** The fill alpha an ExtGState sets (`ca`), as pdf.js passes it: a list of [key, value] pairs. */
function fillAlphaOf(args: unknown): number | undefined {
  const pairs = Array.isArray(args) ? args[0] : undefined;
  if (!Array.isArray(pairs)) return undefined;
  for (const pair of pairs) if (Array.isArray(pair) && pair[0] === 'ca' && typeof pair[1] === 'number') return pair[1];
  return undefined;
}

function isInvisible(state: State): boolean {
  return INVISIBLE_RENDER_MODES.has(state.renderMode) || (state.fillAlpha === 0 && FILLING_RENDER_MODES.has(state.renderMode));
}

/** The decoded image an image operator paints: its data inline, or the object pdf.js stored it as. */
function decodedImage(page: PageWithOperators, image: unknown): Promise<unknown> {
  if (typeof image !== 'string') return Promise.resolve(image);
  const store = image.startsWith('g_') ? page.commonObjs : page.objs;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), IMAGE_WAIT_MS);
    store.get(image, (data) => {
      clearTimeout(timer);
      resolve(data);
    });
  });
}

/**
 * Whether an image paints over all it covers: decoded without an alpha channel (pdf.js decodes an image
 * with a soft mask or a colour-key mask as RGBA) and drawn at full alpha. A stencil mask paints only its
 * ink, and is never asked.
 */
async function isOpaque(page: PageWithOperators, image: unknown, state: State, rgbaKind: number): Promise<boolean> {
  if (state.fillAlpha !== 1) return false;
  const data = await decodedImage(page, image);
  if (typeof data !== 'object' || data === null || !('kind' in data)) return false;
  return (data as { kind: unknown }).kind !== rgbaKind;
}

/**
 * An image is drawn into the unit square under the current transformation matrix, so its area is the
 * matrix's determinant. Forms are flattened into the list between their begin and end operators.
 */
export async function pageDrawing(page: PageWithOperators): Promise<PageDrawing> {
  const { OPS, ImageKind } = await getResolvedPDFJS();
  const images = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintImageXObjectRepeat]);
  /** Images that paint a picture (not a stencil mask's ink), drawn once where the matrix puts them. */
  const pictures = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject]);
  const { fnArray, argsArray } = await page.getOperatorList();
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
  const pageArea = Math.abs((x1 - x0) * (y1 - y0));
  const stack: State[] = [];
  let state: State = { ctm: [1, 0, 0, 1, 0, 0], renderMode: 0, fillAlpha: 1 };
  let imageArea = 0;
  let textCharacters = 0;
  let invisibleCharacters = 0;
  let coveredCharacters = 0;
  /** Characters drawn visibly and not yet covered by an image. */
  let showing = 0;
  for (let i = 0; i < fnArray.length; i++) {
    const op = fnArray[i]!;
    const args = argsArray[i];
    if (op === OPS.save) stack.push(state);
    else if (op === OPS.restore) state = stack.pop() ?? state;
    else if (op === OPS.transform && isMatrix(args)) state = { ...state, ctm: multiply(state.ctm, args) };
    else if (op === OPS.paintFormXObjectBegin) {
      stack.push(state);
      const matrix = Array.isArray(args) ? args[0] : undefined;
      if (isMatrix(matrix)) state = { ...state, ctm: multiply(state.ctm, matrix) };
    } else if (op === OPS.paintFormXObjectEnd) state = stack.pop() ?? state;
    else if (op === OPS.setTextRenderingMode && Array.isArray(args) && typeof args[0] === 'number') state = { ...state, renderMode: args[0] };
    else if (op === OPS.setGState) state = { ...state, fillAlpha: fillAlphaOf(args) ?? state.fillAlpha };
    else if (op === OPS.showText && Array.isArray(args)) {
      const count = shownCharacters(args[0]);
      textCharacters += count;
      if (isInvisible(state)) invisibleCharacters += count;
      else showing += count;
    } else if (images.has(op)) {
      const area = Math.abs(state.ctm[0] * state.ctm[3] - state.ctm[1] * state.ctm[2]);
      imageArea += area;
      const image = Array.isArray(args) ? args[0] : undefined;
      if (showing > 0 && pictures.has(op) && area >= COVERING_SHARE * pageArea && (await isOpaque(page, image, state, ImageKind.RGBA_32BPP))) {
        coveredCharacters += showing;
        showing = 0;
      }
    }
  }
  return { imageCoverage: pageArea > 0 ? Math.min(1, imageArea / pageArea) : 0, textCharacters, invisibleCharacters, coveredCharacters };
}
