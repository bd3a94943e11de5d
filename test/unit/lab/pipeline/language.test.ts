import { detectLanguage } from '../../../../functions/lab/language/detect-language';
import { readPdfText } from '../../../../functions/lab/pdf-text';
import { spanishLabReport } from '../../../fixtures/lab-documents/documents';
import { generateLabcorpReport, generateQuestReport } from '../../../fixtures/labs/generator';

async function textOf(pdf: Uint8Array): Promise<string> {
  return (await readPdfText(pdf)).flatMap((page) => page.items.map((item) => item.str)).join(' ');
}

describe('language detection of lab reports', () => {
  it.each([
    ['Quest physician', () => generateQuestReport({ layout: 'physician', seed: 21 })],
    ['Quest patient export', () => generateQuestReport({ layout: 'patient-export', seed: 22 })],
    ['Labcorp patient report', () => generateLabcorpReport({ layout: 'patient-report', seed: 23 })],
    // The older Labcorp layout is where franc alone ranks French first.
    ['Labcorp legacy', () => generateLabcorpReport({ layout: 'legacy', seed: 2 })],
  ] as const)('%s is English', async (_name, generate) => {
    expect(detectLanguage(await textOf((await generate()).pdf))).toEqual({ language: 'eng', english: true });
  });

  it('a Spanish report is not English, and says which language it is', async () => {
    expect(detectLanguage(await textOf(await spanishLabReport()))).toEqual({ language: 'spa', english: false });
  });

  it('answers undetermined when there are too few words to judge (numbers and units do not count)', () => {
    expect(detectLanguage('Glucose 105 H 70-99 mg/dL 4.5 x10E3/uL 12/12/2025')).toEqual({ language: 'und', english: null });
  });
});
