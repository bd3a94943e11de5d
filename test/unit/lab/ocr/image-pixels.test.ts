import fc from 'fast-check';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { imagePixelsByPage, namesImage } from '../../../../functions/lab/ocr/image-pixels';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('namesImage: whether a file can hold an image XObject at all', () => {
  /** PDF text that never names `/Image` alone: ProcSet's names, other names, numbers, keywords. */
  const other = fc.constantFrom('/ImageB', '/ImageC', '/ImageI', '/ImageMask', '/XObject', '/Form', ' 0 R', '<<', '>>', '[', ']', ' ', '\n', 'stream', '/Type', '/Images', '42');
  const delimiter = fc.constantFrom(' ', '\n', '\r', '/', '>', '<', '[', ']', '(', '%');

  it('finds the name however it is followed by a delimiter, and nothing in ProcSet names and the like', () => {
    fc.assert(
      fc.property(fc.array(other, { maxLength: 40 }), fc.array(other, { maxLength: 40 }), delimiter, fc.boolean(), (before, after, end, named) => {
        const text = `${before.join('')}${named ? `/Subtype /Image${end}` : ''}${after.join('')}`;
        expect(namesImage(bytes(text))).toBe(named);
      }),
    );
  });

  it('finds it at the very end of the bytes, and in a view into a larger buffer only where the view holds it', () => {
    expect(namesImage(bytes('<< /Subtype /Image'))).toBe(true);
    const whole = bytes('/Subtype /Image >> stream ... /ProcSet [/PDF /Text /ImageB]');
    expect(namesImage(whole.subarray(30))).toBe(false);
    expect(namesImage(whole.subarray(0, 20))).toBe(true);
  });
});

describe('imagePixelsByPage', () => {
  it('gives each page the pixels of the images its resources hold, and 0 to a PDF with none', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([612, 792]).drawText('GLUCOSE 95 mg/dL', { x: 40, y: 700, size: 9, font });
    const scan = doc.context.register(doc.context.flateStream(new Uint8Array(300 * 200).fill(240), { Type: 'XObject', Subtype: 'Image', Width: 300, Height: 200, ColorSpace: 'DeviceGray', BitsPerComponent: 8 }));
    doc.addPage([612, 792]).node.newXObject('Scan', scan);
    const textOnly = await PDFDocument.create();
    textOnly.addPage([612, 792]).drawText('GLUCOSE 95 mg/dL', { x: 40, y: 700, size: 9, font: await textOnly.embedFont(StandardFonts.Helvetica) });
    expect(await imagePixelsByPage(await doc.save(), 2)).toEqual([0, 60_000]);
    expect(await imagePixelsByPage(await textOnly.save(), 1)).toEqual([0]);
  });
});
