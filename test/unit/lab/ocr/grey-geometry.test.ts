import { createCanvas } from '@napi-rs/canvas';
import fc from 'fast-check';
import { PDFDocument, rgb } from 'pdf-lib';
import { estimateSkew } from '../../../../functions/lab/ocr/deskew';
import { emboldened, halved, straightened, turned } from '../../../../functions/lab/ocr/grey-geometry';
import { renderPages } from '../../../../functions/lab/ocr/page-image';
import type { PageImage } from '../../../../functions/lab/ocr/recognizer';

const image = (width: number, height: number): fc.Arbitrary<PageImage> =>
  fc.uint8Array({ minLength: width * height, maxLength: width * height }).map((grey) => ({ width, height, dpi: 300, grey }));

const sizedImage: fc.Arbitrary<PageImage> = fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 })).chain(([w, h]) => image(w, h));

/** A white page of dark words (dashes) along rows tilted by `degrees`, as deskew.test.ts draws them. */
function tiltedPage(degrees: number, width = 600, height = 700): PageImage {
  const grey = new Uint8Array(width * height).fill(255);
  const slope = Math.tan((degrees * Math.PI) / 180);
  for (let row = 60; row < height - 60; row += 24) {
    for (let x = 40; x < width - 40; x++) {
      if (x % 50 > 38) continue;
      for (let t = 0; t < 7; t++) {
        const y = Math.round(row + x * slope) + t;
        if (y >= 0 && y < height) grey[y * width + x] = 20;
      }
    }
  }
  return { width, height, dpi: 300, grey };
}

describe('turned', () => {
  it('turns a page clockwise by quarter turns, pixel for pixel: a quarter turn swaps its sides, four make it whole again', () => {
    fc.assert(
      fc.property(sizedImage, fc.integer({ min: 0, max: 3 }), (page, turns) => {
        const once = turned(page, turns);
        expect([once.width, once.height]).toEqual(turns % 2 === 0 ? [page.width, page.height] : [page.height, page.width]);
        expect(turned(once, 4 - turns)).toEqual(page);
        // Clockwise: the top-left pixel goes to the top-right corner, then the bottom-right, then the bottom-left.
        const corner = [0, once.width - 1, once.grey.length - 1, once.grey.length - once.width][turns]!;
        expect(once.grey[corner]).toBe(page.grey[0]);
      }),
    );
  });
});

describe('halved', () => {
  it('halves an image into the rounded means of its 2×2 squares, at half the resolution', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 9 }), fc.integer({ min: 2, max: 9 }), fc.infiniteStream(fc.integer({ min: 0, max: 255 })), (width, height, values) => {
        const grey = Uint8Array.from(values.take(width * height));
        const half = halved({ width, height, dpi: 300, grey });
        expect(half).toMatchObject({ width: width >> 1, height: height >> 1, dpi: 150 });
        for (let y = 0; y < half.height; y++) {
          for (let x = 0; x < half.width; x++) {
            const at = (dx: number, dy: number) => grey[(2 * y + dy) * width + 2 * x + dx]!;
            expect(half.grey[y * half.width + x]).toBe(Math.round((at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1)) / 4));
          }
        }
      }),
    );
  });
});

describe('straightened', () => {
  it('leaves a page unturned by 0°, pixel for pixel', () => {
    fc.assert(fc.property(sizedImage, (page) => expect(Buffer.from(straightened(page, 0).grey)).toEqual(Buffer.from(page.grey))));
  });

  it('straightens text lines tilted by any angle up to ±4° to within 0.1°', () => {
    fc.assert(
      fc.property(fc.double({ min: -4, max: 4, noNaN: true }), (degrees) => {
        expect(Math.abs(estimateSkew(straightened(tiltedPage(degrees), degrees)))).toBeLessThanOrEqual(0.1);
      }),
      { numRuns: 6 },
    );
  });

  it('turns a page as a canvas redraw under the same turn does (the bilinear result, up to rounding)', () => {
    const [width, height] = [320, 240];
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    context.fillStyle = '#fff';
    context.fillRect(0, 0, width, height);
    context.fillStyle = '#000';
    context.font = '22px sans-serif';
    for (let y = 30; y < height; y += 30) context.fillText('Glucose 5.4 mmol/L', 20, y);
    const grey = (pixels: Uint8ClampedArray) => Uint8Array.from({ length: width * height }, (_, i) => pixels[4 * i]!);
    const page: PageImage = { width, height, dpi: 300, grey: grey(context.getImageData(0, 0, width, height).data) };
    for (const degrees of [2.5, -1.2]) {
      // The turn by −degrees about the centre, as a canvas transform of the page's pixels.
      const r = (-degrees * Math.PI) / 180;
      const [cos, sin, cx, cy] = [Math.cos(r), Math.sin(r), width / 2, height / 2];
      const turned = createCanvas(width, height);
      const turnedContext = turned.getContext('2d');
      turnedContext.fillStyle = '#fff';
      turnedContext.fillRect(0, 0, width, height);
      turnedContext.setTransform(cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy);
      turnedContext.drawImage(canvas, 0, 0);
      const expected = grey(turnedContext.getImageData(0, 0, width, height).data);
      const actual = straightened(page, degrees).grey;
      const differences = Array.from(actual, (v, i) => Math.abs(v - expected[i]!));
      // Rounding apart, the same pixels: a mean difference of a few hundredths of a grey level, none over three.
      expect(differences.reduce((a, b) => a + b, 0) / differences.length).toBeLessThan(0.1);
      expect(Math.max(...differences)).toBeLessThanOrEqual(3);
    }
  });
});

it('renders a page to grey with each colour weighted as luma, whatever Skia’s byte order', async () => {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([72, 72]);
  page.drawRectangle({ x: 0, y: 36, width: 36, height: 36, color: rgb(1, 0, 0) });
  page.drawRectangle({ x: 36, y: 36, width: 36, height: 36, color: rgb(0, 0, 1) });
  page.drawRectangle({ x: 0, y: 0, width: 36, height: 36, color: rgb(0, 1, 0) });
  const rendered = [];
  for await (const r of renderPages(await pdf.save(), [1], 72)) rendered.push(r);
  const { image } = rendered[0]!;
  const at = (x: number, y: number) => image.grey[y * image.width + x];
  // BT.601: red 0.299, blue 0.114, green 0.587 of white.
  expect([at(18, 18), at(54, 18), at(18, 54), at(54, 54)]).toEqual([76, 28, 149, 255]);
});

describe('emboldened', () => {
  it('gives each pixel the darkest of itself and its neighbours right, below and below right', () => {
    const image = fc.integer({ min: 1, max: 12 }).chain((width) =>
      fc.integer({ min: 1, max: 12 }).chain((height) => fc.uint8Array({ minLength: width * height, maxLength: width * height }).map((grey) => ({ width, height, dpi: 300, grey }))),
    );
    fc.assert(
      fc.property(image, (page) => {
        const bolder = emboldened(page);
        const at = (x: number, y: number) => page.grey[Math.min(y, page.height - 1) * page.width + Math.min(x, page.width - 1)]!;
        for (let y = 0; y < page.height; y++) {
          for (let x = 0; x < page.width; x++) expect(bolder.grey[y * page.width + x]).toBe(Math.min(at(x, y), at(x + 1, y), at(x, y + 1), at(x + 1, y + 1)));
        }
      }),
    );
  });

  it('makes a black stroke one pixel wider', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 10 }), (stroke, left) => {
        const width = left + stroke + 4;
        const grey = new Uint8Array(width * 3).fill(255);
        for (let y = 0; y < 3; y++) grey.fill(0, y * width + left, y * width + left + stroke);
        const row = [...emboldened({ width, height: 3, dpi: 300, grey }).grey.slice(0, width)];
        expect(row.filter((level) => level === 0)).toHaveLength(stroke + 1);
        expect(row.indexOf(0)).toBe(left - 1);
      }),
    );
  });
});

