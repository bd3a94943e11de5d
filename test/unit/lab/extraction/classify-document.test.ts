import { classifyDocument } from '../../../../functions/lab/classify-document';
import { type PageText, readPdfText } from '../../../../functions/lab/pdf-text';
import { generateLabcorpReport, generateNonLabDocument, generateOtherLabReport, generateQuestReport } from '../../../fixtures/labs/generator';
import { syntheticPage } from './synthetic-page';

/** Identifiers arrive redacted in the pipeline; dates of collection are kept. */
function redact(pages: PageText[], phi: readonly string[]): PageText[] {
  return pages.map((page) => ({
    ...page,
    items: page.items.map((item) => ({ ...item, str: phi.reduce((text, value) => text.split(value).join('[REDACTED]'), item.str) })),
  }));
}

describe('classifyDocument', () => {
  it.each([
    ['quest-physician', () => generateQuestReport({ seed: 21, collectionDate: '2025-02-27' })],
    ['quest-patient-export', () => generateQuestReport({ seed: 22, layout: 'patient-export', collectionDate: '2025-02-27' })],
    ['labcorp-patient-report', () => generateLabcorpReport({ seed: 23, collectionDate: '2025-02-27' })],
    ['labcorp-legacy', () => generateLabcorpReport({ seed: 24, layout: 'legacy', collectionDate: '2025-02-27' })],
  ])('recognises a %s report and its collection date, with identifiers redacted', async (_layout, generate) => {
    const { pdf, truth } = await generate();
    const pages = redact(await readPdfText(pdf), truth.phi);
    expect(classifyDocument(pages)).toEqual({ kind: 'lab_report', vendor: truth.vendor, collectionDate: '2025-02-27' });
  });

  it('does not count previous-result, received, reported or created dates as collection dates', async () => {
    // Patient exports print a previous result with its own date on most rows.
    const { pdf } = await generateQuestReport({ seed: 25, layout: 'patient-export', panelCount: 6, collectionDate: '2025-02-27' });
    const pages = await readPdfText(pdf);
    const text = pages.flatMap((p) => p.items.map((i) => i.str)).join(' ');
    expect(text.match(/\d{2}\/\d{2}\/\d{4}/g)!.filter((d) => d !== '02/27/2025').length).toBeGreaterThan(3);
    expect(classifyDocument(pages)).toMatchObject({ kind: 'lab_report', collectionDate: '2025-02-27' });
  });

  it.each([
    ['Quest physician report', () => generateQuestReport({ seed: 26, collectionDate: '2025-02-27', extraCollectionDates: ['2025-01-10'] })],
    ['Quest patient export', () => generateQuestReport({ seed: 27, layout: 'patient-export', panelCount: 4, collectionDate: '2025-02-27', extraCollectionDates: ['2025-01-10'] })],
    ['Labcorp report', () => generateLabcorpReport({ seed: 28, collectionDate: '2025-02-27', extraCollectionDates: ['2025-01-10'] })],
    ['older Labcorp report', () => generateLabcorpReport({ seed: 29, layout: 'legacy', collectionDate: '2025-02-27', extraCollectionDates: ['2025-01-10'] })],
  ])('rejects a %s with several collection dates', async (_name, generate) => {
    const { pdf } = await generate();
    expect(classifyDocument(await readPdfText(pdf))).toEqual({
      kind: 'invalid',
      reason: 'multiple_collection_dates',
      detectedLab: expect.any(String),
    });
  });

  it('rejects day-first dates that cannot be US dates', async () => {
    const { pdf } = await generateLabcorpReport({ seed: 30, dayFirstDates: true, collectionDate: '2025-02-27' });
    expect(classifyDocument(await readPdfText(pdf))).toEqual({ kind: 'invalid', reason: 'non_us_document', detectedLab: 'Labcorp' });
  });

  it("reads a supported lab's results printed by a portal (an Epic MyChart export) as that lab's report", async () => {
    // The rows are the lab's own results: rejecting them as `non_supported_lab` while naming Quest would contradict itself.
    const { pdf } = await generateQuestReport({ seed: 31, collectionDate: '2025-02-27' });
    const pages = await readPdfText(pdf);
    pages[0]!.items.push({ str: 'Printed from MyChart on 03/20/2025', x: 36, y: 20, width: 150, height: 6 });
    expect(classifyDocument(pages)).toEqual({ kind: 'lab_report', vendor: 'quest', collectionDate: '2025-02-27' });
  });

  it('reads a vendor report in a layout it has never seen instead of rejecting it', async () => {
    // A Wild Health-style "Analyte / Value" table carrying Quest's name.
    const page = syntheticPage(1, [
      [760, [[36, 'Quest Diagnostics', 14]]],
      [740, [[36, 'Collected: 03/14/2025']]],
      [700, [[36, 'Analyte'], [250, 'Value'], [330, 'Reference Range']]],
      [684, [[36, 'Glucose'], [250, '92'], [330, '65-99 mg/dL']]],
    ]);
    expect(classifyDocument([page])).toEqual({ kind: 'lab_report', vendor: 'quest', collectionDate: '2025-03-14' });
  });

  it('names another laboratory when it finds one', async () => {
    const pages = await readPdfText(await generateOtherLabReport({ labName: 'BioReference Laboratories' }));
    expect(classifyDocument(pages)).toEqual({ kind: 'invalid', reason: 'non_supported_lab', detectedLab: 'BioReference Laboratories' });
  });

  it('rejects a lab-like document without any known laboratory name', async () => {
    const pages = await readPdfText(await generateOtherLabReport({ labName: 'Community Hospital Laboratory' }));
    expect(classifyDocument(pages)).toEqual({ kind: 'invalid', reason: 'non_supported_lab', detectedLab: null });
  });

  it.each(['letter', 'insurance'] as const)('rejects a %s that mentions a supported lab as non_lab_document', async (kind) => {
    const pages = await readPdfText(await generateNonLabDocument({ kind }));
    expect(classifyDocument(pages)).toMatchObject({ kind: 'invalid', reason: 'non_lab_document' });
  });
});
