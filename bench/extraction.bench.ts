import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PageText } from '../functions/lab/pdf-text';
import { PDFJS_OPTIONS } from '../functions/lab/pdfjs-options';
import type { LabPanel } from '../functions/lab/results-schema';
import { emptyScore, FIELDS, precisionRecall, scoreExtraction } from '../test/fixtures/labs/score';
import { budgets, type DocumentMeasure, group, matrixGroups, matrixMarkdown, outcomeRight } from './extraction-matrix';
import { type BenchDocument, extractionBenchSet } from './extraction-set';
import type * as LabReader from './lab-reader-entry';
import { type Bench, type BenchRow, round } from './types';

/**
 * Lab extraction quality and speed over documents of all three fixture generators (the first,
 * the independent one and the rendering one: test/fixtures/labs), reports and documents to refuse.
 * Prints the quality per rendering dimension as a matrix (extraction-matrix.ts) and returns the
 * totals. Speed is the reader's CPU time as a ratio to the bare pdf.js text extraction of the same
 * bytes, the floor any reader stands on. The documents are generated first; only reading is timed.
 * The reader timed is the one deployed: bundled and minified by esbuild as infra/bundling.ts builds
 * the Lambdas (tsx, which runs the sources, keeps every function's name at a cost of about a tenth
 * of the reader's time), with pdf.js left outside the bundle so the floor and the reader share it.
 */

type Reader = typeof LabReader;

const REPO = path.resolve(__dirname, '..');

/** The reader built as deployed, loaded into this process; `remove` deletes the build. */
async function deployedReader(): Promise<{ reader: Reader; remove: () => Promise<void> }> {
  const { build } = await import('esbuild');
  const { esbuildOptionsFor } = await import('../infra/bundling');
  // Inside the repository, so the bundle's external imports (pdf.js) resolve from node_modules.
  const dir = await mkdtemp(path.join(REPO, 'node_modules', '.hale-bench-'));
  const bundle = path.join(dir, 'lab-reader.mjs');
  const options = esbuildOptionsFor(path.join(__dirname, 'lab-reader-entry.ts'), bundle);
  await build({ ...options, external: [...(options.external ?? []), 'unpdf'] });
  const reader = (await import(pathToFileURL(bundle).href)) as Reader;
  return { reader, remove: () => rm(dir, { recursive: true, force: true }) };
}

interface ReaderOutput {
  pages: PageText[];
  /** null: the reader refused the document. */
  panels: LabPanel[] | null;
  refusal: { reason: string; detectedLab: string | null } | null;
}

/** The one place the benchmark calls the lab reader: PDF bytes → pages, classification, results with codes. */
async function readDocument(reader: Reader, pdf: Uint8Array): Promise<ReaderOutput> {
  const pages = await reader.readPdfText(pdf);
  const classification = reader.classifyDocument(pages);
  if (classification.kind !== 'lab_report') return { pages, panels: null, refusal: { reason: classification.reason, detectedLab: classification.detectedLab } };
  return { pages, panels: reader.extractLabResults(pages, classification).panels, refusal: null };
}

/** The floor: pdf.js loads the document (as the reader opens it) and reads the text of every page, nothing else. */
async function barePdfText(reader: Reader, pdf: Uint8Array): Promise<void> {
  const doc = await reader.getDocumentProxy(new Uint8Array(pdf), { ...PDFJS_OPTIONS, disableFontFace: true });
  try {
    for (let n = 1; n <= doc.numPages; n++) await (await doc.getPage(n)).getTextContent();
  } finally {
    await doc.destroy();
  }
}

async function cpuOf(work: () => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  return { cpu: used.user + used.system, wall: performance.now() - wall };
}

/**
 * Times of each document's bare extraction and reading are the least of TIMINGS runs, taken in turns:
 * another process's load or a collection of garbage made by an earlier document only ever adds time,
 * and both sides of the ratio are measured alike. Each reading starts from what the reader remembered
 * before the document's first (functions/lab/memo.ts): a repeat must not find the document's own texts cached.
 */
const TIMINGS = 5;

async function measure(lab: Reader, document: BenchDocument): Promise<DocumentMeasure & { wall: { reader: number; bare: number } }> {
  let out!: ReaderOutput;
  const bare = { cpu: Number.POSITIVE_INFINITY, wall: Number.POSITIVE_INFINITY };
  const reader = { cpu: Number.POSITIVE_INFINITY, wall: Number.POSITIVE_INFINITY };
  for (let run = 0; run < TIMINGS; run++) {
    const bareRun = await cpuOf(() => barePdfText(lab, document.pdf));
    const forget = lab.memoCheckpoint();
    const readerRun = await cpuOf(async () => {
      out = await readDocument(lab, document.pdf);
    });
    if (run < TIMINGS - 1) forget();
    bare.cpu = Math.min(bare.cpu, bareRun.cpu);
    bare.wall = Math.min(bare.wall, bareRun.wall);
    reader.cpu = Math.min(reader.cpu, readerRun.cpu);
    reader.wall = Math.min(reader.wall, readerRun.wall);
  }
  const results = out.panels?.reduce((n, p) => n + p.panelResults.length, 0) ?? 0;
  const outcome: DocumentMeasure['outcome'] = out.refusal
    ? { status: 'failed', errorType: out.refusal.reason, detectedLab: out.refusal.detectedLab }
    : results === 0
      ? { status: 'failed', errorType: 'no_results_found', detectedLab: null }
      : { status: 'completed' };
  const expectedEmpty = document.expected.status === 'failed' && document.expected.errorType === 'no_results_found';
  // A report refused counts as every result it prints missed.
  const score = document.expected.status === 'completed' ? scoreExtraction(document.truth, out.panels ?? [], out.pages) : emptyScore();
  return {
    dimensions: document.dimensions,
    expected: document.expected,
    outcome,
    empty: out.panels !== null && results === 0 && !expectedEmpty,
    score,
    pages: out.pages.length,
    readerCpu: reader.cpu,
    bareCpu: bare.cpu,
    wall: { reader: reader.wall, bare: bare.wall },
  };
}

const WARM_UP = 6;

const bench: Bench = async () => {
  const documents = await extractionBenchSet();
  const { reader, remove } = await deployedReader();
  const measures: Array<Awaited<ReturnType<typeof measure>>> = [];
  try {
    // pdf.js loads its fonts and code on the first documents.
    for (const document of documents.slice(0, WARM_UP)) await measure(reader, document);
    for (const document of documents) measures.push(await measure(reader, document));
  } finally {
    await remove();
  }

  const groups = matrixGroups(measures);
  const all = group('all documents', measures);
  const area = 'lab extraction';
  const perGenerator = ['first', 'independent', 'rendering'].map((g) => `${measures.filter((m) => m.dimensions.generator === g).length} ${g}`).join(' / ');
  const rows: BenchRow[] = [
    { area, metric: `documents (${perGenerator} generator), ${all.pages} pages`, value: documents.length, unit: 'docs', budget: '≥ 500', pass: documents.length >= 500 },
    { area, metric: 'printed results in documents expected to complete', value: all.score.truthCount, unit: '', budget: '', pass: null },
  ];
  for (const field of FIELDS) {
    const { precision, recall } = precisionRecall(all.score, field);
    rows.push({ area, metric: `${field} precision / recall (all generators)`, value: round(Math.min(precision, recall) * 100, 2), unit: `% (P ${round(precision * 100, 2)} / R ${round(recall * 100, 2)})`, budget: '≥ 99.5 %', pass: Math.min(precision, recall) >= 0.995 });
  }
  const loinc = all.score.loinc.expected === 0 ? 0 : all.score.loinc.correct / all.score.loinc.expected;
  const ucum = all.score.printedUnits.expected === 0 ? 0 : all.score.printedUnits.correct / all.score.printedUnits.expected;
  const refusals = all.refusalsExpected === 0 ? 1 : all.refusalsRight / all.refusalsExpected;
  rows.push(
    { area, metric: `LOINC exact (${all.score.loinc.expected} results read that have a code)`, value: round(loinc * 100, 2), unit: '%', budget: '≥ 98 %', pass: loinc >= 0.98 },
    { area, metric: `UCUM code of each printed unit (${all.score.printedUnits.expected} units read)`, value: round(ucum * 100, 2), unit: '%', budget: '100 %', pass: ucum === 1 },
    { area, metric: 'invented results', value: all.score.invented, unit: '', budget: '= 0', pass: all.score.invented === 0 },
    { area, metric: `documents refused for the right reason (${all.refusalsRight} of ${all.refusalsExpected})`, value: round(refusals * 100, 2), unit: '%', budget: '100 %', pass: refusals === 1 },
    { area, metric: 'reports refused although readable', value: all.reportsRefused, unit: '', budget: '= 0', pass: all.reportsRefused === 0 },
    { area, metric: 'documents accepted with no result (completed empty before issue 11)', value: all.empty, unit: '', budget: '= 0', pass: all.empty === 0 },
  );
  const withoutResults = measures.filter((m) => m.expected.status === 'failed' && m.expected.errorType === 'no_results_found');
  const emptied = withoutResults.filter(outcomeRight).length;
  rows.push({ area, metric: `reports without results whose extraction came out empty (→ no_results_found), of ${withoutResults.length}`, value: emptied, unit: '', budget: `= ${withoutResults.length}`, pass: emptied === withoutResults.length });
  const meeting = groups.filter((g) => budgets(g).every((b) => b.pass)).length;
  rows.push({ area, metric: 'quality matrix rows meeting every budget', value: meeting, unit: `of ${groups.length}`, budget: `= ${groups.length}`, pass: meeting === groups.length });

  const readerMs = all.readerCpu / 1000;
  const bareMs = all.bareCpu / 1000;
  const wallRatio = measures.reduce((n, m) => n + m.wall.reader, 0) / measures.reduce((n, m) => n + m.wall.bare, 0);
  rows.push(
    { area, metric: 'reader CPU time per page (pdf.js text, classification, tables, codes)', value: round(readerMs / all.pages, 2), unit: 'ms', budget: '', pass: null },
    { area, metric: 'bare pdf.js text extraction CPU time per page', value: round(bareMs / all.pages, 2), unit: 'ms', budget: '', pass: null },
    { area, metric: `parse time / bare pdf.js, CPU (wall ${round(wallRatio, 2)} ×)`, value: round(readerMs / bareMs, 2), unit: '×', budget: '≤ 1.5 ×', pass: readerMs / bareMs <= 1.5 },
    { area, metric: 'pages per second incl. pdf.js (one core, CPU time)', value: round(all.pages / (readerMs / 1000), 1), unit: 'pages/s', budget: '≥ 30', pass: all.pages / (readerMs / 1000) >= 30 },
  );

  const lowestRecall = groups
    .filter((g) => g.score.truthCount > 0)
    .map((g) => ({ g, recall: precisionRecall(g.score, 'value').recall }))
    .sort((a, b) => a.recall - b.recall || b.g.docs - a.g.docs)
    .slice(0, 15)
    .map(({ g, recall }) => `- ${g.label}: value recall ${round(recall * 100, 1)} % (${g.score.truthCount} results in ${g.docs} docs, ${g.reportsRefused} reports refused)`);
  const worstRefusals = groups
    .filter((g) => g.refusalsExpected > 0 && g.refusalsRight < g.refusalsExpected)
    .sort((a, b) => a.refusalsRight / a.refusalsExpected - b.refusalsRight / b.refusalsExpected || b.refusalsExpected - a.refusalsExpected)
    .slice(0, 10)
    .map((g) => `- ${g.label}: ${g.refusalsRight} of ${g.refusalsExpected} refused for the right reason`);
  const misread = measures
    .filter((m) => !outcomeRight(m))
    .slice(0, 12)
    .map((m) => `- ${m.dimensions.generator} ${m.dimensions['document kind']} ${m.dimensions.layout ?? ''}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.outcome)}`);
  const none = ['- none'];
  const details = [
    matrixMarkdown(groups),
    '',
    '#### Weakest rows: lowest value recall',
    ...(lowestRecall.length ? lowestRecall : none),
    '',
    '#### Weakest rows: refusal reasons',
    ...(worstRefusals.length ? worstRefusals : none),
    '',
    '#### Some wrong outcomes',
    ...(misread.length ? misread : none),
  ].join('\n');
  return { rows, details };
};

export default bench;
