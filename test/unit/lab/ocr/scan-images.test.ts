import { createCanvas } from '@napi-rs/canvas';
import fc from 'fast-check';
import {
  degrees,
  drawObject,
  fill,
  PDFDocument,
  type PDFPage,
  type PDFRef,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rotateDegrees,
  StandardFonts,
  scale,
  setTextRenderingMode,
  TextRenderingMode,
  translate,
} from 'pdf-lib';
import { contentOperators } from '../../../../functions/lab/ocr/content-operators';
import { exifOrientation } from '../../../../functions/lab/ocr/jpeg-orientation';
import { type RenderedPage, renderPages } from '../../../../functions/lab/ocr/page-image';
import { type Matrix, scannedImagePages } from '../../../../functions/lab/ocr/scan-images';
import { jpeg2000Of } from '../../../fixtures/labs/jpeg2000';

/**
 * Pages that show only JPEG or JPEG 2000 images are drawn from the images' bytes instead of by pdf.js
 * (page-image.ts): which pages qualify (scan-images.ts), and that the drawing is the page pdf.js draws,
 * wherever and however the image is placed.
 */

jest.setTimeout(60_000);

/**
 * The bytes in an ArrayBuffer of their own: pdf-lib reads an embedded image through a view of its whole
 * ArrayBuffer, and a small Buffer is a slice of Node's shared pool.
 */
function unpooled(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

/**
 * Blocks on paper, no two alike (so a misplaced or mirrored drawing shows). Light blocks (no pixel
 * darker than the ink threshold) leave the skew unmeasured, so a page is compared as drawn.
 */
function blocksCanvas(width: number, height: number, seed: number) {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#f4f4f4';
  context.fillRect(0, 0, width, height);
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const level = () => 150 + Math.floor(random() * 60);
  for (let i = 0; i < 40; i++) {
    context.fillStyle = `rgb(${level()}, ${level()}, ${level()})`;
    context.fillRect(random() * width, random() * height, 4 + random() * width * 0.2, 4 + random() * height * 0.1);
  }
  return canvas;
}

/** The blocks as a JPEG. */
async function jpegOf(width: number, height: number, seed = 1): Promise<Uint8Array> {
  return unpooled(await blocksCanvas(width, height, seed).encode('jpeg', 92));
}

/** The blocks' samples, grey (the red channel) or RGB, row by row. */
function blockSamples(width: number, height: number, channels: 1 | 3, seed: number): Uint8Array {
  const rgba = blocksCanvas(width, height, seed).getContext('2d').getImageData(0, 0, width, height).data;
  return new Uint8Array(width * height * channels).map((_, i) => rgba[Math.floor(i / channels) * 4 + (i % channels)]!);
}

/** The image dictionary of samples of `channels` (the colour space named, or left to a JPEG 2000 codestream). */
function imageEntries(width: number, height: number, channels: 1 | 3, named: boolean) {
  const space = named ? { ColorSpace: channels === 1 ? 'DeviceGray' : 'DeviceRGB', BitsPerComponent: 8 } : {};
  return { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ...space };
}

/** Draws an image stream over (x, y) to (x + width, y + height), turned by `turn` degrees about (x, y), as pdf-lib's drawImage does. */
function placeImage(page: PDFPage, image: PDFRef, p: { x: number; y: number; width: number; height: number; turn: number }): void {
  const name = page.node.newXObject('Im', image);
  page.pushOperators(pushGraphicsState(), translate(p.x, p.y), rotateDegrees(p.turn), scale(p.width, p.height), drawObject(name), popGraphicsState());
}

/** A JPEG of lines of dark "words" rising by `skew` degrees: a page of text scanned askew. */
async function askewTextJpeg(width: number, height: number, skew: number): Promise<Uint8Array> {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#f4f4f4';
  context.fillRect(0, 0, width, height);
  context.translate(width / 2, height / 2);
  context.rotate((skew * Math.PI) / 180);
  context.translate(-width / 2, -height / 2);
  context.fillStyle = '#202020';
  for (let y = 30; y < height - 30; y += 18) for (let x = 30; x < width - 60; x += 46 + ((x * 7 + y) % 23)) context.fillRect(x, y, 30 + ((x + y) % 17), 8);
  return unpooled(await canvas.encode('jpeg', 92));
}

/** The JPEG with an EXIF APP1 segment holding only an Orientation tag (big-endian TIFF). */
function withExifOrientation(jpeg: Uint8Array, orientation: number): Uint8Array {
  const tiff = Buffer.from([0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const segment = Buffer.concat([Buffer.from([0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 0xff]), body]);
  return unpooled(Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]));
}

async function pdfWith(draw: (pdf: PDFDocument, page: PDFPage) => Promise<void>, size: [number, number] = [300, 400]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage(size);
  await draw(pdf, page);
  return pdf.save();
}

/** A scan as scanners write it: one JPEG over the whole page. */
function fullPageScan(jpeg: Uint8Array) {
  return async (pdf: PDFDocument, page: PDFPage) => {
    page.drawImage(await pdf.embedJpg(jpeg), { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  };
}

describe('contentOperators', () => {
  it('reads operators with their number and name operands, passing over strings, arrays and dictionaries', () => {
    const stream = Buffer.from('q 612 0 0 792 0 0 cm /Im0 Do Q BT /F1 8 Tf (a (nested) \\(string\\)) Tj [(x) -20 <41>] TJ ET /P <</MCID 3>> BDC EMC % a comment\n1 0 0 1 .5 -2. cm', 'latin1');
    const { operators, inlineImage } = contentOperators(stream);
    expect(inlineImage).toBe(false);
    expect(operators.map((o) => o.operator)).toEqual(['q', 'cm', 'Do', 'Q', 'BT', 'Tf', 'Tj', 'TJ', 'ET', 'BDC', 'EMC', 'cm']);
    expect(operators[1]!.operands).toEqual([612, 0, 0, 792, 0, 0]);
    expect(operators[2]!.operands).toEqual([{ name: 'Im0' }]);
    expect(operators[6]!.operands).toEqual([{ other: true }]);
    expect(operators[11]!.operands).toEqual([1, 0, 0, 1, 0.5, -2]);
  });

  it('stops at an inline image, whose data it cannot step over', () => {
    expect(contentOperators(Buffer.from('q BI /W 1 /H 1 ID \x00\xff EI Q', 'latin1'))).toEqual({ operators: [{ operator: 'q', operands: [] }], inlineImage: true });
  });

  it('reads back any sequence of operators written with numbers, names and strings', () => {
    const operand = fc.oneof(
      fc.integer({ min: -9999, max: 9999 }).map((n) => ({ text: String(n), value: n as unknown })),
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,6}$/).map((n) => ({ text: `/${n}`, value: { name: n } as unknown })),
      fc.string({ maxLength: 8 }).map((s) => ({ text: `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`, value: { other: true } as unknown })),
    );
    const operator = fc.record({ operator: fc.constantFrom('q', 'Q', 'cm', 'Do', 'Tj', 'gs', 'Tr', "'", 'T*', 're', 'f'), operands: fc.array(operand, { maxLength: 6 }) });
    fc.assert(
      fc.property(fc.array(operator, { maxLength: 12 }), fc.constantFrom(' ', '\n', '\r\n', '\t'), (ops, space) => {
        const text = ops.map((o) => [...o.operands.map((x) => x.text), o.operator].join(space)).join(space);
        const read = contentOperators(Buffer.from(text, 'latin1'));
        expect(read.operators).toEqual(ops.map((o) => ({ operator: o.operator, operands: o.operands.map((x) => x.value) })));
      }),
    );
  });
});

describe('exifOrientation', () => {
  it('reads the EXIF orientation, and 1 for a JPEG without one', async () => {
    const jpeg = await jpegOf(20, 10);
    expect(exifOrientation(jpeg)).toBe(1);
    expect(exifOrientation(withExifOrientation(jpeg, 6))).toBe(6);
    expect(exifOrientation(withExifOrientation(jpeg, 3))).toBe(3);
  });
});

describe('scannedImagePages', () => {
  it('finds a full-page JPEG scan with its bytes and the transform onto the page', async () => {
    const jpeg = await jpegOf(250, 333);
    const pages = await scannedImagePages(await pdfWith(fullPageScan(jpeg)));
    expect([...pages.keys()]).toEqual([1]);
    const [placed] = pages.get(1)!;
    expect(Buffer.from(placed!.bytes).equals(jpeg)).toBe(true);
    expect([placed!.codec, placed!.colourComponents]).toEqual(['jpeg', 3]);
    expect({ width: placed!.width, height: placed!.height }).toEqual({ width: 250, height: 333 });
    // The `cm`s pdf-lib writes (translate, rotate, scale, skew) take the unit square onto the page.
    const [a, b, c, d, e, f] = placed!.concatenated.reduceRight((inner: Matrix, [a1, b1, c1, d1, e1, f1]): Matrix => {
      const [a2, b2, c2, d2, e2, f2] = inner;
      return [a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2, a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1];
    }, [1, 0, 0, 1, 0, 0]);
    expect([a, b, c, d, e, f].map((v) => Math.round(v * 1000) / 1000)).toEqual([300, 0, 0, 400, 0, 0]);
  });

  it('takes a page whose only text is invisible (a hidden OCR layer, an undecodable font drawn transparent)', async () => {
    const jpeg = await jpegOf(100, 100);
    const pdf = await pdfWith(async (doc, page) => {
      await fullPageScan(jpeg)(doc, page);
      const font = await doc.embedFont(StandardFonts.Helvetica);
      page.drawText('drawn transparent', { x: 20, y: 20, size: 8, font, opacity: 0 });
      page.pushOperators(setTextRenderingMode(TextRenderingMode.Invisible));
      page.drawText('render mode 3', { x: 20, y: 40, size: 8, font });
    });
    expect([...(await scannedImagePages(pdf)).keys()]).toEqual([1]);
  });

  it.each([
    ['visible text over the scan', async (doc: PDFDocument, page: PDFPage) => page.drawText('stamp', { x: 20, y: 20, size: 8, font: await doc.embedFont(StandardFonts.Helvetica) })],
    [
      'text that clips what follows (render mode 7)',
      async (doc: PDFDocument, page: PDFPage) => {
        page.pushOperators(setTextRenderingMode(TextRenderingMode.Clip));
        page.drawText('clip', { x: 20, y: 20, size: 8, font: await doc.embedFont(StandardFonts.Helvetica) });
      },
    ],
    ['a filled path', async (_doc: PDFDocument, page: PDFPage) => page.pushOperators(pushGraphicsState(), rectangle(0, 0, 0, 0), fill(), popGraphicsState())],
    ['a half-transparent scan', async (doc: PDFDocument, page: PDFPage) => page.drawImage(await doc.embedJpg(await jpegOf(10, 10)), { x: 0, y: 0, width: 10, height: 10, opacity: 0.5 })],
  ])('leaves to pdf.js a page with %s', async (_what, extra) => {
    const jpeg = await jpegOf(100, 100);
    const pdf = await pdfWith(async (doc, page) => {
      await fullPageScan(jpeg)(doc, page);
      await extra(doc, page);
    });
    expect((await scannedImagePages(pdf)).size).toBe(0);
  });

  it('leaves to pdf.js a PNG scan, a JPEG that a native decoder would turn by its EXIF tag, a text page and a damaged file', async () => {
    const png = await pdfWith(async (doc, page) => {
      page.drawImage(await doc.embedPng(unpooled(await createCanvas(10, 10).encode('png'))), { x: 0, y: 0, width: 300, height: 400 });
    });
    const turned = await pdfWith(fullPageScan(withExifOrientation(await jpegOf(100, 100), 6)));
    const text = await pdfWith(async (doc, page) => {
      page.drawText('Glucose 95 mg/dL', { x: 20, y: 300, size: 10, font: await doc.embedFont(StandardFonts.Helvetica) });
    });
    for (const pdf of [png, turned, text, Buffer.from('%PDF-1.7 not a PDF')]) expect((await scannedImagePages(pdf)).size).toBe(0);
  });
});

describe('scannedImagePages of JPEG 2000 scans', () => {
  const whole = { x: 0, y: 0, width: 300, height: 400, turn: 0 };

  it("finds one with its colour space's components, or the codestream's (0) where it names none", async () => {
    for (const [channels, named, components] of [
      [1, true, 1],
      [3, true, 3],
      [1, false, 0],
    ] as const) {
      const jp2 = await jpeg2000Of(blockSamples(60, 80, channels, 3), 60, 80, channels, 20);
      const pdf = await pdfWith(async (doc, page) => placeImage(page, doc.context.register(doc.context.stream(jp2, { ...imageEntries(60, 80, channels, named), Filter: 'JPXDecode' })), whole));
      const [placed] = (await scannedImagePages(pdf)).get(1) ?? [];
      expect({ codec: placed?.codec, colourComponents: placed?.colourComponents, same: Buffer.from(placed?.bytes ?? []).equals(jp2) }).toEqual({ codec: 'jpx', colourComponents: components, same: true });
    }
  });

  it.each([
    ['its alpha in its codestream (SMaskInData)', { SMaskInData: 1 }],
    ['16 bits a sample', { ColorSpace: 'DeviceGray', BitsPerComponent: 16 }],
    ['an indexed colour space', { ColorSpace: ['Indexed', 'DeviceRGB', 1, '<000000ffffff>'], BitsPerComponent: 8 }],
  ])('leaves to pdf.js one with %s', async (_what, entries) => {
    const jp2 = await jpeg2000Of(blockSamples(60, 80, 1, 3), 60, 80, 1, 20);
    const pdf = await pdfWith(async (doc, page) => placeImage(page, doc.context.register(doc.context.stream(jp2, { ...imageEntries(60, 80, 1, false), ...entries, Filter: 'JPXDecode' })), whole));
    expect((await scannedImagePages(pdf)).size).toBe(0);
  });
});

/** Where a page puts an image of 120 × 90: moved (partly off the page too), scaled, turned. */
const PLACED = {
  x: fc.integer({ min: -20, max: 200 }),
  y: fc.integer({ min: -20, max: 300 }),
  width: fc.integer({ min: 70, max: 240 }),
  height: fc.integer({ min: 60, max: 200 }),
  turn: fc.constantFrom(0, 90, 180, 270),
};

describe('renderPages of a page that shows only scanned images', () => {
  /** The page's grey pixels, and those of the same page that pdf.js must render (a zero-size path disqualifies it). */
  async function nativeAndPdfJs(draw: (doc: PDFDocument, page: PDFPage) => Promise<void>, size: [number, number], dpi: number) {
    const native = await pdfWith(draw, size);
    const pdfJs = await pdfWith(async (doc, page) => {
      await draw(doc, page);
      page.pushOperators(pushGraphicsState(), rectangle(0, 0, 0, 0), fill(), popGraphicsState());
    }, size);
    expect((await scannedImagePages(native)).size).toBe(1);
    expect((await scannedImagePages(pdfJs)).size).toBe(0);
    const first = async (pdf: Uint8Array) => (await renderPages(pdf, [1], dpi).next()).value!;
    return { a: await first(native), b: await first(pdfJs) };
  }

  function expectSameImage(a: { grey: Uint8Array; width: number; height: number }, b: { grey: Uint8Array; width: number; height: number }): void {
    expect([a.width, a.height]).toEqual([b.width, b.height]);
    let off = 0;
    for (let i = 0; i < a.grey.length; i++) if (Math.abs(a.grey[i]! - b.grey[i]!) > 24) off++;
    // Only the two JPEG decoders' rounding may differ: a pixel in two thousand at most.
    expect(off / a.grey.length).toBeLessThan(0.0005);
  }

  it('draws a full-page scan as pdf.js does, magnified without smoothing and straightened alike', async () => {
    const jpeg = await askewTextJpeg(400, 520, 2);
    // 400 px over 300 pt at 150 dpi: magnified 1.56×, where pdf.js draws pixel by pixel.
    const { a, b } = await nativeAndPdfJs(fullPageScan(jpeg), [300, 390], 150);
    expect([a.renderer, b.renderer]).toEqual(['scan-images', 'pdf.js']);
    expect(a.skewDegrees).toBeCloseTo(2, 0);
    expect(a.skewDegrees).toBe(b.skewDegrees);
    expectSameImage(a.image, b.image);
  });

  it('draws an image wherever the page puts it: moved, scaled, turned, on a page turned by /Rotate', async () => {
    const jpeg = await jpegOf(120, 90, 7);
    const placement = fc.record({ ...PLACED, pageRotate: fc.constantFrom(0, 90, 180, 270) });
    await fc.assert(
      fc.asyncProperty(placement, async (p) => {
        const { a, b } = await nativeAndPdfJs(
          async (doc, page) => {
            page.setRotation(degrees(p.pageRotate));
            page.drawImage(await doc.embedJpg(jpeg), { x: p.x, y: p.y, width: p.width, height: p.height, rotate: degrees(p.turn) });
          },
          [300, 400],
          72,
        );
        expect([a.renderer, b.renderer]).toEqual(['scan-images', 'pdf.js']);
        expect([a.skewDegrees, b.skewDegrees]).toEqual([0, 0]);
        expectSameImage(a.image, b.image);
      }),
      // Magnified exactly 4/3 on one axis (90 pixels over 120 pt at 72 dpi): pdf.js smooths it, comparing with 96/72 as a 32-bit float.
      { numRuns: 8, examples: [[{ x: 0, y: 10, width: 74, height: 120, turn: 0, pageRotate: 0 }]] },
    );
  });

  it('draws a JPEG 2000 scan as pdf.js draws the same samples stored losslessly, wherever the page puts it', async () => {
    // unpdf's pdf.js cannot decode JPEG 2000 (it drew such a page blank): the reference is the same
    // samples in a Flate stream, which pdf.js draws.
    const encoded = new Map<1 | 3, { samples: Uint8Array; jp2: Uint8Array }>();
    for (const channels of [1, 3] as const) {
      const samples = blockSamples(120, 90, channels, 11);
      encoded.set(channels, { samples, jp2: await jpeg2000Of(samples, 120, 90, channels) });
    }
    const placement = fc.record({ ...PLACED, channels: fc.constantFrom(1 as const, 3 as const), named: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(placement, async (p) => {
        const { samples, jp2 } = encoded.get(p.channels)!;
        const jpx = await pdfWith(async (doc, page) => placeImage(page, doc.context.register(doc.context.stream(jp2, { ...imageEntries(120, 90, p.channels, p.named), Filter: 'JPXDecode' })), p));
        const flate = await pdfWith(async (doc, page) => placeImage(page, doc.context.register(doc.context.flateStream(samples, imageEntries(120, 90, p.channels, true))), p));
        const first = async (pdf: Uint8Array): Promise<RenderedPage> => (await renderPages(pdf, [1], 72).next()).value as RenderedPage;
        const [a, b] = [await first(jpx), await first(flate)];
        expect([a.renderer, b.renderer]).toEqual(['scan-images', 'pdf.js']);
        // Both decoders give the stored samples exactly: the pages are the same to a grey level.
        expect([a.image.width, a.image.height]).toEqual([b.image.width, b.image.height]);
        expect(a.image.grey.every((level, i) => Math.abs(level - b.image.grey[i]!) <= 1)).toBe(true);
      }),
      { numRuns: 6 },
    );
  });
});
