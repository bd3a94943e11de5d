import { existsSync } from 'node:fs';
import path from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { BUNDLED_TESSERACT_FOLDER, TRAINEDDATA_FILE } from './bundled-assets';
import type { PageImage, RecognizedWord, TextRecognizer } from './recognizer';

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

let shared: Promise<Worker> | undefined;
/** The resolution the shared worker was last told; it sizes Tesseract's noise and line filters. */
let workerDpi: number | undefined;

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

/** One worker per process (a Lambda container, a test file): starting one costs about half a second. */
function worker(): Promise<Worker> {
  shared ??= startWorker().catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

/** Stops the shared worker (tests and scripts end with it; a Lambda keeps it warm). */
export async function stopTesseract(): Promise<void> {
  const running = shared;
  shared = undefined;
  workerDpi = undefined;
  if (running) await (await running).terminate();
}

export const tesseractRecognizer: TextRecognizer = {
  engine: 'tesseract',
  async recognize(image: PageImage): Promise<RecognizedWord[]> {
    const tesseract = await worker();
    if (workerDpi !== image.dpi) {
      await tesseract.setParameters({ user_defined_dpi: String(image.dpi) });
      workerDpi = image.dpi;
    }
    const { data } = await tesseract.recognize(pgm(image), {}, { blocks: true, text: false });
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
  },
};
