import type { PageText } from './pdf-text';
import { matchHeader } from './parsers/columns';
import { firstDate, hasNonUsDate } from './parsers/dates';
import { type Line, pageLines } from './parsers/layout';
import { FOREIGN_LAYOUT, LAB_NAMES, LAYOUTS, type LayoutId, NON_LAB_DOCUMENT, OTHER_LABS, VENDOR_SIGNATURES, type Vendor } from './parsers/vendors';

/**
 * The document check of the lab pipeline (spec §2.10 rejection reasons): is this a single-visit US
 * Quest or Labcorp report, and in which layout? Text arrives with identifiers already redacted;
 * collection dates are kept.
 */

export type InvalidReason = 'non_supported_lab' | 'multiple_collection_dates' | 'non_us_document' | 'non_lab_document';

export type DocumentClassification =
  | { kind: 'lab_report'; vendor: Vendor; layout: LayoutId; collectionDate: string /* YYYY-MM-DD */ }
  | { kind: 'invalid'; reason: InvalidReason; detectedLab: string | null };

/** Only these labels name the specimen collection; previous-result, received and reported dates never count. */
const COLLECTION_LABEL = /\b(?:Date Collected|Collection Date|Time Collected|Collected)\s*:\s*(\S+)/gi;

function findLayout(lines: readonly Line[], vendor: Vendor, allText: string): LayoutId | null {
  const candidates = (Object.keys(LAYOUTS) as LayoutId[]).filter((id) => LAYOUTS[id].vendor === vendor);
  for (const line of lines) {
    for (const id of candidates) {
      const columns = matchHeader(line, LAYOUTS[id].headerPhrases);
      if (!columns) continue;
      if (vendor === 'labcorp') return id;
      const previousColumn = columns.some((c) => c.role === 'previous');
      const panelCollected = /[A-Za-z)]\s+Collected:\s*\d/.test(allText);
      return previousColumn || panelCollected ? 'quest-patient-export' : 'quest-physician';
    }
  }
  return null;
}

/**
 * Collection dates, read from collection labels only. The older Labcorp layout prints its labels over
 * two lines (`Date/Time` / `Collected`) with the date in the same column a line or two below.
 */
function collectionDates(lines: readonly Line[]): string[] {
  const dates = new Set<string>();
  for (const line of lines) {
    for (const m of line.text.matchAll(COLLECTION_LABEL)) {
      const date = firstDate(m[1]!);
      if (date) dates.add(date);
    }
  }
  lines.forEach((line, index) => {
    const label = line.words.find((w) => w.text === 'Collected');
    if (!label || /Collected\s*:/.test(line.text)) return;
    for (const below of lines.slice(index + 1, index + 3)) {
      const cell = below.words.find((w) => Math.abs(w.x0 - label.x0) < 30 && firstDate(w.text));
      if (cell) {
        dates.add(firstDate(cell.text)!);
        return;
      }
    }
  });
  return [...dates];
}

export function classifyDocument(pages: PageText[]): DocumentClassification {
  const lines = pages.flatMap(pageLines);
  const allText = lines.map((l) => l.text).join('\n');
  const vendor = (['labcorp', 'quest'] as const).find((v) => VENDOR_SIGNATURES[v].test(allText));
  const otherLab = OTHER_LABS.find((name) => allText.toLowerCase().includes(name.toLowerCase())) ?? null;

  const looksLikeLab = /Reference (?:Range|Interval)/i.test(allText);
  if (!vendor || FOREIGN_LAYOUT.test(allText)) {
    if (!looksLikeLab && NON_LAB_DOCUMENT.test(allText)) return { kind: 'invalid', reason: 'non_lab_document', detectedLab: otherLab };
    return { kind: 'invalid', reason: 'non_supported_lab', detectedLab: otherLab };
  }
  const layout = findLayout(lines, vendor, allText);
  // A vendor's report in a layout Hale does not read is unsupported; a letter naming the vendor is no report.
  if (!layout) return { kind: 'invalid', reason: looksLikeLab ? 'non_supported_lab' : 'non_lab_document', detectedLab: LAB_NAMES[vendor] };
  if (hasNonUsDate(allText)) return { kind: 'invalid', reason: 'non_us_document', detectedLab: LAB_NAMES[vendor] };
  const dates = collectionDates(lines);
  if (dates.length > 1) return { kind: 'invalid', reason: 'multiple_collection_dates', detectedLab: LAB_NAMES[vendor] };
  if (dates.length === 0) return { kind: 'invalid', reason: 'non_lab_document', detectedLab: LAB_NAMES[vendor] };
  return { kind: 'lab_report', vendor, layout, collectionDate: dates[0]! };
}
