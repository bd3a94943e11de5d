import { PDFDocument, StandardFonts } from 'pdf-lib';
import { InvalidPdfError, readPdfText, TooManyScannedPagesError } from '../../../../functions/lab/pdf-text';

describe('readPdfText', () => {
  it('returns each page with its size and the text items at their PDF coordinates', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([612, 792]).drawText('GLUCOSE', { x: 48, y: 700, size: 8, font });
    const second = doc.addPage([612, 792]);
    second.drawText('105', { x: 250, y: 688.5, size: 10, font });
    second.drawText('   ', { x: 300, y: 688.5, size: 10, font });
    const bytes = await doc.save();
    const pages = await readPdfText(bytes);
    expect(pages.map((p) => [p.pageNumber, p.width, p.height])).toEqual([
      [1, 612, 792],
      [2, 612, 792],
    ]);
    expect(pages[0]!.items).toEqual([{ str: 'GLUCOSE', x: 48, y: 700, width: expect.closeTo(font.widthOfTextAtSize('GLUCOSE', 8), 1), height: 8 }]);
    expect(pages[1]!.items).toEqual([expect.objectContaining({ str: '105', x: 250, y: 688.5, height: 10 })]);
    // pdf.js detaches the buffer it reads; the caller's stays usable.
    expect(bytes.byteLength).toBeGreaterThan(0);
  });

  it.each([
    ['not a PDF', new TextEncoder().encode('hello, this is not a pdf')],
    ['a truncated PDF', new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog')],
    ['no bytes', new Uint8Array()],
  ])('throws InvalidPdfError (invalid_pdf) for %s', async (_name, bytes) => {
    const error = await readPdfText(bytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidPdfError);
    expect(error).toMatchObject({ code: 'invalid_pdf', status: 400 });
  });

  it('stops with too_many_pages at the first page needing OCR over the caller’s limit, and reads up to it', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([612, 792]).drawText('Page 1 of 4: ' + 'GLUCOSE 95 mg/dL 65-99 '.repeat(8), { x: 20, y: 700, size: 6, font });
    for (let i = 0; i < 3; i++) doc.addPage([612, 792]);
    const bytes = await doc.save();
    const error = await readPdfText(bytes, { maxScanPages: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TooManyScannedPagesError);
    expect(error).toMatchObject({ code: 'too_many_pages', status: 400, limit: 2 });
    expect((await readPdfText(bytes, { maxScanPages: 3 })).map((p) => p.source ?? 'ocr')).toEqual(['text', 'ocr', 'ocr', 'ocr']);
  });
});
