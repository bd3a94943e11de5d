import labRanges from '../../../data/reference/lab-ranges.json';
import type { StoredLabRange } from '../../reference/build/lab-ranges';
import { VENDOR_NAMES, type Vendor } from '../parsers/vocabulary';

/**
 * The reference ranges transcribed from each lab's reports (data/reference/lab-ranges.json, from
 * data/sources/lab-reference-ranges.csv, each row sourced), by lab and LOINC code: what the lab prints
 * for a test, which the OCR repairs of units (unit-repair.ts) and ranges (range-repair.ts) put a
 * misreading back to.
 */
const BY_TEST = new Map<string, StoredLabRange[]>();
const BY_CODE = new Map<string, StoredLabRange[]>();
for (const row of labRanges as StoredLabRange[]) {
  const key = `${row.vendor_name}|${row.concept_code}`;
  BY_TEST.set(key, [...(BY_TEST.get(key) ?? []), row]);
  BY_CODE.set(row.concept_code, [...(BY_CODE.get(row.concept_code) ?? []), row]);
}

/** The ranges `vendor` prints for test `code`, one row per sex or stratum; none where the table has none. */
export function printedRanges(vendor: Vendor, code: string): readonly StoredLabRange[] {
  return BY_TEST.get(`${VENDOR_NAMES[vendor]}|${code}`) ?? [];
}

/** The ranges every lab of the table prints for test `code`, one row per lab and sex or stratum. */
export function rangesOfAnyLab(code: string): readonly StoredLabRange[] {
  return BY_CODE.get(code) ?? [];
}

