import { classifyDocument } from '../functions/lab/classify-document';
import { extractLabResults } from '../functions/lab/parsers';
import { type PageText, readPdfText } from '../functions/lab/pdf-text';
import type { LabPanel } from '../functions/lab/results-schema';
import { generateFixtureSet } from '../test/fixtures/labs/generator';
import { generateIndependentSet } from '../test/fixtures/labs/independent/generator';
import { scoreSet } from '../test/fixtures/labs/independent/score-set';
import { emptyScore, type Field, precisionRecall, type Score, scoreExtraction } from '../test/fixtures/labs/score';
import { type Bench, type BenchRow, round } from './types';

/**
 * Lab extraction quality and speed over a generated fixture set: every layout family, each text
 * chunking, page breaks, wrapped names, flags, censored and text results, centred headers, nudged
 * cells, unindented rows and headers on the first page only (test/fixtures/labs). The
 * documents are generated first; the timed part is what the pipeline runs per document: pdf.js text
 * extraction, classification, table reading, LOINC/UCUM coding and validation, on one core.
 */

const SEEDS = 24;

async function readReport(pdf: Uint8Array): Promise<{ pages: PageText[]; panels: LabPanel[] | null }> {
  const pages = await readPdfText(pdf);
  const classification = classifyDocument(pages);
  if (classification.kind !== 'lab_report') return { pages, panels: null };
  return { pages, panels: extractLabResults(pages, classification).panels };
}

const bench: Bench = async () => {
  const reports = await generateFixtureSet(SEEDS);
  await readReport(reports[0]!.pdf); // pdf.js loads its fonts and code on the first document
  const score = emptyScore();
  let pages = 0;
  let misclassified = 0;
  let elapsed = 0;
  for (const { pdf, truth } of reports) {
    const started = performance.now();
    const out = await readReport(pdf);
    elapsed += performance.now() - started;
    pages += out.pages.length;
    if (!out.panels) {
      misclassified++;
      continue;
    }
    scoreExtraction(truth, out.panels, out.pages, score);
  }
  const area = 'lab extraction';
  const rows: BenchRow[] = [
    { area, metric: `fixture set (${reports.length} documents, ${pages} pages)`, value: score.truthCount, unit: 'printed results', budget: '', pass: null },
    { area, metric: 'documents not classified as lab reports', value: misclassified, unit: '', budget: '= 0', pass: misclassified === 0 },
  ];
  rows.push(...qualityRows(area, score));
  const pagesPerSecond = pages / (elapsed / 1000);
  rows.push({ area, metric: 'throughput incl. pdf.js text extraction (one core)', value: round(pagesPerSecond, 1), unit: 'pages/s', budget: '≥ 30 pages/s', pass: pagesPerSecond >= 30 });
  for (const mismatch of score.mismatches.slice(0, 10)) process.stderr.write(`  ${mismatch}\n`);
  rows.push(...(await independentRows()));
  return rows;
};

/** Field-level precision and recall, LOINC and UCUM accuracy and invented results of one fixture set. */
function qualityRows(area: string, score: Score): BenchRow[] {
  const rows: BenchRow[] = [];
  const fields: Field[] = ['biomarker', 'value', 'unit', 'flag', 'range', 'page', 'panel'];
  for (const field of fields) {
    const { precision, recall } = precisionRecall(score, field);
    rows.push({ area, metric: `${field} precision`, value: round(precision * 100, 2), unit: '%', budget: '≥ 99.5 %', pass: precision >= 0.995 });
    rows.push({ area, metric: `${field} recall`, value: round(recall * 100, 2), unit: '%', budget: '≥ 99.5 %', pass: recall >= 0.995 });
  }
  const loinc = score.loinc.expected === 0 ? 0 : score.loinc.correct / score.loinc.expected;
  const ucum = score.ucum.expected === 0 ? 0 : score.ucum.correct / score.ucum.expected;
  rows.push({ area, metric: `LOINC accuracy where the table has the code (${score.loinc.expected})`, value: round(loinc * 100, 2), unit: '%', budget: '≥ 98 %', pass: loinc >= 0.98 });
  rows.push({ area, metric: `UCUM accuracy (${score.ucum.expected} units)`, value: round(ucum * 100, 2), unit: '%', budget: '', pass: null });
  rows.push({ area, metric: 'invented results', value: score.invented, unit: '', budget: '= 0', pass: score.invented === 0 });
  return rows;
}

const INDEPENDENT_SEEDS = 16;

/**
 * The same measures over the second, independent generator (test/fixtures/labs/independent): layouts
 * the parser was not written against (other fonts, page shapes, chunkings, spacings, wraps), reported
 * apart so a parser tuned to the first generator shows here.
 */
async function independentRows(): Promise<BenchRow[]> {
  const reports = await generateIndependentSet(INDEPENDENT_SEEDS);
  const { score, pages, misclassified } = await scoreSet(reports);
  const area = 'lab extraction (independent set)';
  const rows: BenchRow[] = [
    { area, metric: `fixture set (${reports.length} documents, ${pages} pages)`, value: score.truthCount, unit: 'printed results', budget: '', pass: null },
    { area, metric: 'documents not classified as lab reports', value: misclassified.length, unit: '', budget: '= 0', pass: misclassified.length === 0 },
  ];
  rows.push(...qualityRows(area, score));
  for (const line of [...misclassified, ...score.mismatches].slice(0, 10)) process.stderr.write(`  independent ${line}\n`);
  return rows;
}

export default bench;
