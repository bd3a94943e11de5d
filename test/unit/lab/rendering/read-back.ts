import { decodePDFRawStream, PDFArray, PDFDocument, type PDFRawStream } from 'pdf-lib';
import { readPdfText } from '../../../../functions/lab/pdf-text';

/**
 * Reading a generated PDF back to check the generator (not the reader): the lines pdf.js sees on each
 * page, and the text operators the content streams really hold (how the text was cut into items).
 */

/** Text without any whitespace, so chunking (which pdf.js partly re-joins) does not matter. */
export function compact(text: string): string {
  return text.replace(/\s+/g, '');
}

export interface ReadPage {
  width: number;
  height: number;
  /** Lines top to bottom, each the compact text of its items left to right. */
  lines: string[];
}

export async function readLines(pdf: Uint8Array): Promise<ReadPage[]> {
  return (await readPdfText(pdf)).map((page) => {
    const byBaseline = new Map<number, typeof page.items>();
    for (const item of page.items) {
      const key = [...byBaseline.keys()].find((y) => Math.abs(y - item.y) < 1) ?? item.y;
      byBaseline.set(key, [...(byBaseline.get(key) ?? []), item]);
    }
    const lines = [...byBaseline.entries()].sort((a, b) => b[0] - a[0]).map(([, items]) => compact(items.sort((a, b) => a.x - b.x).map((i) => i.str).join('')));
    return { width: page.width, height: page.height, lines };
  });
}

/** The strings of every `<hex> Tj` text-showing operator, page by page (pdf-lib writes standard-font text as hex). */
export async function shownStrings(pdf: Uint8Array): Promise<string[][]> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
    const operators = streams.map((s) => Buffer.from(decodePDFRawStream(s as PDFRawStream).decode()).toString('latin1')).join('\n');
    return [...operators.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)].map((m) => Buffer.from(m[1]!, 'hex').toString('latin1'));
  });
}
