import { dateReadings, printedCollectionDates } from './ocr/misread-date';
import { collectionDates } from './parsers/collection-dates';
import { hasNonUsDate } from './parsers/dates';
import { pageLines } from './parsers/layout';
import { readTables } from './parsers/table';
import { NON_LAB_DOCUMENT, OTHER_LABS, VENDOR_NAMES, VENDORS, type Vendor } from './parsers/vocabulary';
import type { PageText } from './pdf-text';

/**
 * The document check of the lab pipeline (spec §2.10 rejection reasons), decided by what the document
 * holds, not by a known layout: result rows make it a lab report; the laboratory it names makes it a
 * supported one (Quest, Labcorp) or not; then the dates: US forms only, one collection date. Text
 * arrives with identifiers already redacted; collection dates are kept.
 */

export type InvalidReason = 'non_supported_lab' | 'multiple_collection_dates' | 'non_us_document' | 'non_lab_document';

export type DocumentClassification =
  | {
      kind: 'lab_report';
      vendor: Vendor;
      /** YYYY-MM-DD, or null when the report prints no collection date. */
      collectionDate: string | null;
    }
  | { kind: 'invalid'; reason: InvalidReason; detectedLab: string | null };

/** A column of results or a range column: the marks of a lab report that has no rows to read (all cancelled, say). */
const LAB_REPORT_CUES = /\bReference (?:Range|Interval)s?\b|\bResults?\b.*\bUnits?\b|\bTest(?: Name)?\b.*\bResults?\b/i;

/** The supported laboratory the text names, or one that the layout's own wording gives away. */
function findVendor(text: string): Vendor | null {
  const named = VENDORS.find((v) => v.signatures.some((re) => re.test(text)));
  if (named) return named.id;
  const hinted = VENDORS.filter((v) => v.layoutHints.some((re) => re.test(text)));
  return hinted.length === 1 ? hinted[0]!.id : null;
}

const OTHER_LABS_LOWER = OTHER_LABS.map((name) => ({ name, lower: name.toLowerCase() }));

function findOtherLab(text: string): string | null {
  const lower = text.toLowerCase();
  return OTHER_LABS_LOWER.find((lab) => lower.includes(lab.lower))?.name ?? null;
}

export function classifyDocument(pages: readonly PageText[]): DocumentClassification {
  const pageLineSets = pages.map(pageLines);
  const text = pageLineSets.flatMap((lines) => lines.map((l) => l.text)).join('\n');
  const otherLab = findOtherLab(text);
  // Another lab's name wins over a passing mention of Quest or Labcorp only when no supported lab's own wording is there.
  const vendor = otherLab && !VENDORS.some((v) => v.signatures.some((re) => re.test(text.replaceAll(otherLab, '')))) ? null : findVendor(text);
  const tables = readTables(pages);
  const hasRows = tables.panels.length > 0;
  const detectedLab = vendor ? VENDOR_NAMES[vendor] : otherLab;

  if (!hasRows) {
    // A results table with nothing readable in it (every test cancelled or pending) is a report that yields no result.
    const readableReport = vendor !== null && (tables.headers > 0 || LAB_REPORT_CUES.test(text)) && !NON_LAB_DOCUMENT.some((re) => re.test(text));
    if (!readableReport) return { kind: 'invalid', reason: 'non_lab_document', detectedLab };
  }
  if (!vendor) return { kind: 'invalid', reason: 'non_supported_lab', detectedLab: otherLab };
  if (hasNonUsDate(text)) return { kind: 'invalid', reason: 'non_us_document', detectedLab };
  const dates = printedCollectionDates(pageLineSets.map((lines) => dateReadings(collectionDates(lines), lines)));
  if (dates.length > 1) return { kind: 'invalid', reason: 'multiple_collection_dates', detectedLab };
  return { kind: 'lab_report', vendor, collectionDate: dates[0] ?? null };
}
