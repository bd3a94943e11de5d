import { firstDate } from '../parsers/dates';
import type { Line } from '../parsers/layout';

/**
 * A report prints its collection date on every page (the header, each panel's `Collected:` stamp), and
 * a scan's reading of it can miss one digit. A fax of a Quest report read `11/16/24` on its first page
 * and `11/10/24` on the six after it, at 0.92 confidence: DejaVu Sans Mono's dotted zero, thresholded
 * to black and white, reads as a 6. A Labcorp fax read `8/26/23` once beside `8/28/23` three times; a
 * one-page one, `03-12-2023` under `Date Collected` at 0.81 beside the header's `05-12-2023`. Two
 * collection dates refuse the document (`multiple_collection_dates`, concatenated reports), so one
 * misread digit lost a whole report.
 *
 * So a date that only recognised pages read, one digit away from another date, is that date misread
 * and not a second one when the other is read on more pages, or on as many and more surely (its best
 * reading on a page, wherever the page prints it, against this one's). A date read from a text layer
 * stands as printed; so does a date as sure as the other: nothing then says which the scan misread.
 * Two reports concatenated print each of their dates on their own pages, as often as each other; the
 * one case this folds wrongly is two scanned reports of as many pages, dated one digit apart.
 */

/** One page's reading of a collection date: how surely OCR read it (undefined: the page's text layer printed it). */
export interface DateReading {
  date: string;
  confidence: number | undefined;
}

/** The collection dates `dates` one page reads, each with the best confidence of a word on the page that reads as it. */
export function dateReadings(dates: readonly string[], lines: readonly Line[]): DateReading[] {
  const recognised = lines.some((line) => line.words.some((word) => word.confidence !== undefined));
  return dates.map((date) => {
    if (!recognised) return { date, confidence: undefined };
    const confidences = lines.flatMap((line) => line.words.filter((word) => firstDate(word.text) === date).map((word) => word.confidence ?? 1));
    return { date, confidence: Math.max(0, ...confidences) };
  });
}

/** Two dates of the same form that differ in exactly one digit. */
function oneDigitApart(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let differences = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differences += /\d/.test(a[i]!) && /\d/.test(b[i]!) ? 1 : 2;
  return differences === 1;
}

interface Tally {
  pages: number;
  /** Best OCR confidence of a reading; Infinity once a text layer printed it. */
  sureness: number;
}

/** The distinct collection dates the pages read, a scan's misreading of one digit folded into the date it misread. */
export function printedCollectionDates(pages: readonly (readonly DateReading[])[]): string[] {
  const tallies = new Map<string, Tally>();
  for (const page of pages) {
    for (const { date, confidence } of page) {
      const tally = tallies.get(date) ?? { pages: 0, sureness: 0 };
      tally.pages += 1;
      tally.sureness = Math.max(tally.sureness, confidence ?? Number.POSITIVE_INFINITY);
      tallies.set(date, tally);
    }
  }
  const outweighs = (a: Tally, b: Tally) => a.pages > b.pages || (a.pages === b.pages && a.sureness > b.sureness);
  const misread = (date: string, tally: Tally) =>
    tally.sureness !== Number.POSITIVE_INFINITY && [...tallies].some(([other, otherTally]) => oneDigitApart(date, other) && outweighs(otherTally, tally));
  return [...tallies].filter(([date, tally]) => !misread(date, tally)).map(([date]) => date);
}
