import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';

/**
 * Draws hand-placed report lines into a real PDF in a chosen font and text chunking, so a test can put
 * a layout on the page exactly as a producer would and read it back through pdf.js: one text item per
 * cell, per word, per glyph, or one per whole line with the cells padded out to their columns by runs
 * of spaces (what a text view printed to PDF gives).
 */

export type Chunking = 'cell' | 'word' | 'glyph' | 'line';
export type FontName = 'Helvetica' | 'Times' | 'Courier';

/** A line: baseline `y` and its cells `[x, text, size?]`. */
export type DrawnLine = [y: number, cells: Array<[x: number, text: string, size?: number]>];

const FONTS: Record<FontName, StandardFonts> = {
  Helvetica: StandardFonts.Helvetica,
  Times: StandardFonts.TimesRoman,
  Courier: StandardFonts.Courier,
};

/**
 * Advance of a text as pdf-lib draws it: glyph by glyph, without kerning (`widthOfTextAtSize` adds the
 * kerning pairs, which the drawn text does not apply, so pieces placed by it would overlap).
 */
function advance(font: PDFFont, text: string, size: number): number {
  return [...text].reduce((sum, ch) => sum + font.widthOfTextAtSize(ch, size), 0);
}

function drawLine(page: ReturnType<PDFDocument['addPage']>, font: PDFFont, [y, cells]: DrawnLine, chunking: Chunking, size: number): void {
  const draw = (text: string, x: number, s = size) => page.drawText(text, { x, y, size: s, font });
  if (chunking === 'line') {
    // Spaces pad each cell to its column (at least two between cells), as a fixed-width text view prints.
    const space = advance(font, ' ', size);
    const [first, ...rest] = cells;
    if (!first) return;
    let text = first[1];
    for (const [x, cellText] of rest) {
      const end = first[0] + advance(font, text, size);
      text += ' '.repeat(Math.max(2, Math.round((x - end) / space))) + cellText;
    }
    draw(text, first[0]);
    return;
  }
  for (const [x, text, cellSize = size] of cells) {
    if (chunking === 'cell') {
      draw(text, x, cellSize);
      continue;
    }
    let offset = 0;
    const pieces = chunking === 'word' ? text.split(/(\s+)/) : [...text];
    for (const piece of pieces) {
      if (piece.trim() !== '') draw(piece, x + offset, cellSize);
      offset += advance(font, piece, cellSize);
    }
  }
}

export async function renderLines(pages: readonly DrawnLine[][], options: { font?: FontName; chunking?: Chunking; size?: number } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(FONTS[options.font ?? 'Helvetica']);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    for (const line of lines) drawLine(page, font, line, options.chunking ?? 'cell', options.size ?? 8);
  }
  return doc.save();
}
