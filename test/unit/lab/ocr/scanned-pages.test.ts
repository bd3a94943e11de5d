import { PDFDocument, StandardFonts } from 'pdf-lib';
import { classifyDocument } from '../../../../functions/lab/classify-document';
import { RESTORED_CONFIDENCE } from '../../../../functions/lab/ocr/decimal-points';
import { MAX_RENDER_PIXELS, renderPages, renderResolution } from '../../../../functions/lab/ocr/page-image';
import { recognizePages, recognizeWaitingPages, UnreadablePageError, withRecognizedPages } from '../../../../functions/lab/ocr/recognize-pages';
import type { ImageRegion, PageImage, RecognizedWord, TextRecognizer } from '../../../../functions/lab/ocr/recognizer';
import { stopTesseract, tesseractRecognizer } from '../../../../functions/lab/ocr/tesseract-recognizer';
import { extractLabResults } from '../../../../functions/lab/parsers';
import { type PageText, readPdfText } from '../../../../functions/lab/pdf-text';
import { scannedDocument, unreadableSearchableScan } from '../../../fixtures/lab-documents/documents';
import { type GeneratedReport, generateLabcorpReport, generateQuestReport } from '../../../fixtures/labs/generator';
import { renderingSet } from '../../../fixtures/labs/rendering/set';
import { FAX_SCAN, NOISY_SCAN, scanned } from '../../../fixtures/labs/scanned';

/**
 * OCR of image-only pages into the reader's positioned text, with the real engine (tesseract.js and
 * the English model from npm) on "scanned" renderings of generated reports. One Tesseract worker for
 * the whole file (starting one dominates); a few pages only, each recognised once.
 */

// Each page takes seconds of OCR; a busy machine stretches that several times.
jest.setTimeout(180_000);

afterAll(() => stopTesseract());

/** Share of the report's printed values that appear as whole OCR words on their page. */
function valuesFound(report: GeneratedReport, pages: readonly PageText[]): number {
  const results = report.truth.panels.flatMap((p) => p.results);
  const words = new Map(pages.map((p) => [p.pageNumber, new Set(p.items.map((i) => i.str))]));
  return results.filter((r) => words.get(r.pageNumber)?.has(r.resultValue)).length / results.length;
}

describe('a clean 200-dpi scan of a Quest report', () => {
  let report: GeneratedReport;
  let pages: PageText[];

  beforeAll(async () => {
    report = await generateQuestReport({ seed: 7, panelCount: 2 });
    const pdf = await scanned(report.pdf, { seed: 7 });
    const text = await readPdfText(pdf);
    expect(text.map((p) => [p.source, p.items.length])).toEqual(text.map(() => [undefined, 0]));
    pages = await withRecognizedPages(pdf, text, tesseractRecognizer);
  });

  it('becomes OCR pages of words with boxes on the page and confidences', () => {
    expect(pages.map((p) => p.source)).toEqual(pages.map(() => 'ocr'));
    const items = pages.flatMap((p) => p.items);
    expect(items.length).toBeGreaterThan(100);
    for (const item of items) {
      expect(item.str).not.toMatch(/\s/);
      expect(item.confidence).toBeGreaterThanOrEqual(0);
      expect(item.confidence).toBeLessThanOrEqual(1);
      expect(item.x).toBeGreaterThanOrEqual(0);
      expect(item.x + item.width).toBeLessThanOrEqual(pages[0]!.width + 1);
      expect(item.height).toBeGreaterThan(4);
      expect(item.height).toBeLessThan(20);
    }
  });

  it('reads most printed values and classifies like the text original, with its collection date', () => {
    expect(valuesFound(report, pages)).toBeGreaterThanOrEqual(0.85);
    expect(classifyDocument(pages)).toMatchObject({ kind: 'lab_report', vendor: 'quest', collectionDate: report.truth.collectionDate });
  });
});

it('straightens a noisy 150-dpi scan turned by 3° before recognition, so rows stay rows', async () => {
  const report = await generateLabcorpReport({ seed: 3, panelCount: 1 });
  const pdf = await scanned(report.pdf, { ...NOISY_SCAN, seed: 3 });
  const [first] = await readPdfText(pdf);
  const recognized = [];
  for await (const page of recognizePages(pdf, [first!.pageNumber], tesseractRecognizer)) recognized.push(page);
  expect(recognized[0]!.renderer).toBe('scan-images');
  expect(recognized[0]!.skewDegrees).toBeCloseTo(NOISY_SCAN.skewDegrees, 0);
  expect(valuesFound(report, [recognized[0]!.page])).toBeGreaterThanOrEqual(0.8);
});

it('reads a scan stored as JPEG 2000, which the pdf.js build draws blank, from its decoded samples', async () => {
  // Before jpx-image.ts the page was drawn white and the job ended unreadable.
  const report = await generateQuestReport({ seed: 11, panelCount: 1 });
  const pdf = await scanned(report.pdf, { seed: 11, imageFormat: 'jpeg2000' });
  const recognized = [];
  for await (const page of recognizePages(pdf, [1], tesseractRecognizer)) recognized.push(page);
  expect(recognized[0]!.renderer).toBe('scan-images');
  expect(valuesFound(report, [recognized[0]!.page])).toBeGreaterThanOrEqual(0.85);
});

it('reads a photographed page whose light falls to 40 % across it as it reads the page evenly lit', async () => {
  // A Quest report of the rendering generator: evenly lit, 35 of its 40 values are read as words; with
  // the light falling off and nothing done about it, 25 (the dim corner's paper counted as ink).
  const report = (await renderingSet(9, 17)).filter((r) => r.truth.expected.status === 'completed')[1]!;
  const pdf = await scanned(report.pdf, { seed: 101, lightFalloff: 0.6 });
  const pages = await withRecognizedPages(pdf, await readPdfText(pdf), tesseractRecognizer);
  expect(valuesFound(report, pages)).toBeGreaterThanOrEqual(0.85);
  expect(classifyDocument(pages)).toMatchObject({ kind: 'lab_report', vendor: 'quest' });
});

it('straightens a sheet photographed on a dark table by its lines, not by the table around it', async () => {
  // A Labcorp report's first page, 14 of its values, lying turned by 3° on a table that shows 30 % of
  // the sheet's size around it. Measured with the table, the grey band the lighting correction leaves
  // around the sheet weighed more than the sparse text in the skew measure (1.4° for 3°): no value was read.
  const report = (await renderingSet(3, 29)).filter((r) => r.truth.expected.status === 'completed')[0]!;
  const firstPage = await PDFDocument.create();
  firstPage.addPage((await firstPage.copyPages(await PDFDocument.load(report.pdf), [0]))[0]!);
  const pdf = await scanned(await firstPage.save(), { seed: 300, dpi: 300, skewDegrees: 3, lightFalloff: 0.5, tableMargin: 0.3, tableGrey: 60 });
  const recognized = [];
  for await (const page of recognizePages(pdf, [1], tesseractRecognizer)) recognized.push(page);
  const [{ page, skewDegrees }] = recognized as [(typeof recognized)[number]];
  expect(skewDegrees).toBeGreaterThan(2.9);
  expect(skewDegrees).toBeLessThan(3.1);
  const printed = report.truth.panels.flatMap((p) => p.results).filter((r) => r.pageNumber === 1);
  const words = new Set(page.items.map((i) => i.str));
  expect(printed.filter((r) => words.has(r.resultValue)).length / printed.length).toBeGreaterThanOrEqual(0.85);
});

it('draws a sheet photographed at a slant on a table flat before reading it, so its columns stand upright', async () => {
  // A one-page Labcorp report in Courier, photographed on a table with the camera tilted: the top edge
  // of the picture 3 % of its width narrower at each end. Straightened by one angle only, its columns
  // leaned in and the reader lost its lipid panel's rows; drawn flat, it reads every result.
  const report = (await renderingSet(26, 17)).filter((r) => r.truth.expected.status === 'completed')[14]!;
  const pdf = await scanned(report.pdf, { seed: 302, dpi: 300, skewDegrees: 0.5, lightFalloff: 0.4, tableMargin: 0.3, tableGrey: 80, keystone: 0.03 });
  const pages = await withRecognizedPages(pdf, await readPdfText(pdf), tesseractRecognizer);
  const classified = classifyDocument(pages);
  if (classified.kind !== 'lab_report') throw new Error(`read as ${classified.kind}`);
  const read = extractLabResults(pages, classified).panels.flatMap((p) => p.panelResults);
  const printed = report.truth.panels.flatMap((p) => p.results);
  expect(read.map((r) => [r.biomarker, r.resultValue])).toEqual(printed.map((r) => [r.biomarker, r.resultValue]));
});

describe('a fax: a black-and-white 200-dpi page, which pdf.js draws at 300 dpi pixel by pixel', () => {
  it('is drawn again with its image smoothed, so its ink has grey edges as a grey scan has', async () => {
    const report = await generateQuestReport({ seed: 5, panelCount: 1 });
    const pdf = await scanned(report.pdf, { ...FAX_SCAN, skewDegrees: 0, noise: 0, seed: 5 });
    const rendered = [];
    for await (const page of renderPages(pdf, [1])) rendered.push(page);
    expect(rendered[0]!.renderer).toBe('pdf.js');
    const marked = rendered[0]!.image.grey.filter((level) => level < 247);
    const edges = marked.filter((level) => level > 8);
    // Drawn pixel by pixel every marked pixel is black (each sample one or two device pixels).
    expect(edges.length / marked.length).toBeGreaterThan(0.2);
  });

  it.each([
    ['CCITT Group 4 (a fax gateway\'s PDF)', 'group4'],
    ['JBIG2 (an archiving scanner\'s PDF)', 'jbig2'],
  ] as const)('is drawn the same compressed in %s as with Flate', async (_how, bilevelCodec) => {
    const report = await generateQuestReport({ seed: 8, panelCount: 2 });
    const drawn = async (pdf: Uint8Array) => {
      for await (const page of renderPages(pdf, [1])) return page.image;
      throw new Error('no page drawn');
    };
    const uncompressed = await drawn(await scanned(report.pdf, { ...FAX_SCAN, seed: 8 }));
    const compressed = await drawn(await scanned(report.pdf, { ...FAX_SCAN, seed: 8, bilevelCodec }));
    expect(uncompressed.grey.filter((level) => level < 128).length).toBeGreaterThan(0.01 * uncompressed.grey.length);
    expect([compressed.width, compressed.height]).toEqual([uncompressed.width, uncompressed.height]);
    expect(Buffer.from(compressed.grey).equals(Buffer.from(uncompressed.grey))).toBe(true);
  });

  it('reads the values a fax of a Quest report prints', async () => {
    // Drawn pixel by pixel, this page read 16 of its 20 values as words (`3398` as `3308`); smoothed, 19.
    const report = (await renderingSet(36, 17)).filter((r) => r.truth.expected.status === 'completed')[2]!;
    const pdf = await scanned(report.pdf, { ...FAX_SCAN, skewDegrees: 0.4, seed: 402 });
    const pages = await withRecognizedPages(pdf, await readPdfText(pdf), tesseractRecognizer);
    expect(valuesFound(report, pages)).toBeGreaterThanOrEqual(0.9);
  });
});

describe('a sheet scanned upside down or sideways', () => {
  // Read as drawn, such a page is no words at all: it ended the job unreadable.
  it.each([
    ['upside down', 2, 2],
    ['sideways, turned clockwise on the glass', 1, 3],
  ])('is read %s, turned back, in a frame of the turned page', async (_how, sheetTurns, readTurns) => {
    const report = await generateQuestReport({ seed: 6, panelCount: 3 });
    const pdf = await scanned(report.pdf, { seed: 6, skewDegrees: 0.6, quarterTurns: sheetTurns });
    const [first] = await readPdfText(pdf);
    // Readings of the whole page (second looks at words and regions aside): upright, then the turns tried.
    let pageReadings = 0;
    const counting: TextRecognizer = {
      ...tesseractRecognizer,
      recognize: (image) => {
        if (image.width * image.height >= 0.9 * first!.width * first!.height * (300 / 72) ** 2) pageReadings++;
        return tesseractRecognizer.recognize(image);
      },
    };
    const recognized = [];
    for await (const recognition of recognizePages(pdf, [first!.pageNumber], counting)) recognized.push(recognition);
    const [{ page, quarterTurns, skewDegrees }] = recognized as [(typeof recognized)[number]];
    expect(quarterTurns).toBe(readTurns);
    // Upside down: upright, then a half turn. Sideways, its lines running down the page: the quarter turns first.
    expect(pageReadings).toBe(sheetTurns === 2 ? 2 : 3);
    expect(skewDegrees).toBeCloseTo(0.6, 0);
    // The words are placed on the page as it reads: upright, a portrait sheet even where the scan is landscape.
    expect(page.height).toBeGreaterThan(page.width);
    const [width, height] = sheetTurns % 2 === 0 ? [first!.width, first!.height] : [first!.height, first!.width];
    expect(page.width).toBeCloseTo(width, 6);
    expect(page.height).toBeCloseTo(height, 6);
    expect(valuesFound(report, [page])).toBeGreaterThanOrEqual(0.9);
    expect(classifyDocument([page])).toMatchObject({ kind: 'lab_report', vendor: 'quest', collectionDate: report.truth.collectionDate });
  });
});

it('draws a page of a photo’s size (a 12-megapixel photo wrapped as 42 × 56 in) within the pixels of a legal sheet at 300 dpi, words placed in its own units', async () => {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const sheet = pdf.addPage([3024, 4032]);
  // A sheet's worth of lines at the size a photo's pixels give them, so the page is no blank one.
  for (let line = 0; line < 40; line++) sheet.drawText(line === 10 ? 'GLUCOSE 95 mg/dL 65-99' : 'SODIUM 140 mmol/L 134-144', { x: 300, y: 3600 - 80 * line, size: 60, font });
  const bytes = await pdf.save();
  expect(renderResolution({ width: 612, height: 792 }, 300)).toBe(300);
  const rendered = [];
  for await (const page of renderPages(bytes, [1])) rendered.push(page);
  const [{ width, height, image }] = rendered as [(typeof rendered)[number]];
  expect(width).toBeCloseTo(3024, 6);
  expect(height).toBeCloseTo(4032, 6);
  expect(image.width * image.height).toBeLessThanOrEqual(MAX_RENDER_PIXELS * 1.001);
  expect(image.width / image.height).toBeCloseTo(3024 / 4032, 2);
  const recognized = [];
  for await (const { page } of recognizePages(bytes, [1], tesseractRecognizer)) recognized.push(page);
  const glucose = recognized[0]!.items.find((i) => i.str === 'GLUCOSE');
  expect(glucose?.x).toBeCloseTo(300, -1);
  expect(glucose?.y).toBeCloseTo(2800, -1);
});

it('sends a page whose text layer decodes to nothing to OCR, and keeps pages with real text', async () => {
  const report = await generateQuestReport({ seed: 9, panelCount: 1 });
  const broken = await readPdfText(await scanned(report.pdf, { seed: 9, textLayer: 'undecodable' }));
  expect(broken.every((p) => p.source === undefined && p.items.length === 0)).toBe(true);
  const original = await readPdfText(report.pdf);
  expect(original.every((p) => p.source === 'text' && p.items.length > 0)).toBe(true);
});

it('reads a searchable scan from its image, not from the OCR layer another program wrote over it', async () => {
  const report = await generateQuestReport({ seed: 9, panelCount: 1 });
  const pdf = await scanned(report.pdf, { seed: 9, textLayer: 'misread' });
  const text = await readPdfText(pdf);
  expect(text.map((p) => [p.source, p.items.length])).toEqual(text.map(() => [undefined, 0]));
  const pages = await withRecognizedPages(pdf, text, tesseractRecognizer);
  const classified = classifyDocument(pages);
  if (classified.kind !== 'lab_report') throw new Error(`read as ${classified.kind}`);
  const read = extractLabResults(pages, classified).panels.flatMap((p) => p.panelResults);
  const printed = report.truth.panels.flatMap((p) => p.results);
  expect(read.map((r) => [r.biomarker, r.resultValue, r.provenance.source])).toEqual(printed.map((r) => [r.biomarker, r.resultValue, 'ocr']));
});

it('reads a searchable scan whose image OCR cannot read from its hidden layer, and says so by the source', async () => {
  const report = await generateQuestReport({ seed: 9, panelCount: 1 });
  const pdf = await unreadableSearchableScan(report.pdf);
  const text = await readPdfText(pdf);
  expect(text.map((p) => [p.source, p.items.length, (p.hiddenLayer?.length ?? 0) > 20])).toEqual([[undefined, 0, true]]);
  const pages = await withRecognizedPages(pdf, text, tesseractRecognizer);
  expect(pages.map((p) => [p.source, p.hiddenLayer])).toEqual([['text', undefined]]);
  const classified = classifyDocument(pages);
  if (classified.kind !== 'lab_report') throw new Error(`read as ${classified.kind}`);
  const read = extractLabResults(pages, classified).panels.flatMap((p) => p.panelResults);
  const printed = report.truth.panels.flatMap((p) => p.results).filter((r) => r.pageNumber === 1);
  expect(read.map((r) => [r.biomarker, r.resultValue, r.provenance.source])).toEqual(printed.map((r) => [r.biomarker, r.resultValue, 'text']));
});

it('reads a blank scanned page as an empty OCR page, and a page of marks it cannot read as unreadable', async () => {
  const blank = await PDFDocument.create();
  blank.addPage([612, 792]);
  const blankPdf = await blank.save();
  const [page] = await withRecognizedPages(blankPdf, await readPdfText(blankPdf), tesseractRecognizer);
  expect(page).toMatchObject({ source: 'ocr', items: [] });

  const marks = await scannedDocument();
  const error = await withRecognizedPages(marks, await readPdfText(marks), tesseractRecognizer).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnreadablePageError);
  expect(error).toMatchObject({ pageNumber: 1 });
});

it('reads a region of a page on its own as one line, its words placed on the page, and the same beside page readings on other engines', async () => {
  // A value column's lone digit and a unit, drawn in the page's PDF fonts (a 300-dpi grey page).
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const sheet = pdf.addPage([300, 60]);
  sheet.drawText('7', { x: 100, y: 25, size: 10, font });
  sheet.drawText('mg/dL', { x: 200, y: 25, size: 10, font });
  const bytes = await pdf.save();
  let image: PageImage | undefined;
  for await (const rendered of renderPages(bytes, [1])) image = rendered.image;
  if (!image) throw new Error('the page was not rendered');
  // The digit stands between x = 100 and 106 pt, y = 25 to 32 pt above the bottom: pixels at 300 dpi.
  const px = (pt: number) => Math.round((pt * image.dpi) / 72);
  const region = { x0: px(98), y0: image.height - px(36), x1: px(110), y1: image.height - px(22) };
  const words = await tesseractRecognizer.recognizeLine!(image, region);
  expect(words.map((w) => w.text)).toEqual(['7']);
  expect(words[0]!.x0).toBeGreaterThanOrEqual(region.x0);
  expect(words[0]!.x1).toBeLessThanOrEqual(region.x1);
  expect(words[0]!.y0).toBeGreaterThanOrEqual(region.y0);
  expect(words[0]!.confidence).toBeGreaterThan(0.8);

  // Read side by side with the whole page (two engines where there are two cores, each told its own
  // mode): each reading is what it is alone.
  const page = await tesseractRecognizer.recognize(image);
  // In this order each engine is given both modes in turn.
  const readings = await Promise.all([
    tesseractRecognizer.recognizeLine!(image, region),
    tesseractRecognizer.recognize(image),
    tesseractRecognizer.recognize(image),
    tesseractRecognizer.recognizeLine!(image, region),
  ]);
  expect(page.map((w) => w.text)).toContain('mg/dL');
  expect(readings).toEqual([words, page, page, words]);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for `promise`, `ms` at most; the timer is cleared, so no test leaves one running behind it. */
async function atMost(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/** Six confident words: what a page needs to count as read (recognize-pages.ts, isReadable). */
/** A page's reading that reads as text: more than five sure words of three letters or digits. */
const READABLE_WORDS: RecognizedWord[] = ['GLUCOSE', '95', 'mg/dL', '65-99', 'SODIUM', '140', 'mmol/L', '135-146', 'POTASSIUM', '4.2'].map((text, i) => ({
  text,
  x0: 10 + 60 * i,
  y0: 10,
  x1: 60 + 60 * i,
  y1: 30,
  confidence: 0.95,
}));

/** A scanned Quest report of three pages or more, at a low resolution (these tests use no engine). */
async function threePageScan(): Promise<{ pdf: Uint8Array; pageNumbers: number[] }> {
  const report = await generateQuestReport({ seed: 11, panelCount: 10 });
  const pdf = await scanned(report.pdf, { seed: 11, dpi: 100 });
  const pageNumbers = (await readPdfText(pdf)).map((p) => p.pageNumber);
  expect(pageNumbers.length).toBeGreaterThanOrEqual(3);
  return { pdf, pageNumbers };
}

/** The pages read before the reading stopped, and the error it stopped with. */
async function readUntilStopped(pdf: Uint8Array, pageNumbers: number[], recognizer: TextRecognizer, render: typeof renderPages): Promise<{ read: number[]; error: unknown }> {
  const read: number[] = [];
  const error = await (async () => {
    for await (const page of recognizePages(pdf, pageNumbers, recognizer, 100, render)) read.push(page.page.pageNumber);
  })().catch((e: unknown) => e);
  return { read, error };
}

it('renders the next page while the engine reads the current one, and lets the rendering go when a page is unreadable', async () => {
  const { pdf, pageNumbers } = await threePageScan();
  const rendered: number[] = [];
  async function* watchedRender(...args: Parameters<typeof renderPages>) {
    for await (const page of renderPages(...args)) {
      rendered.push(page.pageNumber);
      yield page;
    }
  }
  const renderedWhileReading: number[][] = [];
  const recognizer = {
    engine: 'fake',
    async recognize(): Promise<RecognizedWord[]> {
      // Waits (boundedly) for the renderer to deliver the page after this one.
      const waitingFor = rendered.length + 1;
      for (let waited = 0; rendered.length < Math.min(waitingFor, pageNumbers.length) && waited < 30_000; waited += 20) await sleep(20);
      renderedWhileReading.push([...rendered]);
      // The second page reads as nothing, upright or turned: the job stops there.
      return renderedWhileReading.length >= 2 ? [] : READABLE_WORDS;
    },
  };
  const { read, error } = await readUntilStopped(pdf, pageNumbers, recognizer, watchedRender);
  expect(error).toBeInstanceOf(UnreadablePageError);
  expect(read).toEqual([pageNumbers[0]]);
  // Reading page 1, page 2 was rendered already; reading page 2 (upright, then at three turns), page 3.
  expect(renderedWhileReading).toEqual([pageNumbers.slice(0, 2), ...Array.from({ length: 4 }, () => pageNumbers.slice(0, 3))]);
});

it('turns a page whose upright reading is sure single letters and marks, as small type read sideways comes back', async () => {
  const { pdf, pageNumbers } = await threePageScan();
  // Upright (and upside down) the engine reads the page's lines across: letters and marks, most of them sure.
  const sideways = ['a', 'w', '=', '0', 'I', 'SS', '=z', 'c', 'Zz', 'i', 'w', 'I'].map((text, i) => ({ text, x0: 10 + 30 * i, y0: 10, x1: 30 + 30 * i, y1: 30, confidence: 0.9 }));
  const turns: boolean[] = [];
  const recognizer: TextRecognizer = {
    engine: 'fake',
    async recognize(image) {
      const turned = image.width > image.height;
      turns.push(turned);
      return turned ? READABLE_WORDS : sideways;
    },
  };
  const recognitions = [];
  for await (const recognition of recognizePages(pdf, [pageNumbers[0]!], recognizer, 100)) recognitions.push(recognition);
  expect(recognitions[0]!.quarterTurns % 2).toBe(1);
  expect(recognitions[0]!.page.items.map((item) => item.str)).toContain('POTASSIUM');
  // Upright, then upside down, then a quarter turn.
  expect(turns).toEqual([false, false, true]);
});

it('reads on past a searchable page OCR cannot read, from its hidden layer; without one, the reading stops there', async () => {
  const { pdf } = await threePageScan();
  const scan = await readPdfText(pdf);
  const layer = READABLE_WORDS.map((w) => ({ str: w.text, x: w.x0, y: 700, width: w.x1 - w.x0, height: 9 }));
  const searchable = scan.map((p, i) => (i === 1 ? { ...p, hiddenLayer: layer } : p));
  /** Reads every page but the second (upright, then at three turns: calls 2 to 5). */
  const secondUnreadable = (): TextRecognizer => {
    let calls = 0;
    return { engine: 'fake', recognize: async () => (++calls >= 2 && calls <= 5 ? [] : READABLE_WORDS) };
  };
  const read: Array<[number, string | undefined, boolean]> = [];
  for await (const result of recognizeWaitingPages(pdf, searchable, secondUnreadable(), lowResolution)) read.push([result.page.pageNumber, result.page.source, 'fromHiddenLayer' in result]);
  expect(read).toEqual(scan.map((p, i) => [p.pageNumber, i === 1 ? 'text' : 'ocr', i === 1]));
  expect(read.length).toBeGreaterThanOrEqual(3);

  const stopped: number[] = [];
  const error = await (async () => {
    for await (const result of recognizeWaitingPages(pdf, scan, secondUnreadable(), lowResolution)) stopped.push(result.page.pageNumber);
  })().catch((e: unknown) => e);
  expect(error).toMatchObject({ name: 'UnreadablePageError', pageNumber: scan[1]!.pageNumber });
  expect(stopped).toEqual([scan[0]!.pageNumber]);
});

/** Renders at 100 dpi (these tests use no engine). */
function lowResolution(bytes: Uint8Array, pageNumbers: readonly number[]): ReturnType<typeof renderPages> {
  return renderPages(bytes, pageNumbers, 100);
}

/** Renders as renderPages does until page `failing` (1-based, in reading order), whose rendering fails; `failed` says whether it has. */
function renderFailingAt(failing: number): { render: typeof renderPages; failed: () => boolean } {
  let failed = false;
  async function* render(...args: Parameters<typeof renderPages>) {
    let count = 0;
    for await (const page of renderPages(...args)) {
      if (++count === failing) {
        failed = true;
        throw new Error(`page ${failing} could not be drawn`);
      }
      yield page;
    }
  }
  return { render, failed: () => failed };
}

it('fails with the rendering error of a later page, raised while the engine reads an earlier one, as the whole reading\'s error', async () => {
  const { pdf, pageNumbers } = await threePageScan();
  const second = renderFailingAt(2);
  // Jest fails a test in which a promise is rejected with no handler: the rendering's failure must wait for its turn.
  const recognizer = {
    engine: 'fake',
    async recognize(): Promise<RecognizedWord[]> {
      // The engine is still reading page 1 when the rendering of page 2 fails, and a while after.
      for (let waited = 0; !second.failed() && waited < 30_000; waited += 20) await sleep(20);
      await sleep(200);
      return READABLE_WORDS;
    },
  };
  const { read, error } = await readUntilStopped(pdf, pageNumbers, recognizer, second.render);
  expect(second.failed()).toBe(true);
  expect(read).toEqual([pageNumbers[0]]);
  expect((error as Error).message).toBe('page 2 could not be drawn');
});

it('reads as many pages at once as the recognizer has engines, and yields them in page order', async () => {
  const { pdf, pageNumbers } = await threePageScan();
  let [calls, active, most] = [0, 0, 0];
  let secondRead = () => {};
  const second = new Promise<void>((resolve) => {
    secondRead = resolve;
  });
  const recognizer = {
    engine: 'fake',
    parallelism: 2,
    async recognize(): Promise<RecognizedWord[]> {
      const call = ++calls;
      most = Math.max(most, ++active);
      // Page 1 is read until page 2 has been (boundedly: one engine at a time would never get there).
      if (call === 1) await atMost(second, 10_000);
      if (call === 2) secondRead();
      active--;
      return READABLE_WORDS;
    },
  };
  const { read, error } = await readUntilStopped(pdf, pageNumbers, recognizer, renderPages);
  expect(error).toBeUndefined();
  expect(most).toBe(2);
  expect(read).toEqual(pageNumbers);
});

it('with two engines, fails with the first page in order that fails: an unreadable page before a page that cannot be drawn', async () => {
  const { pdf, pageNumbers } = await threePageScan();
  const third = renderFailingAt(3);
  let calls = 0;
  const recognizer = {
    engine: 'fake',
    parallelism: 2,
    async recognize(): Promise<RecognizedWord[]> {
      const call = ++calls;
      // Page 2 reads as nothing (upright or turned), but only once the rendering of page 3 has failed.
      if (call === 2) for (let waited = 0; !third.failed() && waited < 30_000; waited += 20) await sleep(20);
      return call >= 2 ? [] : READABLE_WORDS;
    },
  };
  const { read, error } = await readUntilStopped(pdf, pageNumbers, recognizer, third.render);
  expect(third.failed()).toBe(true);
  expect(read).toEqual([pageNumbers[0]]);
  expect(error).toBeInstanceOf(UnreadablePageError);
  expect(error).toMatchObject({ pageNumber: pageNumbers[1] });
});

/** A word printed on a two-line monospaced sheet: its text and its baseline's start (PDF points). */
interface Printed {
  text: string;
  x: number;
  y: number;
}

/** A title line over the row: words the engine reads surely, so that the page counts as read (isReadable). */
const TITLE_LINE: readonly Printed[] = [
  { text: 'COMPREHENSIVE', x: 20, y: 45 },
  { text: 'METABOLIC', x: 110, y: 45 },
];

const SHEET_WIDTH = 400;
const SCALE = 300 / 72;

/**
 * A 400 × 60 pt sheet of words in Courier 10 pt, and each word's box on its 300-dpi rendering (`height`
 * pixels tall): what an engine that reads every word surely would place.
 */
async function monospacedSheet(printed: readonly Printed[]): Promise<{ bytes: Uint8Array; boxOf: (word: Printed, height: number) => Omit<RecognizedWord, 'text' | 'confidence'> }> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Courier);
  const sheet = pdf.addPage([SHEET_WIDTH, 60]);
  for (const { text, x, y } of printed) sheet.drawText(text, { x, y, size: 10, font });
  const boxOf = ({ text, x, y }: Printed, height: number) => ({
    x0: Math.round(x * SCALE),
    x1: Math.round((x + font.widthOfTextAtSize(text, 10)) * SCALE),
    y0: height - Math.round((y + 8) * SCALE),
    y1: height - Math.round((y - 2) * SCALE),
  });
  return { bytes: await pdf.save(), boxOf };
}

/** Whether a single-line reading was given the page (with a region of it: the look at uncovered ink), not a cut-out read whole. */
const isThePage = (image: PageImage) => image.width === Math.round(SHEET_WIDTH * SCALE);

async function pagesRead(bytes: Uint8Array, recognizer: TextRecognizer): Promise<PageText[]> {
  const pages: PageText[] = [];
  for await (const { page } of recognizePages(bytes, [1], recognizer)) pages.push(page);
  return pages;
}

it('reads again a doubted word that the look at uncovered ink found, as it reads doubted page words', async () => {
  // A row of a monospaced report: the page reading finds its words but the value; the look at the
  // ink it left reads the value as letters, unsurely (Liberation Mono's `8.1` read `Bix`).
  const printed = [
    ...TITLE_LINE,
    { text: 'Protein,', x: 20, y: 25 },
    { text: 'Total', x: 80, y: 25 },
    { text: '8.1', x: 200, y: 25 },
    { text: '6.1-8.1', x: 260, y: 25 },
    { text: 'g/dL', x: 340, y: 25 },
  ];
  const { bytes, boxOf } = await monospacedSheet(printed);
  const lineReadings: string[] = [];
  const fake: TextRecognizer = {
    engine: 'fake',
    recognize: async (image) => printed.filter((w) => w.text !== '8.1').map((w) => ({ text: w.text, ...boxOf(w, image.height), confidence: 0.95 })),
    recognizeLine: async (image, region) => {
      const onPage = isThePage(image);
      lineReadings.push(onPage ? 'uncovered ink' : `again at ${image.dpi} dpi`);
      return [{ text: onPage ? 'Bix' : '8.1', x0: region.x0 + 2, y0: region.y0 + 2, x1: region.x1 - 2, y1: region.y1 - 2, confidence: onPage ? 0.55 : 0.93 }];
    },
  };
  const [page] = await pagesRead(bytes, fake);
  expect(lineReadings).toEqual(['uncovered ink', 'again at 150 dpi', 'again at 300 dpi']);
  const value = page!.items.find((item) => item.str === '8.1' && item.x < 240);
  expect(value).toBeDefined();
  expect(value!.confidence).toBeCloseTo(0.7);
  expect(page!.items.map((item) => item.str)).not.toContain('Bix');
});

it('keeps a lone `%` the engine doubted as tall as its line’s digits, and drops one a speck’s size', async () => {
  // Labcorp's HbA1c row, its unit a `%` alone in its column: read at 0.52 on a clean 300-dpi scan.
  const printed = [...TITLE_LINE, { text: 'Hemoglobin', x: 20, y: 25 }, { text: '5.4', x: 200, y: 25 }, { text: '%', x: 260, y: 25 }, { text: '4.8-5.6', x: 300, y: 25 }];
  const { bytes, boxOf } = await monospacedSheet(printed);
  const read = async (percentShare: number) => {
    const fake: TextRecognizer = {
      engine: 'fake',
      recognize: async (image) =>
        printed.map((w) => {
          const box = boxOf(w, image.height);
          // The line is as tall as the digits' boxes; a `%` a speck's size stands a fifth of it.
          return w.text === '%' ? { text: '%', ...box, y0: box.y1 - Math.round((box.y1 - box.y0) * percentShare), confidence: 0.52, lineHeight: box.y1 - box.y0 } : { text: w.text, ...box, confidence: 0.95 };
        }),
      recognizeLine: async () => [],
    };
    const [page] = await pagesRead(bytes, fake);
    return page!.items.map((item) => item.str);
  };
  expect(await read(1)).toContain('%');
  expect(await read(0.2)).not.toContain('%');
});

it('reads again whole a range the page reading gave a shape no printer prints, after its pieces are joined', async () => {
  // Liberation Mono's `3.6-5.1`, read `8:6-5.1` surely enough not to be doubted.
  const printed = [
    ...TITLE_LINE,
    { text: 'ALBUMIN', x: 20, y: 25 },
    { text: '4.4', x: 200, y: 25 },
    { text: '3.6-5.1', x: 260, y: 25 },
    { text: 'g/dL', x: 340, y: 25 },
  ];
  const { bytes, boxOf } = await monospacedSheet(printed);
  const misread = (text: string) => (text === '3.6-5.1' ? { text: '8:6-5.1', confidence: 0.68 } : { text, confidence: 0.95 });
  const fake: TextRecognizer = {
    engine: 'fake',
    recognize: async (image) => printed.map((w) => ({ ...boxOf(w, image.height), ...misread(w.text) })),
    // Nothing more on the page; a cut-out of the range, read whole, is the printed range.
    recognizeLine: async (image, region) => (isThePage(image) ? [] : [{ text: '3.6-5.1', x0: region.x0 + 2, y0: region.y0 + 2, x1: region.x1 - 2, y1: region.y1 - 2, confidence: 0.9 }]),
  };
  const [page] = await pagesRead(bytes, fake);
  const texts = page!.items.map((item) => item.str);
  expect(texts).toContain('3.6-5.1');
  expect(texts).not.toContain('8:6-5.1');
});

it('reads the ink the page reading left beside a word together with the word', async () => {
  // Monospaced `3.6-5.1` read `6-5.1`, its `3.` covered by no word; read alone, those two glyphs are `TL`.
  const printed = [...TITLE_LINE, { text: 'ALBUMIN', x: 20, y: 25 }, { text: '4.4', x: 200, y: 25 }, { text: '3.6-5.1', x: 260, y: 25 }, { text: 'g/dL', x: 340, y: 25 }];
  const { bytes, boxOf } = await monospacedSheet(printed);
  // Courier's advance is 6 pt at 10 pt: the piece read starts two glyphs into the range.
  const piece = { text: '6-5.1', x: 272, y: 25 };
  let pieceBox: Omit<RecognizedWord, 'text' | 'confidence'> | undefined;
  const lineRegions: ImageRegion[] = [];
  const fake: TextRecognizer = {
    engine: 'fake',
    recognize: async (image) => {
      pieceBox = boxOf(piece, image.height);
      return [...printed.filter((w) => w.text !== '3.6-5.1'), piece].map((w) => ({ text: w.text, ...boxOf(w, image.height), confidence: 0.95 }));
    },
    recognizeLine: async (image, region) => {
      if (isThePage(image)) lineRegions.push(region);
      const whole = isThePage(image) && region.x1 >= pieceBox!.x1;
      return [{ text: whole ? '3.6-5.1' : 'TL', x0: region.x0 + 2, y0: region.y0 + 2, x1: region.x1 - 2, y1: region.y1 - 2, confidence: whole ? 0.92 : 0.22 }];
    },
  };
  const [page] = await pagesRead(bytes, fake);
  const range = page!.items.find((item) => item.str === '3.6-5.1');
  expect(range).toBeDefined();
  expect(range!.confidence).toBeCloseTo(0.7);
  expect(page!.items.map((item) => item.str)).not.toContain('6-5.1');
  // One look at the ink, with the piece beside it: from left of the piece to its end.
  expect(lineRegions).toHaveLength(1);
  expect(lineRegions[0]!.x0).toBeLessThan(pieceBox!.x0);
});

it('gives a range the spaces printed around its hyphen, which the engine dropped', async () => {
  const printed = [...TITLE_LINE, { text: 'BUN', x: 20, y: 25 }, { text: '17', x: 200, y: 25 }, { text: '6 - 24', x: 260, y: 25 }, { text: 'mg/dL', x: 320, y: 25 }];
  const { bytes, boxOf } = await monospacedSheet(printed);
  const fake: TextRecognizer = {
    engine: 'fake',
    recognize: async (image) => printed.map((w) => ({ text: w.text.replaceAll(' ', ''), ...boxOf(w, image.height), confidence: 0.95 })),
    recognizeLine: async () => [],
  };
  const [page] = await pagesRead(bytes, fake);
  const texts = page!.items.map((item) => item.str);
  expect(texts).toContain('6 - 24');
  expect(texts).not.toContain('6-24');
});

it('reads a value and a range the engine parted around their points as the numbers the image shows, a point read as a letter (`9s` `4`) or a range cut twice (`0` `2-1.` `2`)', async () => {
  // A thin Courier (URW's Nimbus Mono): `9.4` read as two words, its point an `s` of the first; `0.2-1.2`
  // read as three, whose last two join only as words too close for a space, and the first across the point.
  const printed = [
    ...TITLE_LINE,
    { text: 'Calcium', x: 20, y: 25 },
    { text: '9.4', x: 200, y: 25 },
    { text: '0.2-1.2', x: 250, y: 25 },
    // Single spaces, enough of them for the page's spacing to be measured (unspaced-words.ts).
    { text: 'Collected:', x: 20, y: 8 },
    { text: '11/10/24', x: 86, y: 8 },
    { text: '10:51', x: 140, y: 8 },
    { text: 'ET', x: 176, y: 8 },
    { text: 'Received:', x: 194, y: 8 },
  ];
  const { bytes, boxOf } = await monospacedSheet(printed);
  const cut: Record<string, Printed[]> = {
    '9.4': [
      { text: '9s', x: 200, y: 25 },
      { text: '4', x: 212, y: 25 },
    ],
    '0.2-1.2': [
      { text: '0', x: 250, y: 25 },
      { text: '2-1.', x: 262, y: 25 },
      { text: '2', x: 286, y: 25 },
    ],
  };
  const pieces = (w: Printed) => cut[w.text] ?? [w];
  const fake: TextRecognizer = {
    engine: 'fake',
    recognize: async (image) => printed.flatMap(pieces).map((w) => ({ text: w.text, ...boxOf({ ...w, text: w.text === '9s' ? '9.' : w.text }, image.height), confidence: 0.95 })),
    recognizeLine: async () => [],
  };
  const [page] = await pagesRead(bytes, fake);
  const row = page!.items.filter((item) => item.y > 20 && item.y < 30).map((item) => [item.str, item.confidence]);
  expect(row).toEqual([
    ['Calcium', 0.95],
    ['9.4', RESTORED_CONFIDENCE],
    ['0.2-1.2', RESTORED_CONFIDENCE],
  ]);
});
