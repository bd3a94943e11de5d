import { createHash } from 'node:crypto';
import { isValidUcum, toUcum } from '../../lab/ucum/to-ucum';
import type { LabRangeOneSidedRow, LabRangeRow, ReferenceDataEntry } from '../schemas';

/** A row of data/sources/lab-reference-ranges.csv. */
export interface PrintedRangeRow {
  vendor_name: string;
  concept_code: string;
  concept_name: string;
  gender_name: string;
  min_value: string;
  min_value_operator: string;
  max_value: string;
  max_value_operator: string;
  unit: string;
  source: string;
}

export type StoredLabRange = LabRangeRow | LabRangeOneSidedRow;

const GENDERS: Record<string, LabRangeRow['gender_name']> = { M: 'MALE', F: 'FEMALE', All: 'ALL' };

/** Estradiol's printed phase labels → menstrual_cycle values (snake case, as the spec's example). */
const CYCLE_PHASES: Record<string, string> = {
  'Follicular Phase': 'follicular_phase',
  'Mid-Cycle': 'mid_cycle',
  'Luteal Phase': 'luteal_phase',
  Postmenopausal: 'postmenopausal',
};

/** Stable row id: 48 bits of SHA-256 over vendor, code, sex and the printed test name (the row's natural key). */
export function labRangeId(row: PrintedRangeRow): number {
  const key = [row.vendor_name, row.concept_code, row.gender_name, row.concept_name].join('|');
  return Number.parseInt(createHash('sha256').update(key).digest('hex').slice(0, 12), 16);
}

/** Printed unit → UCUM with the lab extractor's mapping; a printed unit that already is UCUM (`{ratio}`, `[pH]`) stays. */
function ucumOf(printed: string): string | null {
  return toUcum(printed, { numeric: true }).ucumCode ?? (isValidUcum(printed) ? printed : null);
}

function menstrualCycle(printedName: string): string | null {
  const phase = /\(([^)]+)\)\s*$/.exec(printedName)?.[1];
  return phase ? (CYCLE_PHASES[phase] ?? null) : null;
}

function bound(value: string, operator: string, allowed: readonly string[], code: string) {
  if (value === '' && operator === '') return null;
  const number = Number(value);
  if (value === '' || !Number.isFinite(number) || !allowed.includes(operator)) {
    throw new Error(`${code}: malformed bound "${operator}" "${value}"`);
  }
  return { display: value, value: number, operator };
}

/**
 * §2.14 rows from the printed ranges, joined to the concepts by LOINC code (so concept_id and
 * concept_name match GET /reference-data/). A side the lab did not print is null in all three fields.
 */
export function buildLabRanges(rows: readonly PrintedRangeRow[], concepts: readonly ReferenceDataEntry[]): StoredLabRange[] {
  const loinc = new Map(concepts.filter((c) => c.vocabulary_id === 'LOINC').map((c) => [c.concept_code, c]));
  const ids = new Set<number>();
  const out: StoredLabRange[] = [];
  for (const row of rows) {
    const concept = loinc.get(row.concept_code);
    if (!concept) throw new Error(`lab range for ${row.concept_code}, which is not a reference concept`);
    const gender = GENDERS[row.gender_name];
    if (!gender) throw new Error(`${row.concept_code}: unknown gender "${row.gender_name}"`);
    const min = bound(row.min_value, row.min_value_operator, ['>', '>='], row.concept_code);
    const max = bound(row.max_value, row.max_value_operator, ['<', '<='], row.concept_code);
    if (!min && !max) throw new Error(`${row.concept_code}: a range without bounds`);
    const id = labRangeId(row);
    if (ids.has(id)) throw new Error(`duplicate lab range ${row.vendor_name} ${row.concept_code} ${row.gender_name} ${row.concept_name}`);
    ids.add(id);
    out.push({
      lab_range_id: id,
      concept_id: concept.concept_id,
      concept_code: concept.concept_code,
      concept_name: concept.concept_name,
      vendor_name: row.vendor_name,
      gender_name: gender,
      min_value_display: min?.display ?? null,
      min_value: min?.value ?? null,
      min_value_operator: (min?.operator ?? null) as LabRangeRow['min_value_operator'],
      max_value_display: max?.display ?? null,
      max_value: max?.value ?? null,
      max_value_operator: (max?.operator ?? null) as LabRangeRow['max_value_operator'],
      bmi_min: null,
      bmi_max: null,
      menstrual_cycle: menstrualCycle(row.concept_name),
      vendor_test_name: row.concept_name,
      unit: row.unit,
      ucum_unit: ucumOf(row.unit),
      source: row.source,
    } as StoredLabRange);
  }
  return out.sort((a, b) => a.vendor_name.localeCompare(b.vendor_name) || a.concept_code.localeCompare(b.concept_code, 'en', { numeric: true }) || a.gender_name.localeCompare(b.gender_name) || a.lab_range_id - b.lab_range_id);
}
