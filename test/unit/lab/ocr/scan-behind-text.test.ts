import fc from 'fast-check';
import { concatTransformationMatrix, drawObject, PDFDocument, type PDFFont, type PDFPage, popGraphicsState, pushGraphicsState, StandardFonts, setTextRenderingMode, TextRenderingMode } from 'pdf-lib';
import { SCAN_PIXELS } from '../../../../functions/lab/ocr/image-pixels';
import { readPdfText } from '../../../../functions/lab/pdf-text';

/**
 * Which pages readPdfText leaves to OCR although they carry text: a page-sized image under a few
 * words (a scan with a stamped header), or over most of the text: a searchable scan, whose OCR layer
 * another program wrote invisibly over its image or in ink under it. Pages are built with pdf-lib: lines
 * of lab text drawn before the image, a grey image (opaque, or with a soft mask) scaled to a share of
 * the page, then lines drawn visibly and invisibly over it, the whole drawn directly or inside a form.
 */

/** Four recognisable tokens, 19 characters. */
const LINE = 'GLUCOSE 95 mg/dL 65-99';
const PAGE: [number, number] = [612, 792];

type Hiding = 'render mode 3' | 'render mode 7' | 'alpha 0';

interface PageCase {
  /** Share of the page the image covers. */
  coverage: number;
  /** The image's pixels (below SCAN_PIXELS it cannot be a readable scan). */
  imagePixels: number;
  visibleLines: number;
  hiddenLines: number;
  /** Lines drawn in ink before the image, which covers them when opaque and over 90 % of the page. */
  linesUnder: number;
  /** The image has a soft mask (an alpha channel), so it hides nothing under it. */
  softMask: boolean;
  hiding: Hiding;
  /** The content drawn inside a form XObject (as a page imported from another PDF). */
  inForm: boolean;
}

function drawHidden(page: PDFPage, text: string, at: { x: number; y: number; size: number; font: PDFFont }, hiding: Hiding): void {
  if (hiding === 'alpha 0') {
    page.drawText(text, { ...at, opacity: 0 });
    return;
  }
  const mode = hiding === 'render mode 3' ? TextRenderingMode.Invisible : TextRenderingMode.Clip;
  page.pushOperators(pushGraphicsState(), setTextRenderingMode(mode));
  page.drawText(text, at);
  page.pushOperators(popGraphicsState());
}

async function pageOf(c: PageCase): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage(PAGE);
  const [w, h] = [Math.round(Math.sqrt(c.imagePixels * 1.2)), Math.round(Math.sqrt(c.imagePixels / 1.2))];
  const grey = { Type: 'XObject', Subtype: 'Image', Width: w, Height: h, ColorSpace: 'DeviceGray', BitsPerComponent: 8 };
  const softMask = c.softMask ? { SMask: doc.context.register(doc.context.flateStream(new Uint8Array(w * h).fill(128), grey)) } : {};
  const image = doc.context.register(doc.context.flateStream(new Uint8Array(w * h).fill(235), { ...grey, ...softMask }));
  const scale = Math.sqrt(c.coverage);
  for (let i = 0; i < c.linesUnder; i++) page.drawText(LINE, { x: 40, y: 400 - 14 * i, size: 9, font });
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(PAGE[0] * scale, 0, 0, PAGE[1] * scale, 0, 0), drawObject(page.node.newXObject('Scan', image)), popGraphicsState());
  for (let i = 0; i < c.visibleLines; i++) page.drawText(LINE, { x: 40, y: 740 - 14 * i, size: 9, font });
  for (let i = 0; i < c.hiddenLines; i++) drawHidden(page, LINE, { x: 300, y: 740 - 14 * i, size: 9, font }, c.hiding);
  if (!c.inForm) return doc.save();
  const outer = await PDFDocument.create();
  const [form] = await outer.embedPdf(await doc.save());
  outer.addPage(PAGE).drawPage(form!, { x: 0, y: 0 });
  return outer.save();
}

const pageCase: fc.Arbitrary<PageCase> = fc.record({
  // Half the pages' images cover nearly all of them, as a scan's does.
  coverage: fc.oneof(fc.double({ min: 0.05, max: 1, noNaN: true }), fc.double({ min: 0.85, max: 1, noNaN: true })).filter((c) => Math.abs(c - 0.5) > 0.01 && Math.abs(c - 0.9) > 0.01),
  imagePixels: fc.constantFrom(40_000, SCAN_PIXELS * 1.5),
  visibleLines: fc.integer({ min: 0, max: 12 }),
  hiddenLines: fc.integer({ min: 0, max: 12 }),
  linesUnder: fc.integer({ min: 0, max: 12 }),
  softMask: fc.boolean(),
  hiding: fc.constantFrom<Hiding>('render mode 3', 'render mode 7', 'alpha 0'),
  inForm: fc.boolean(),
});

describe('pages with text that are scans all the same', () => {
  it('sends a page to OCR when images cover half of it under a few words, or a large image with text mostly hidden; reads every other page with text', async () => {
    await fc.assert(
      fc.asyncProperty(pageCase, async (c) => {
        const [page] = await readPdfText(await pageOf(c));
        const covered = c.coverage >= 0.9 && !c.softMask ? c.linesUnder : 0;
        const [shown, hidden] = [c.visibleLines + c.linesUnder - covered, c.hiddenLines + covered];
        const lines = shown + hidden;
        // Fewer than 20 recognisable tokens (5 lines) is a sparse text layer.
        const sparse = lines < 5;
        const scanBehind = c.coverage >= 0.5 && (sparse || (c.imagePixels >= SCAN_PIXELS && hidden > shown));
        expect(page!.source).toBe(lines === 0 || scanBehind ? undefined : 'text');
        // A hidden layer that reads is kept for OCR to fall back on; a stamp on a scan is not.
        expect(page!.hiddenLayer?.length).toBe(scanBehind && !sparse ? lines : undefined);
      }),
      {
        numRuns: 60,
        // A scan over its OCR text in ink (read by OCR), and the same image with a soft mask (read as text).
        examples: [[{ coverage: 1, imagePixels: SCAN_PIXELS * 1.5, visibleLines: 2, hiddenLines: 0, linesUnder: 8, softMask: false, hiding: 'alpha 0', inForm: false }], [{ coverage: 1, imagePixels: SCAN_PIXELS * 1.5, visibleLines: 2, hiddenLines: 0, linesUnder: 8, softMask: true, hiding: 'alpha 0', inForm: true }]],
      },
    );
  });

  it('reads a text page printed over a page-sized background image from its text', async () => {
    const [page] = await readPdfText(await pageOf({ coverage: 1, imagePixels: 2_000_000, visibleLines: 30, hiddenLines: 0, linesUnder: 0, softMask: false, hiding: 'render mode 3', inForm: false }));
    expect(page).toMatchObject({ source: 'text' });
    expect(page!.items).toHaveLength(30);
  });
});
