import { classifyDocument } from '../../../../functions/lab/classify-document';
import { extractLabResults } from '../../../../functions/lab/parsers';
import { type PageText, readPdfText } from '../../../../functions/lab/pdf-text';
import { type DrawnLine, renderLines } from './render-lines';

/**
 * The reader's repairs of what OCR misreads, on a page read back from a real PDF whose words are then
 * given as OCR gives them (each with its confidence): they apply to recognised pages only.
 */

const PAGE: DrawnLine[] = [
  [760, [[36, 'Labcorp', 12]]],
  [740, [[36, 'Date Collected: 03/14/2025']]],
  [700, [[36, 'Test'], [190, 'Current Result and Flag'], [330, 'Units'], [400, 'Reference Interval']]],
  // A gap inside a word as wide as the page's spaces, as OCR reads it.
  [686, [[36, 'CBC With Differential/P latelet', 9]]],
  [674, [[46, 'WBC'], [190, '6.0'], [330, 'x10E3/uL'], [400, '3.4-10.8']]],
  [662, [[46, 'Hemoglobin'], [190, '13.1'], [330, 'g/dL'], [400, '11.1-15.9']]],
];

async function panelTitles(asOcr: boolean): Promise<string[]> {
  const pages: PageText[] = (await readPdfText(await renderLines([PAGE]))).map((page) =>
    asOcr ? { ...page, source: 'ocr', items: page.items.map((item) => ({ ...item, confidence: 0.93 })) } : page,
  );
  const classification = classifyDocument(pages);
  if (classification.kind !== 'lab_report') throw new Error(`not read as a lab report: ${classification.kind}`);
  return extractLabResults(pages, classification).panels.map((panel) => panel.panelName);
}

describe('panel titles OCR misread', () => {
  it('are the panel table’s printed title on a recognised page', async () => {
    expect(await panelTitles(true)).toEqual(['CBC With Differential/Platelet']);
  });

  it('stay as printed on a page read from its text layer', async () => {
    expect(await panelTitles(false)).toEqual(['CBC With Differential/P latelet']);
  });
});
