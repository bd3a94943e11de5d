import labRanges from '../../data/reference/lab-ranges.json';
import type { StoredLabRange } from './build/lab-ranges';
import type { LabRangesQuery } from './schemas';

const ROWS = labRanges as StoredLabRange[];

/** Accepted spellings of each vendor, compared without case, spaces or punctuation. */
const VENDOR_ALIASES: Record<string, readonly string[]> = {
  'Quest Diagnostics': ['quest', 'questdiagnostics'],
  Labcorp: ['labcorp', 'laboratorycorporationofamerica'],
};

const SEXES: Record<string, StoredLabRange['gender_name']> = { M: 'MALE', MALE: 'MALE', F: 'FEMALE', FEMALE: 'FEMALE', ALL: 'ALL' };

function fold(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function isTwoSided(row: StoredLabRange): boolean {
  return row.min_value !== null && row.max_value !== null;
}

/**
 * GET /lab-ranges/ filtering. `sex` (m, male, F, FEMALE…) keeps that sex's rows and the rows printed for
 * both sexes (gender_name ALL); `sex=all` keeps only the latter. `vendor_name` matches a vendor's name or
 * alias without case. An unknown value matches nothing (empty list, not an error). One-sided printed
 * ranges are left out unless `one_sided=include`, so default rows always carry both bounds (spec §2.14).
 */
export function filterLabRanges(query: LabRangesQuery): StoredLabRange[] {
  const sex = query.sex === undefined ? undefined : (SEXES[query.sex.trim().toUpperCase()] ?? null);
  const vendor = query.vendor_name === undefined ? undefined : fold(query.vendor_name);
  if (sex === null || vendor === '') return [];
  return ROWS.filter(
    (row) =>
      (query.one_sided === 'include' || isTwoSided(row)) &&
      (sex === undefined || row.gender_name === sex || (sex !== 'ALL' && row.gender_name === 'ALL')) &&
      (vendor === undefined || (VENDOR_ALIASES[row.vendor_name] ?? [fold(row.vendor_name)]).includes(vendor)),
  );
}
