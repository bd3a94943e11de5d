import type { PhiSpan } from './categories';

/**
 * Dates of service stay in the document: the specimen collection date is the results' effective date
 * and the classifier needs every collection date to spot concatenated reports. A detector that flags
 * all dates (Comprehend Medical's DATE) is overruled for dates on a line that labels them as
 * collected, received, reported or entered; dates of birth are never kept.
 */
const SERVICE_DATE_LABEL = /\b(?:collected|collection|received|reported|entered|date created|printed|drawn)\b/i;

export function keepServiceDates(text: string, spans: readonly PhiSpan[]): PhiSpan[] {
  return spans.filter((span) => {
    if (span.category !== 'date') return true;
    const lineStart = text.lastIndexOf('\n', span.start - 1) + 1;
    return !SERVICE_DATE_LABEL.test(text.slice(lineStart, span.start));
  });
}
