import { classifyDocument } from '../../../../functions/lab/classify-document';
import { extractLabResults } from '../../../../functions/lab/parsers';
import { readPdfText } from '../../../../functions/lab/pdf-text';
import { ExtractionResultsSchema } from '../../../../functions/lab/results-schema';
import { type GeneratedReport, generateLabcorpReport, generateQuestReport } from '../../../fixtures/labs/generator';
import { emptyScore, FIELDS, scoreExtraction } from '../../../fixtures/labs/score';

/**
 * End to end through pdf.js: generated reports of every layout family, in every text chunking, with
 * page breaks, wrapped names, flags, censored and text results, are read back field by field.
 */

const CASES: Array<[string, (seed: number) => Promise<GeneratedReport>]> = [
  ['Quest physician report', (seed) => generateQuestReport({ seed, panelCount: 5, chunking: 'cell', maxRowsPerPage: 14 })],
  ['Quest physician report, words', (seed) => generateQuestReport({ seed, panelCount: 5, chunking: 'word', wrapRate: 0.5 })],
  ['Quest patient export', (seed) => generateQuestReport({ seed, layout: 'patient-export', panelCount: 5, chunking: 'line', maxRowsPerPage: 12 })],
  ['Labcorp 2024 Patient Report', (seed) => generateLabcorpReport({ seed, panelCount: 4, chunking: 'mixed', maxRowsPerPage: 10, wrapRate: 0.4 })],
  ['Labcorp legacy report', (seed) => generateLabcorpReport({ seed, layout: 'legacy', panelCount: 4, chunking: 'line', flagRate: 0.4 })],
  ['Quest report with centred headers and nudged cells', (seed) => generateQuestReport({ seed, panelCount: 6, chunking: 'mixed', headerOffset: 8, cellJitter: 2.5 })],
  ['Quest report with the column header on page 1 only', (seed) => generateQuestReport({ seed, panelCount: 6, maxRowsPerPage: 10, headerOnFirstPageOnly: true })],
  ['older Labcorp report with the column header on page 1 only', (seed) => generateLabcorpReport({ seed, layout: 'legacy', panelCount: 5, maxRowsPerPage: 9, headerOnFirstPageOnly: true })],
  ['Quest report with rows not indented under panel titles', (seed) => generateQuestReport({ seed, panelCount: 6, flatRows: true, wrapRate: 0.4 })],
  ['older Labcorp report with rows not indented under panel titles', (seed) => generateLabcorpReport({ seed, layout: 'legacy', panelCount: 5, flatRows: true })],
  ['Labcorp report with centred headers and nudged cells', (seed) => generateLabcorpReport({ seed, panelCount: 5, chunking: 'word', headerOffset: 8, cellJitter: 2.5 })],
];

describe.each(CASES)('%s', (_name, generate) => {
  it.each([11, 12])('reads every field of every printed result (seed %i)', async (seed) => {
    const { pdf, truth } = await generate(seed);
    const pages = await readPdfText(pdf);
    const classification = classifyDocument(pages);
    expect(classification).toEqual({ kind: 'lab_report', vendor: truth.vendor, collectionDate: truth.collectionDate });
    if (classification.kind !== 'lab_report') return;
    const extraction = extractLabResults(pages, classification);
    const score = scoreExtraction(truth, extraction.panels, pages, emptyScore());
    expect(score.mismatches).toEqual([]);
    expect(score.extractedCount).toBe(score.truthCount);
    for (const field of FIELDS) expect(score.correct[field]).toBe(score.truthCount);
    expect(score.loinc.correct).toBe(score.loinc.expected);
    expect(score.ucum.correct).toBe(score.ucum.expected);
    expect(score.invented).toBe(0);
    expect(extraction.labName).toBe(truth.labName);
    expect(extraction.dateCollected).toBe(truth.collectionDate);
    expect(extraction.panels.map((p) => p.panelName)).toEqual(truth.panels.map((p) => p.panelName));
    // A clean mock report raises no validation flag.
    expect(extraction.validationFlags).toEqual([]);
    const results = ExtractionResultsSchema.parse({
      jobId: 'job-1',
      status: 'completed',
      verification: { dobFound: false, dobMatches: null },
      ...extraction,
    });
    expect(results.panels.length).toBeGreaterThan(0);
  });
});

it('records each page a panel runs onto', async () => {
  const { pdf, truth } = await generateLabcorpReport({ seed: 3, panels: ['CBC With Differential/Platelet'], maxRowsPerPage: 8 });
  const pages = await readPdfText(pdf);
  const classification = classifyDocument(pages);
  if (classification.kind !== 'lab_report') throw new Error('not classified as a lab report');
  const extraction = extractLabResults(pages, classification);
  const continued = extraction.mergeActions.filter((m) => m.code === 'panel_continued').map((m) => m.pages);
  const pagesWithRows = [...new Set(truth.panels[0]!.results.map((r) => r.pageNumber))];
  expect(pagesWithRows.length).toBeGreaterThan(2);
  expect(continued).toEqual(pagesWithRows.slice(1).map((page) => [page - 1, page]));
});

it('mock PHI strings are printed (for redaction tests) and listed in the truth', async () => {
  const { pdf, truth } = await generateQuestReport({ seed: 5, patient: { name: 'SAMPLE, PAT' } });
  const text = (await readPdfText(pdf)).flatMap((p) => p.items.map((i) => i.str)).join('\n');
  expect(truth.phi).toContain('SAMPLE, PAT');
  for (const phi of truth.phi) expect(text).toContain(phi);
});
