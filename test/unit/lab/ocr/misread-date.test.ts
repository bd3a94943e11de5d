import fc from 'fast-check';
import { classifyDocument } from '../../../../functions/lab/classify-document';
import { type DateReading, printedCollectionDates } from '../../../../functions/lab/ocr/misread-date';
import { type PageText, readPdfText } from '../../../../functions/lab/pdf-text';
import { generateQuestReport } from '../../../fixtures/labs/generator';

const isoDate = fc.date({ min: new Date('1990-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
/** The date with one of its digits replaced by another digit (the result need not be a calendar date: OCR does not know calendars). */
const withOneDigitChanged = (date: string) =>
  fc
    .record({ at: fc.constantFrom(...[...date].flatMap((c, i) => (/\d/.test(c) ? [i] : []))), shift: fc.integer({ min: 1, max: 9 }) })
    .map(({ at, shift }) => `${date.slice(0, at)}${(Number(date[at]) + shift) % 10}${date.slice(at + 1)}`);
const scanned = (date: string, confidence = 0.9): DateReading[] => [{ date, confidence }];
const printed = (date: string): DateReading[] => [{ date, confidence: undefined }];

describe('printedCollectionDates', () => {
  it('folds a date recognised on fewer pages, one digit away from another, into that date', () => {
    const cases = isoDate.chain((date) => fc.tuple(fc.constant(date), withOneDigitChanged(date), fc.integer({ min: 2, max: 6 })));
    fc.assert(
      fc.property(cases, ([date, misread, pages]) => {
        const readings = [scanned(misread, 0.95), ...Array.from({ length: pages }, () => scanned(date, 0.7))];
        expect(printedCollectionDates(readings)).toEqual([date]);
      }),
    );
  });

  it('keeps both dates when a text layer prints them, or when neither reading outweighs the other', () => {
    const cases = isoDate.chain((date) => fc.tuple(fc.constant(date), withOneDigitChanged(date)));
    fc.assert(
      fc.property(cases, ([date, other]) => {
        expect(printedCollectionDates([printed(other), printed(date), printed(date)]).sort()).toEqual([date, other].sort());
        expect(printedCollectionDates([scanned(other, 0.8), scanned(date, 0.8)]).sort()).toEqual([date, other].sort());
        // A text layer's date is not the scan's misreading, however many pages read the other.
        expect(printedCollectionDates([printed(other), scanned(date), scanned(date)]).sort()).toEqual([date, other].sort());
      }),
    );
  });

  it('on as many pages, takes the more surely read of two dates one digit apart', () => {
    expect(printedCollectionDates([[...scanned('2023-05-12', 0.96), ...scanned('2023-03-12', 0.81)]])).toEqual(['2023-05-12']);
  });

  it('never folds dates more than one digit apart, nor dates of different forms', () => {
    expect(printedCollectionDates([scanned('2022-06-28', 0.5), scanned('2023-08-28'), scanned('2023-08-28')]).sort()).toEqual(['2022-06-28', '2023-08-28']);
    expect(printedCollectionDates([scanned('2023-08-2'), scanned('2023-08-28'), scanned('2023-08-28')]).sort()).toEqual(['2023-08-2', '2023-08-28']);
  });
});

describe('classifyDocument on a scan that misreads one collection date', () => {
  /** The report's pages as OCR gives them (every word with a confidence), the first page's collection dates read with one digit changed. */
  async function readWithFirstPageMisread(recognised: boolean): Promise<PageText[]> {
    const { pdf } = await generateQuestReport({ seed: 44, panelCount: 16, collectionDate: '2024-11-10' });
    const pages = await readPdfText(pdf);
    expect(pages.length).toBeGreaterThan(2);
    return pages.map((page) => ({
      ...page,
      source: recognised ? 'ocr' : 'text',
      items: page.items.map((item) => ({
        ...item,
        str: page.pageNumber === 1 ? item.str.replaceAll('11/10/2024', '11/16/2024') : item.str,
        ...(recognised ? { confidence: 0.9 } : {}),
      })),
    }));
  }

  it('takes the date the other pages read', async () => {
    const pages = await readWithFirstPageMisread(true);
    expect(pages[0]!.items.some((item) => item.str.includes('11/16/2024'))).toBe(true);
    expect(classifyDocument(pages)).toEqual({ kind: 'lab_report', vendor: 'quest', collectionDate: '2024-11-10' });
  });

  it('still refuses the same dates printed in a text layer', async () => {
    expect(classifyDocument(await readWithFirstPageMisread(false))).toMatchObject({ kind: 'invalid', reason: 'multiple_collection_dates' });
  });
});
