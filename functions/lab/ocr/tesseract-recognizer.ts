import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { BUNDLED_TESSERACT_FOLDER, TRAINEDDATA_FILE } from './bundled-assets';
import { cutOut, type ImageRegion, type PageImage, type RecognizedWord, type TextRecognizer } from './recognizer';

/**
 * The Tesseract adapter of the OCR port: tesseract.js (Tesseract 5 compiled to WebAssembly, run in a
 * worker thread) with the English LSTM model of the `@tesseract.js-data/eng` package (the integer
 * "fast" network, 4.0.0_best_int). Nothing is downloaded at run time: the model is read from the
 * package, or in the Lambda from the folder the bundle ships beside its code (infra/ocr-bundle.ts).
 *
 * Settings: sparse text (PSM 11), every run of words found wherever it stands and recognised as its
 * own short line. The reader rebuilds rows from the words' positions, so Tesseract need not see a table
 * row as one line; measured on scanned reports (`npm run bench:extraction`, scanned column), one
 * uniform block (PSM 6) drops decimal points across wide rows (`5.3` → `53`: the line model scales a
 * page-wide row whose baseline wanders) and automatic layout (PSM 3) drops short isolated columns of
 * values. Interword spaces kept, so a column gap is not a word; no second pass over inverted text
 * (lab reports print none, and it costs a recognition per doubtful line).
 *
 * `recognizeLine` reads one region cut out of the page onto a white margin as a single line (PSM 7):
 * the second look recognize-pages.ts takes at ink the sparse reading left without words.
 */


interface TesseractAssets {
  langPath: string;
  workerPath?: string;
}

function assets(): TesseractAssets {
  const bundled = path.join(__dirname, BUNDLED_TESSERACT_FOLDER);
  if (existsSync(path.join(bundled, TRAINEDDATA_FILE))) return { langPath: bundled, workerPath: path.join(bundled, 'worker.cjs') };
  const data = path.dirname(require.resolve('@tesseract.js-data/eng/package.json'));
  return { langPath: path.join(data, '4.0.0_best_int') };
}

/** Binary PGM (P5): Leptonica reads it without decoding work, unlike PNG. */
function pgm(image: PageImage): Buffer {
  const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'ascii');
  return Buffer.concat([header, image.grey]);
}

/**
 * Engines read pages side by side, one per core up to this many: a scanned report's pages take about
 * half the time on two cores. Each holds its model and a page's working memory (~150 MB), so more
 * would cost memory a 2 GB Lambda needs for little (it has two vCPUs at most).
 */
const MAX_ENGINES = 2;
const ENGINES_HERE = Math.max(1, Math.min(MAX_ENGINES, availableParallelism()));

/** One engine: a worker thread, and the resolution and page segmentation mode it was last told. */
interface Engine {
  worker: Promise<Worker>;
  dpi?: number;
  mode: PSM;
  /** Settings and recognition run as one step: two readings given to one engine must not swap modes in between. */
  queue: Promise<unknown>;
  /** Readings given to it and not finished: a new one goes to the engine with fewest. */
  pending: number;
}

async function startWorker(): Promise<Worker> {
  const { langPath, workerPath } = assets();
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    // Never write the model to a cache folder (read-only in Lambda, litter elsewhere).
    cacheMethod: 'none',
    ...(workerPath ? { workerPath } : {}),
  });
  await worker.setParameters({
    tessedit_pageseg_mode: PSM.SPARSE_TEXT,
    preserve_interword_spaces: '1',
    tessedit_do_invert: '0',
  });
  return worker;
}

/** Up to `size` engines, each started on first need (starting one costs about half a second) and kept. */
class EnginePool {
  private engines: Engine[] = [];

  constructor(readonly size: number) {}

  /** The engine to give a reading to: a new one while all are busy and there is room, else the least busy. */
  engine(): Engine {
    if (this.engines.length < this.size && this.engines.every((e) => e.pending > 0)) {
      const started: Engine = { worker: startWorker(), mode: PSM.SPARSE_TEXT, queue: Promise.resolve(), pending: 0 };
      // One that failed to start is started again on a later reading.
      started.worker.catch(() => {
        this.engines = this.engines.filter((e) => e !== started);
      });
      this.engines.push(started);
    }
    return this.engines.reduce((least, e) => (e.pending < least.pending ? e : least));
  }

  async stop(): Promise<void> {
    const running = this.engines;
    this.engines = [];
    await Promise.all(running.map(async (e) => (await e.worker.catch(() => undefined))?.terminate()));
  }
}

/** Recognises `image` in `mode`; words in the image's pixels. */
async function recognizeIn(pool: EnginePool, image: PageImage, mode: PSM): Promise<RecognizedWord[]> {
  const chosen = pool.engine();
  chosen.pending++;
  const step = async () => {
    const tesseract = await chosen.worker;
    if (chosen.dpi !== image.dpi || chosen.mode !== mode) {
      await tesseract.setParameters({ user_defined_dpi: String(image.dpi), tessedit_pageseg_mode: mode });
      chosen.dpi = image.dpi;
      chosen.mode = mode;
    }
    return tesseract.recognize(pgm(image), {}, { blocks: true, text: false });
  };
  const run = chosen.queue.then(step, step);
  chosen.queue = run.catch(() => undefined);
  const { data } = await run.finally(() => chosen.pending--);
  const words: RecognizedWord[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const { x0, y0, x1, y1 } = line.baseline;
        const slope = x1 !== x0 ? (y1 - y0) / (x1 - x0) : 0;
        for (const word of line.words) {
          const centre = (word.bbox.x0 + word.bbox.x1) / 2;
          words.push({
            text: word.text,
            ...word.bbox,
            baseline: y0 + slope * (centre - x0),
            lineHeight: line.rowAttributes.rowHeight,
            confidence: word.confidence / 100,
          });
        }
      }
    }
  }
  return words;
}

/** White border (share of the region's height) around a region read on its own: Tesseract needs room around a line. */
const REGION_BORDER = 0.5;

function recognizerOn(pool: EnginePool): TextRecognizer {
  return {
    engine: 'tesseract',
    parallelism: pool.size,
    recognize(image: PageImage): Promise<RecognizedWord[]> {
      return recognizeIn(pool, image, PSM.SPARSE_TEXT);
    },
    async recognizeLine(image: PageImage, region: ImageRegion): Promise<RecognizedWord[]> {
      const { crop, dx, dy } = cutOut(image, region, Math.ceil(REGION_BORDER * (region.y1 - region.y0 + 1)));
      const words = await recognizeIn(pool, crop, PSM.SINGLE_LINE);
      return words.map((w) => ({ ...w, x0: w.x0 + dx, x1: w.x1 + dx, y0: w.y0 + dy, y1: w.y1 + dy, ...(w.baseline === undefined ? {} : { baseline: w.baseline + dy }) }));
    },
  };
}

/** The process's engines (a Lambda container's, a test file's): one per core, two at most. */
const shared = new EnginePool(ENGINES_HERE);
export const tesseractRecognizer: TextRecognizer = recognizerOn(shared);

/** Stops the process's engines (tests and scripts end with them; a Lambda keeps them warm). */
export function stopTesseract(): Promise<void> {
  return shared.stop();
}

/**
 * A recognizer with engines of its own, `count` at most: `npm run bench:extraction` reads with one, so
 * its CPU time per page is one core's, with no second engine contending for the cache.
 */
export function tesseractRecognizerWithEngines(count: number): { recognizer: TextRecognizer; stop: () => Promise<void> } {
  const pool = new EnginePool(count);
  return { recognizer: recognizerOn(pool), stop: () => pool.stop() };
}
