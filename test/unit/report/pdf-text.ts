import { getDocumentProxy } from 'unpdf';

export interface ParsedPdf {
  pages: number;
  /** Text of each page, items joined by single spaces and NFKC-normalised (pdf.js maps µ to μ). */
  pageText: string[];
  text: string;
  info: Record<string, unknown>;
}

/** Parses a PDF back with pdf.js (unpdf build) the way a reader's viewer would. */
export async function parsePdf(bytes: Uint8Array): Promise<ParsedPdf> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const pageText: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    const strings = content.items.map((item) => ('str' in item ? item.str : '')).filter((s) => s.trim() !== '');
    pageText.push(normalise(strings.join(' ')));
  }
  const metadata = await pdf.getMetadata();
  return { pages: pdf.numPages, pageText, text: pageText.join('\n'), info: metadata.info as Record<string, unknown> };
}

export function normalise(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ');
}
