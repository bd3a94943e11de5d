import { z } from '../../http/zod';

/**
 * What a PHI detector reports: character spans of the document text with a category. The categories
 * are the HIPAA Safe Harbor identifiers (45 CFR 164.514(b)(2)) that appear on lab reports; the job
 * reports only how many spans of each category were removed, never their text.
 */
export const PhiCategorySchema = z.enum(['name', 'date_of_birth', 'date', 'age', 'address', 'phone', 'email', 'identifier', 'url', 'other']);
export type PhiCategory = z.infer<typeof PhiCategorySchema>;

export interface PhiSpan {
  /** Offsets into the text given to the detector, end exclusive. */
  start: number;
  end: number;
  category: PhiCategory;
}

export const PhiCountsSchema = z
  .partialRecord(PhiCategorySchema, z.number().int().positive().describe('Number of spans of this category'))
  .describe(
    'How many spans of each HIPAA Safe Harbor category were removed (or found): name, date_of_birth, date, age, address, phone, email, ' +
      'identifier, url, other; a category not found is absent',
  );
export type PhiCounts = z.infer<typeof PhiCountsSchema>;

/** The port: finds PHI in plain text. The built-in Safe Harbor detector and Comprehend Medical implement it. */
export interface PhiDetector {
  detect(text: string): Promise<PhiSpan[]>;
}

/** Sorts spans and merges overlapping ones (the earlier span's category wins). */
export function mergeSpans(spans: readonly PhiSpan[]): PhiSpan[] {
  const sorted = [...spans].filter((s) => s.end > s.start).sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: PhiSpan[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) {
      last.end = Math.max(last.end, span.end);
      continue;
    }
    merged.push({ ...span });
  }
  return merged;
}

export function countByCategory(spans: readonly PhiSpan[]): PhiCounts {
  const counts: PhiCounts = {};
  for (const span of spans) counts[span.category] = (counts[span.category] ?? 0) + 1;
  return counts;
}
