import type { PredictorDefinition } from '../../scoring/catalogue';
import type { VendorLabRange } from '../schemas';
import type { StoredLabRange } from './lab-ranges';
import { convert } from './population';

/** A vendor's range for one predictor and sex, converted to the predictor's unit. */
export interface PredictorLabRange {
  vendor_lab_range: VendorLabRange;
  min: number | null;
  max: number | null;
  lab_range_id: number;
  source: string;
}

export type PredictorLabRangesFile = Record<string, { vendor_lab: SexPair; vendor_reference: SexPair }>;
type SexPair = { male: PredictorLabRange | null; female: PredictorLabRange | null };

const QUEST = 'Quest Diagnostics';
const LABCORP = 'Labcorp';

function rangeType(row: StoredLabRange): VendorLabRange {
  if (row.min_value !== null && row.max_value !== null) return 'range';
  if (row.min_value !== null) return row.min_value_operator === '>' ? 'GT' : 'GTE';
  return row.max_value_operator === '<' ? 'LT' : 'LTE';
}

function converted(row: StoredLabRange, unit: string): PredictorLabRange | null {
  if (!row.ucum_unit) return null;
  try {
    const at = (value: number | null) => (value === null ? null : convert(value, row.ucum_unit!, unit));
    return {
      vendor_lab_range: rangeType(row),
      min: at(row.min_value),
      max: at(row.max_value),
      lab_range_id: row.lab_range_id,
      source: `${row.vendor_name} ${row.vendor_test_name} (${row.gender_name}), printed ${[
        row.min_value === null ? null : `${row.min_value_operator} ${row.min_value_display}`,
        row.max_value === null ? null : `${row.max_value_operator} ${row.max_value_display}`,
      ]
        .filter(Boolean)
        .join(' and ')} ${row.unit}; ${row.source}`,
    };
  } catch {
    // Arbitrary units ([IU]) and other inconvertible units: this vendor row cannot serve the predictor.
    return null;
  }
}

/**
 * The first row of `vendor` for the predictor's codes (preferred code first) printed for `sex`, else
 * printed for both sexes; several rows for one code and sex (e.g. cycle phases) are ambiguous → none.
 */
function pick(rows: readonly StoredLabRange[], vendor: string, predictor: PredictorDefinition, sex: 'MALE' | 'FEMALE', twoSidedOnly: boolean): PredictorLabRange | null {
  for (const code of predictor.observationCodes) {
    for (const gender of [sex, 'ALL'] as const) {
      const matches = rows.filter(
        (r) => r.vendor_name === vendor && r.concept_code === code && r.gender_name === gender && (!twoSidedOnly || rangeType(r) === 'range'),
      );
      if (matches.length !== 1) continue;
      const range = converted(matches[0]!, predictor.ucumUnit);
      if (range) return range;
    }
  }
  return null;
}

/**
 * Per predictor and sex: `vendor_lab`, Quest's printed range (spec §2.12's vendor_lab_* fields), and
 * `vendor_reference`, the two-sided reference range that /predictor-statistics/ offers as the optimal
 * range of a predictor no guideline covers (Quest first, then Labcorp).
 */
export function buildPredictorLabRanges(predictors: readonly PredictorDefinition[], rows: readonly StoredLabRange[]): PredictorLabRangesFile {
  const out: PredictorLabRangesFile = {};
  for (const predictor of [...predictors].sort((a, b) => a.key.localeCompare(b.key))) {
    if (predictor.kind !== 'continuous' || predictor.observationCodes.length === 0) continue;
    const both = (fn: (sex: 'MALE' | 'FEMALE') => PredictorLabRange | null): SexPair => ({ male: fn('MALE'), female: fn('FEMALE') });
    out[predictor.key] = {
      vendor_lab: both((sex) => pick(rows, QUEST, predictor, sex, false)),
      vendor_reference: both((sex) => pick(rows, QUEST, predictor, sex, true) ?? pick(rows, LABCORP, predictor, sex, true)),
    };
  }
  return out;
}
