import type { PageText } from '../pdf-text';
import { withDecimalPoint } from './decimal-points';
import { inkShare, linesRunDown } from './deskew';
import { despeckle } from './despeckle';
import { emboldened, halved, turned } from './grey-geometry';
import { withMisreadZeros } from './misread-zeros';
import { RENDER_DPI, type RenderedPage, renderPages, straightenedPage } from './page-image';
import { withoutPhantomMark } from './phantom-mark';
import { withDroppedHyphen, withRangeMarksRestored, withRangeSpacing, withSplitPointsJoined, withSplitRangesJoined } from './range-hyphens';
import { type PageImage, type RecognizedWord, type TextRecognizer, wordsToItems } from './recognizer';
import { withDoubtedNumbersReadAgain, withInkBesideRead, withMisshapenRangesReadAgain } from './second-reading';
import { withSpeckHyphenSplit } from './speck-hyphens';
import { isLightType, strokeWeight } from './stroke-weight';
import { withTrailingPeriod } from './trailing-period';
import { uncoveredInk, wordBeside } from './uncovered-ink';
import { withUnitLetterCase } from './unit-letter-case';
import { withUnitLostStroke } from './unit-lost-stroke';
import { withUnspacedWordsJoined } from './unspaced-words';

/**
 * Recognises pages that have no usable text layer into the same positioned text the reader consumes
 * (PageText with `source: 'ocr'`, one item per word with its confidence), page by page. A page with
 * ink that OCR cannot turn into words is not read as an empty page: the caller ends the job
 * `unreadable_document` instead of reporting a document without results.
 */

/** Less ink than this (share of pixels) is a blank page: nothing to read, nothing lost. */
const BLANK_PAGE_INK = 0.002;
/** Words OCR must be this sure of for a page to count as read. */
const CONFIDENT_WORD = 0.6;
/** A page with ink needs at least this many confident words, and most of its text read confidently. */
const MIN_CONFIDENT_WORDS = 5;
const MIN_CONFIDENT_SHARE = 0.5;
/** The smallest letter or digit, as a share of its line's height. */
const MIN_GLYPH_SHARE = 0.25;
/** Under this confidence one or two marks are a speck whatever they read as. */
const SURE_SPECK = 0.3;
/** The height of a `%` as a share of its line's: a glyph as tall as a digit. */
const MIN_PERCENT_SHARE = 0.5;

/**
 * A lone `%` the engine doubted, as tall as a digit: a unit column's whole cell (Labcorp's HbA1c), not
 * a speck, which comes back as a point, a dash or a quote; two rings and a stroke are no dust's shape.
 */
function isLonePercent(word: RecognizedWord): boolean {
  return word.text === '%' && word.confidence >= SURE_SPECK && word.y1 - word.y0 >= MIN_PERCENT_SHARE * (word.lineHeight ?? word.y1 - word.y0);
}

/**
 * Specks of noise come back as lone punctuation the engine doubts (`:`, `;`, `©`) or as one or two
 * marks it barely believes; they are not text, and left in they would stand between a row's cells.
 */
function isSpeck(word: RecognizedWord): boolean {
  if (word.confidence < CONFIDENT_WORD && !/[\p{L}\p{N}]/u.test(word.text) && !isLonePercent(word)) return true;
  // No letter or digit is shorter than a quarter of its line (a lower-case x is over a third): a
  // "word" of them that is, is a speck the engine read as a `3` or an `i`.
  if (word.lineHeight !== undefined && /[\p{L}\p{N}]/u.test(word.text) && word.y1 - word.y0 < MIN_GLYPH_SHARE * word.lineHeight) return true;
  return word.confidence < SURE_SPECK && word.text.trim().length <= 2;
}

/** Median box height of the words read with confidence: the page's text size in pixels. */
function medianTextHeight(words: readonly RecognizedWord[]): number {
  const heights = words
    .filter((w) => w.confidence >= CONFIDENT_WORD && /[\p{L}\p{N}]/u.test(w.text))
    .map((w) => w.y1 - w.y0)
    .sort((a, b) => a - b);
  return heights.length === 0 ? 0 : heights[heights.length >> 1]!;
}

export class UnreadablePageError extends Error {
  override name = 'UnreadablePageError';
  constructor(readonly pageNumber: number) {
    super(`Page ${pageNumber} could not be read by OCR`);
  }
}

export interface PageRecognition {
  page: PageText;
  skewDegrees: number;
  /** Quarter turns clockwise the page was read at (0 upright; 2 a sheet scanned upside down; 1 or 3 one scanned sideways). */
  quarterTurns: number;
  renderer: RenderedPage['renderer'];
  /** Mean word confidence (0–1); null for a blank page. */
  meanConfidence: number | null;
}

/** Whether OCR read the page: enough words it is sure of, and most of its characters in such words. */
export function isReadable(words: readonly { str: string; confidence?: number }[]): boolean {
  const confident = words.filter((w) => (w.confidence ?? 0) >= CONFIDENT_WORD);
  const characters = (list: readonly { str: string }[]) => list.reduce((sum, w) => sum + w.str.length, 0);
  return confident.length >= MIN_CONFIDENT_WORDS && characters(confident) >= MIN_CONFIDENT_SHARE * characters(words);
}

export async function* recognizePages(
  bytes: Uint8Array,
  pageNumbers: readonly number[],
  recognizer: TextRecognizer,
  dpi = RENDER_DPI,
  /** Where the page images come from (a test watches or breaks the rendering through it). */
  render: typeof renderPages = renderPages,
): AsyncGenerator<PageRecognition> {
  const rendering = render(bytes, pageNumbers, dpi);
  // Pages are rendered one after another (on this thread) while the engines read the pages before
  // (on their own): a scanned document takes about its engines' time, not theirs and the renderer's.
  const renderNext = () => {
    const page = rendering.next();
    // Its failure is raised when the page is awaited, after the current one; until then it is no unhandled rejection.
    page.catch(() => undefined);
    return page;
  };
  const parallel = Math.max(1, recognizer.parallelism ?? 1);
  /** Readings under way, in page order; results are yielded in that order. */
  const reading: Promise<PageRecognition>[] = [];
  /** Sets a reading aside: it is raised when its turn comes, and one left behind by an early stop is no unhandled rejection. */
  const enqueue = (read: Promise<PageRecognition>) => {
    read.catch(() => undefined);
    reading.push(read);
  };
  let next = renderNext();
  let rendered = false;
  try {
    for (;;) {
      while (!rendered && reading.length < parallel) {
        const current = await next.catch((error: unknown) => ({ failed: error }));
        if ('failed' in current) {
          // A page that failed to render fails the reading in its turn, after the pages before it.
          rendered = true;
          enqueue(Promise.reject(current.failed));
        } else if (current.done) {
          rendered = true;
        } else {
          next = renderNext();
          enqueue(recognizeRendered(current.value, recognizer));
        }
      }
      const first = reading.shift();
      if (!first) return;
      yield await first;
    }
  } finally {
    // Stopped early (an unreadable page, a consumer that left): the page being rendered is let go.
    await rendering.return(undefined);
  }
}

/**
 * Turns tried, in order, on a page the engine cannot read upright: a sheet fed into the scanner upside
 * down (read upright, its text is no words at all, and the job would end unreadable), then one scanned
 * or photographed sideways, either way; the quarter turns first where the page's lines run down it
 * (`linesRunDown`), so that a sideways page is read two or three times rather than three or four.
 */
const TURNS_TRIED = [2, 1, 3] as const;
const TURNS_TRIED_SIDEWAYS = [1, 3, 2] as const;

interface OrientedReading {
  image: PageImage;
  words: RecognizedWord[];
  quarterTurns: number;
  skewDegrees: number;
}

/** Three letters or digits in a row: what a word read the right way up holds, and text read sideways seldom does. */
const WORD_LIKE = /[\p{L}\p{N}]{3}/u;

/**
 * Whether the engine's words, specks aside, read as text (`isReadable`), with at least
 * `MIN_CONFIDENT_WORDS` sure words of three letters or digits: a page of small Times read sideways
 * came back as sure single letters and marks (`a`, `w`, `=`, `SS`), enough to pass for text by their
 * share, and was never turned.
 */
function readsAsText(words: readonly RecognizedWord[]): boolean {
  const kept = words.filter((w) => !isSpeck(w));
  const wordLike = kept.filter((w) => w.confidence >= CONFIDENT_WORD && WORD_LIKE.test(w.text));
  return wordLike.length >= MIN_CONFIDENT_WORDS && isReadable(kept.map((w) => ({ str: w.text, confidence: w.confidence })));
}

/**
 * The page read the way its text runs: upright, or turned by the first of `TURNS_TRIED` that reads as
 * text; upright when none does (the page is then unreadable). A page scanned sideways had its skew
 * measured across its lines, which says nothing: it is turned as drawn and straightened afresh.
 * Nothing changes for a page that reads upright: the turns cost only pages that would have failed.
 */
async function orientedReading(rendered: RenderedPage, recognizer: TextRecognizer): Promise<OrientedReading> {
  const { image: upright, blobs } = despeckle(rendered.image);
  // A light type is read a pixel bolder (stroke-weight.ts); the repairs after look at the page as drawn.
  const bolder = isLightType(strokeWeight(upright, blobs));
  const read = (image: PageImage) => recognizer.recognize(bolder ? emboldened(image) : image);
  const words = await read(upright);
  if (readsAsText(words)) return { image: upright, words, quarterTurns: 0, skewDegrees: rendered.skewDegrees };
  for (const quarterTurns of linesRunDown(halved(rendered.image)) ? TURNS_TRIED_SIDEWAYS : TURNS_TRIED) {
    const page = quarterTurns % 2 === 0 ? { image: turned(upright, quarterTurns), skewDegrees: rendered.skewDegrees } : await straightenedPage(turned(rendered.drawn, quarterTurns), rendered.sheetAlone && turned(rendered.sheetAlone, quarterTurns));
    const image = quarterTurns % 2 === 0 ? page.image : despeckle(page.image).image;
    const turnedWords = await read(image);
    if (readsAsText(turnedWords)) return { image, words: turnedWords, quarterTurns, skewDegrees: page.skewDegrees };
  }
  return { image: upright, words, quarterTurns: 0, skewDegrees: rendered.skewDegrees };
}

/**
 * A page's words, those the engine split joined again: a range's two numbers, neighbours too close for a
 * space, then a number parted at its point (after those, for its pieces may be pieces themselves: `0`
 * `2-1.` `2` for `0.2-1.2`). Ranges in a shape no printer prints are read again, and every word is looked
 * at again for its decimal point, for a join can make a number of two words with its point misread
 * (`9s` `4`: `9s4`, the image's `9.4`).
 */
async function joinedWords(words: readonly RecognizedWord[], image: PageImage, recognizer: TextRecognizer): Promise<RecognizedWord[]> {
  const joined = withSplitPointsJoined(withUnspacedWordsJoined(withSplitRangesJoined(words, image)), image);
  return (await withMisshapenRangesReadAgain(joined, image, recognizer)).map((w) => withRangeSpacing(withDecimalPoint(w, image), image));
}

/** One rendered page read: blank, its words (with a second look at ink left without words), or unreadable. */
async function recognizeRendered(rendered: RenderedPage, recognizer: TextRecognizer): Promise<PageRecognition> {
  const { pageNumber, image, unitsPerPixel, renderer } = rendered;
  if (inkShare(image) < BLANK_PAGE_INK) {
    return { page: { pageNumber, width: rendered.width, height: rendered.height, items: [], source: 'ocr' }, skewDegrees: rendered.skewDegrees, quarterTurns: 0, renderer, meanConfidence: null };
  }
  const oriented = await orientedReading(rendered, recognizer);
  const { image: clean, quarterTurns, skewDegrees } = oriented;
  // The page's frame turns with its text: a quarter turn swaps its width and height.
  const [width, height] = quarterTurns % 2 === 0 ? [rendered.width, rendered.height] : [rendered.height, rendered.width];
  const read = async (found: Promise<RecognizedWord[]>) => (await found)
      .flatMap((w) => withSpeckHyphenSplit(w, clean))
      .map((w) => withTrailingPeriod(withUnitLostStroke(withUnitLetterCase(withMisreadZeros(withDroppedHyphen(withDecimalPoint(withRangeMarksRestored(withoutPhantomMark(w, clean), clean), clean), clean), clean), clean), clean), clean))
      .filter((w) => !isSpeck(w));
  const words = await read(withDoubtedNumbersReadAgain(oriented.words, clean, recognizer));
  // A second, single-line look at ink the page reading left without words (a lone value the sparse
  // mode missed); cheap, for the regions are few and small. What it doubts is read again as page words are.
  if (recognizer.recognizeLine) {
    const textHeight = medianTextHeight(words);
    for (const region of uncoveredInk(clean, words, { textHeight })) {
      const beside = wordBeside(region, words, textHeight);
      const whole = beside < 0 ? undefined : await withInkBesideRead(words[beside]!, region, clean, recognizer);
      if (whole) {
        words[beside] = whole;
        continue;
      }
      words.push(...(await read(withDoubtedNumbersReadAgain(await recognizer.recognizeLine(clean, region), clean, recognizer))));
    }
  }
  const items = wordsToItems(await joinedWords(words, clean, recognizer), unitsPerPixel, height);
  if (!isReadable(items)) throw new UnreadablePageError(pageNumber);
  const meanConfidence = items.reduce((sum, item) => sum + (item.confidence ?? 0), 0) / items.length;
  return { page: { pageNumber, width, height, items, source: 'ocr' }, skewDegrees, quarterTurns, renderer, meanConfidence };
}

/** A searchable scan's page OCR could not read, read from the text layer another program hid in it. */
export interface LayerReading {
  page: PageText;
  fromHiddenLayer: true;
}

/**
 * Every page waiting for recognition (no `source`) read by OCR, in page order. A searchable scan's page
 * OCR cannot read is read from its hidden layer instead (`source: 'text'`: the words another program
 * recognised, perhaps from a finer image than the file keeps, with no confidence to flag one by), and
 * the pages after it are read on; any other page OCR cannot read ends the reading (UnreadablePageError).
 */
export async function* recognizeWaitingPages(
  bytes: Uint8Array,
  pages: readonly PageText[],
  recognizer: TextRecognizer,
  render: typeof renderPages = renderPages,
): AsyncGenerator<PageRecognition | LayerReading> {
  let waiting = pages.filter((p) => p.source === undefined);
  while (waiting.length > 0) {
    try {
      yield* recognizePages(bytes, waiting.map((p) => p.pageNumber), recognizer, RENDER_DPI, render);
      return;
    } catch (error) {
      const page = error instanceof UnreadablePageError ? waiting.find((p) => p.pageNumber === error.pageNumber) : undefined;
      if (!page?.hiddenLayer) throw error;
      const { pageNumber, width, height, hiddenLayer } = page;
      yield { page: { pageNumber, width, height, items: hiddenLayer, source: 'text' }, fromHiddenLayer: true };
      // The pages before it were read; the reading goes on after it.
      waiting = waiting.slice(waiting.indexOf(page) + 1);
    }
  }
}

/** Fills every page that waits for recognition (no `source`) with its OCR text (or its hidden layer, above); other pages stay as they are. */
export async function withRecognizedPages(bytes: Uint8Array, pages: readonly PageText[], recognizer: TextRecognizer): Promise<PageText[]> {
  const recognized = new Map<number, PageText>();
  for await (const { page } of recognizeWaitingPages(bytes, pages, recognizer)) recognized.set(page.pageNumber, page);
  return pages.map((p) => recognized.get(p.pageNumber) ?? p);
}
