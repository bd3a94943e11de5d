import { classifyDocument } from '../functions/lab/classify-document';
import { withRecognizedPages } from '../functions/lab/ocr/recognize-pages';
import { tesseractRecognizerWithEngines } from '../functions/lab/ocr/tesseract-recognizer';
import { extractLabResults } from '../functions/lab/parsers';
import { type PageText, readPdfText } from '../functions/lab/pdf-text';
import type { LabPanel } from '../functions/lab/results-schema';
import { renderingSet } from '../test/fixtures/labs/rendering/set';
import { CLEAN_SCAN, FAX_SCAN, familiesDrawn, NOISY_SCAN, RASTER_FONT_SETS, type RasterFontSet, type ScanOptions, scanned } from '../test/fixtures/labs/scanned';
import { emptyScore, FIELDS, mergeScore, precisionRecall, type Score, scoreExtraction } from '../test/fixtures/labs/score';
import { type Bench, type BenchRow, percentile, round } from './types';

/**
 * The "scanned" column of `npm run bench:extraction` (issue 17): reports of the rendering generator
 * (test/fixtures/labs/rendering), each turned into an image-only PDF by the scanned fixture in the
 * issue's two classes, read through the whole reader path (text layer → OCR of pages without one →
 * classification → extraction) and scored field by field against the generator's truth.
 *
 * - clean: 200 or 300 dpi, skew within ±1°, light noise, no blur;
 * - noisy: 150 dpi, ±3°, blur, noise and specks (the NOISY_SCAN class);
 * - photographed: 300 dpi, ±2°, light noise, the light falling off across the page to 35–60 % (a page
 *   photographed under a lamp), every other sheet lying on a darker table that shows 15 or 30 % of its
 *   size around it, photographed at a slant (the picture's top edge 3 or 2 % of its width narrower at
 *   each end) (the issue names photos but sets them no budget: the clean one is held up);
 * - fax: black and white at 200 dpi (fine mode), ±1°, stored as a 1-bit image, compressed in turn as
 *   Flate, CCITT Group 4 and JBIG2 (FAX_SCAN; the issue names faxes and holds its fax-like class to
 *   the noisy budget, which is held up here).
 *
 * OCR costs seconds per page, so the sample is small (HALE_BENCH_SCANS documents per class, default 6):
 * the figures carry the sampling error of ~200–300 printed results per class. CPU time is the whole
 * process's (main thread and the Tesseract worker thread), so a busy machine does not inflate it, with
 * one engine: the budget is per page on one core (the lab pipeline reads with one engine per core, two
 * at most; `npm run bench -- lab-pipeline` measures that upload).
 */

const DOCUMENTS_PER_CLASS = Number(process.env.HALE_BENCH_SCANS ?? 6);
/**
 * Drawn apart from the extraction set's seed (11), so these are documents the reader was not tuned on;
 * HALE_BENCH_SCAN_SEED draws another sample, to check a change on documents it was not shaped on.
 */
const SEED = Number(process.env.HALE_BENCH_SCAN_SEED ?? 17);
/**
 * The fonts the scans draw the reports' standard fonts with (scanned.ts `RASTER_FONT_SETS`): DejaVu by
 * default, as on CI; HALE_BENCH_SCAN_FONTS=urw draws the Helvetica, Times and Courier clones instead.
 */
const FONTS = (process.env.HALE_BENCH_SCAN_FONTS ?? 'dejavu') as RasterFontSet;
if (!(FONTS in RASTER_FONT_SETS)) throw new Error(`HALE_BENCH_SCAN_FONTS: one of ${Object.keys(RASTER_FONT_SETS).join(', ')}`);

interface ScanClass {
  name: 'clean' | 'noisy' | 'photographed' | 'fax';
  /** The scan options of the i-th document of the class. */
  options(i: number): Partial<ScanOptions>;
  budget: { precision: number; recall: number };
}

const CLASSES: ScanClass[] = [
  {
    name: 'clean',
    options: (i) => ({ ...CLEAN_SCAN, dpi: i % 2 === 0 ? 200 : 300, skewDegrees: [0.7, -1, 0.3, -0.5][i % 4]!, seed: 100 + i }),
    budget: { precision: 0.98, recall: 0.98 },
  },
  {
    name: 'noisy',
    options: (i) => ({ ...NOISY_SCAN, skewDegrees: i % 2 === 0 ? 3 : -3, seed: 200 + i }),
    budget: { precision: 0.99, recall: 0.95 },
  },
  {
    name: 'photographed',
    options: (i) => ({
      ...CLEAN_SCAN,
      dpi: 300,
      skewDegrees: [1.5, -2, 0.5, -1][i % 4]!,
      lightFalloff: [0.5, 0.65, 0.4, 0.6][i % 4]!,
      tableMargin: [0, 0.3, 0, 0.15][i % 4]!,
      tableGrey: [40, 60, 80][i % 3]!,
      keystone: [0, 0.03, 0, 0.02][i % 4]!,
      seed: 300 + i,
    }),
    budget: { precision: 0.98, recall: 0.98 },
  },
  {
    name: 'fax',
    options: (i) => ({ ...FAX_SCAN, skewDegrees: [0.8, -1, 0.4, -0.6][i % 4]!, bilevelCodec: (['flate', 'group4', 'jbig2'] as const)[i % 3]!, seed: 400 + i }),
    budget: { precision: 0.99, recall: 0.95 },
  },
];

interface Measure {
  score: Score;
  pages: number;
  completed: boolean;
  /** CPU microseconds of OCR (render, deskew, recognition) and of the whole read. */
  ocrCpu: number;
  readCpu: number;
  perPageCpu: number[];
}

/** One engine: the budget is CPU time per page on one core (a second engine reading beside it inflates that). */
const { recognizer, stop } = tesseractRecognizerWithEngines(1);

function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

async function readScan(pdf: Uint8Array): Promise<{ pages: PageText[]; panels: LabPanel[] | null; ocrCpu: number }> {
  const text = await readPdfText(pdf);
  const started = cpuNow();
  const pages = await withRecognizedPages(pdf, text, recognizer);
  const ocrCpu = cpuNow() - started;
  const classification = classifyDocument(pages);
  if (classification.kind !== 'lab_report') return { pages, panels: null, ocrCpu };
  return { pages, panels: extractLabResults(pages, classification).panels, ocrCpu };
}

function total(measures: readonly Measure[]): Score {
  const score = emptyScore();
  for (const m of measures) mergeScore(score, m.score);
  return score;
}

const bench: Bench = async () => {
  // Reports only: refusals are the text reader's matter, measured by extraction.bench.ts.
  const reports = (await renderingSet(DOCUMENTS_PER_CLASS * CLASSES.length * 3, SEED)).filter((r) => r.truth.expected.status === 'completed');
  const rows: BenchRow[] = [];
  const details: string[] = ['### Scanned reports (issue 17): OCR into the same reader', ''];
  const perPage: number[] = [];
  // What the scans' glyphs look like depends on the fonts poppler finds (scanned.ts): figures compare only with the same fonts.
  const fonts = await familiesDrawn(RASTER_FONT_SETS[FONTS]);
  try {
    // Starts the Tesseract worker and loads the model outside the measured reads.
    await readScan(await scanned(reports[0]!.pdf, { ...CLEAN_SCAN, fonts: FONTS, seed: 1 }));
    for (const [c, scanClass] of CLASSES.entries()) {
      const sample = reports.slice(c * DOCUMENTS_PER_CLASS, (c + 1) * DOCUMENTS_PER_CLASS);
      const measures: Measure[] = [];
      for (const [i, report] of sample.entries()) {
        const pdf = await scanned(report.pdf, { ...scanClass.options(i), fonts: FONTS });
        const started = cpuNow();
        const { pages, panels, ocrCpu } = await readScan(pdf);
        const readCpu = cpuNow() - started;
        const score = panels ? scoreExtraction(report.truth, panels, pages) : { ...emptyScore(), truthCount: report.truth.panels.flatMap((p) => p.results).length };
        const ocrPages = pages.filter((p) => p.source === 'ocr').length;
        measures.push({ score, pages: pages.length, completed: panels !== null && panels.length > 0, ocrCpu, readCpu, perPageCpu: [ocrCpu / Math.max(1, ocrPages)] });
        perPage.push(ocrCpu / Math.max(1, ocrPages));
        if (process.env.HALE_BENCH_VERBOSE) process.stderr.write(`${scanClass.name} ${i} ${report.truth.dimensions.layout}: ${score.mismatches.join('\n   ')}\n`);
      }
      const score = total(measures);
      const pages = measures.reduce((n, m) => n + m.pages, 0);
      const area = `lab OCR, ${scanClass.name} scans`;
      rows.push({ area, metric: `documents (rendering generator, seed ${SEED}, drawn with ${fonts}), ${pages} pages, ${score.truthCount} printed results`, value: measures.length, unit: 'docs', budget: '', pass: null });
      const worst = FIELDS.map((field) => ({ field, ...precisionRecall(score, field) }));
      for (const { field, precision, recall } of worst) {
        const pass = precision >= scanClass.budget.precision && recall >= scanClass.budget.recall;
        rows.push({ area, metric: `${field} precision / recall`, value: round(Math.min(precision, recall) * 100, 2), unit: `% (P ${round(precision * 100, 2)} / R ${round(recall * 100, 2)})`, budget: `P ≥ ${scanClass.budget.precision * 100} %, R ≥ ${scanClass.budget.recall * 100} %`, pass });
      }
      rows.push({ area, metric: 'invented results', value: score.invented, unit: '', budget: scanClass.name === 'clean' ? '= 0' : '', pass: scanClass.name === 'clean' ? score.invented === 0 : null });
      rows.push({ area, metric: 'reports refused or empty', value: measures.filter((m) => !m.completed).length, unit: '', budget: '= 0', pass: measures.every((m) => m.completed) });
      const ocrMs = measures.reduce((n, m) => n + m.ocrCpu, 0) / 1000;
      rows.push({ area, metric: 'OCR CPU time per page (render, deskew, Tesseract; all threads)', value: round(ocrMs / pages, 0), unit: 'ms', budget: '≤ 3000 ms', pass: ocrMs / pages <= 3000 });
      details.push(`#### ${scanClass.name} scans: mismatches`, '', ...measures.flatMap((m) => m.score.mismatches.slice(0, 40).map((line) => `- ${line}`)), '');
    }
    rows.push({ area: 'lab OCR', metric: 'OCR CPU time per page, p90 over documents', value: round(percentile(perPage, 90) / 1000, 0), unit: 'ms', budget: '', pass: null });
  } finally {
    await stop();
  }
  return { rows, details: details.join('\n') };
};

export default bench;
