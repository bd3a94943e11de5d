import { generateFixtureSet, generateLabcorpReport, generateNonLabDocument, generateOtherLabReport, generateQuestReport } from '../test/fixtures/labs/generator';
import { generateIndependentSet } from '../test/fixtures/labs/independent/generator';
import { renderingSet } from '../test/fixtures/labs/rendering/set';
import type { ExpectedOutcome, LabReportTruth } from '../test/fixtures/labs/report-types';

/**
 * The documents of the extraction benchmark, from all three fixture generators, each with its
 * expected outcome and the rendering dimensions it was drawn in (what the quality matrix groups by).
 * The first two generators record fewer dimensions than the third: only what their options set.
 */

export interface BenchDocument {
  pdf: Uint8Array;
  truth: Pick<LabReportTruth, 'panels'>;
  expected: ExpectedOutcome;
  dimensions: Record<string, string>;
}

const FIRST_SEEDS = 24;
const INDEPENDENT_SEEDS = 24;
const RENDERING_DOCUMENTS = 320;
const RENDERING_SEED = 11;

const COMPLETED: ExpectedOutcome = { status: 'completed' };
const OTHER_LABS = ['BioReference Laboratories', 'Sonora Quest Laboratories', 'ARUP Laboratories', 'Mayo Clinic Laboratories'];

async function firstGenerator(): Promise<BenchDocument[]> {
  const base = { generator: 'first', font: 'helvetica', size: '8 pt', page: 'letter' };
  const documents: BenchDocument[] = (await generateFixtureSet(FIRST_SEEDS)).map(({ pdf, truth, options }) => ({
    pdf,
    truth,
    expected: COMPLETED,
    dimensions: { ...base, 'document kind': 'report', layout: truth.layout, chunking: options.chunking ?? 'mixed' },
  }));
  // The first generator draws its other documents one item per cell, its reports in mixed chunkings.
  const refused = (kind: string, pdf: Uint8Array, expected: ExpectedOutcome, layout: string | null, chunking = 'cell'): BenchDocument => ({
    pdf,
    truth: { panels: [] },
    expected,
    dimensions: { ...base, 'document kind': kind, ...(layout ? { layout } : {}), chunking },
  });
  for (const [seed, labName] of OTHER_LABS.entries()) {
    documents.push(refused('other-lab', await generateOtherLabReport({ labName, seed }), { status: 'failed', errorType: 'non_supported_lab', detectedLab: labName }, 'other-lab'));
  }
  for (const [kind, name] of [['letter', 'letter'], ['insurance', 'insurance-eob']] as const) {
    documents.push(refused(`non-lab (${name})`, await generateNonLabDocument({ kind }), { status: 'failed', errorType: 'non_lab_document' }, null));
  }
  for (let seed = 1; seed <= 2; seed++) {
    for (const report of [
      await generateQuestReport({ seed, extraCollectionDates: ['2025-05-01'] }),
      await generateLabcorpReport({ seed, layout: 'legacy', extraCollectionDates: ['2025-05-01'] }),
    ]) {
      documents.push(refused('multiple-dates', report.pdf, report.truth.expected!, report.truth.layout, 'mixed'));
    }
    for (const report of [await generateQuestReport({ seed, dayFirstDates: true }), await generateLabcorpReport({ seed, dayFirstDates: true })]) {
      documents.push(refused('non-us-dates', report.pdf, report.truth.expected!, report.truth.layout, 'mixed'));
    }
  }
  return documents;
}

function spacing(step: number): string {
  return step < 1.25 ? 'tight' : step < 1.6 ? 'normal' : 'loose';
}

async function independentGenerator(): Promise<BenchDocument[]> {
  return (await generateIndependentSet(INDEPENDENT_SEEDS)).map(({ pdf, truth, options: o }) => ({
    pdf,
    truth,
    expected: COMPLETED,
    dimensions: {
      generator: 'independent',
      'document kind': 'report',
      layout: truth.layout,
      chunking: o.chunking,
      font: o.family,
      size: `${o.size} pt`,
      page: o.shape,
      'row spacing': spacing(o.spacing),
      'value align': o.rightAligned ? 'right' : 'left',
    },
  }));
}

async function renderingGenerator(): Promise<BenchDocument[]> {
  return (await renderingSet(RENDERING_DOCUMENTS, RENDERING_SEED)).map(({ pdf, truth }) => ({ pdf, truth, expected: truth.expected, dimensions: truth.dimensions }));
}

export async function extractionBenchSet(): Promise<BenchDocument[]> {
  return [...(await firstGenerator()), ...(await independentGenerator()), ...(await renderingGenerator())];
}
