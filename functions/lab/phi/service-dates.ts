import type { PhiSpan } from './categories';

/**
 * Hale's one rule for dates, whichever detector runs: a date is removed only as a date of birth.
 * Dates of service stay in the document: the specimen collection date is the results' effective date
 * and the classifier needs every collection date to spot concatenated reports (spec §2.10); they
 * reveal nothing once names and identifiers are gone. The built-in detector only ever reports dates
 * of birth; a detector that flags every date (Comprehend Medical's DATE) is overruled for dates whose
 * cell does not call them a birth date.
 */
const BIRTH_LABEL = /\b(?:DOB|D\.O\.B|birth|born)\b/i;

/** The spans to redact: `spans` less the dates that are not dates of birth, which are named as such. */
export function withoutServiceDates(text: string, spans: readonly PhiSpan[]): PhiSpan[] {
  return spans.flatMap((span): PhiSpan[] => {
    if (span.category !== 'date') return [span];
    const cellStart = Math.max(text.lastIndexOf('\n', span.start - 1), text.lastIndexOf('\t', span.start - 1)) + 1;
    return BIRTH_LABEL.test(text.slice(cellStart, span.start)) ? [{ ...span, category: 'date_of_birth' }] : [];
  });
}
