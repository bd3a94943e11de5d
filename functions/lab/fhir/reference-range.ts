import { parseRange } from '../parsers/values';
import type { PanelResult } from '../results-schema';
import type { FhirReferenceRange, FhirSimpleQuantity } from './fhir-schemas';
import { UCUM } from './terminology';

/**
 * The printed reference range in FHIR terms. FHIR's low and high are inclusive, so a bound printed
 * exclusive (`<5.7`, `>59`) is kept only in `text`: `high: 5.7` would put 5.7 inside the range.
 * Inclusive bounds (`65-99`, `< OR = 39`, `≥60`) become low/high; the printed text is always kept.
 */

export interface NumericRange {
  min: number | null;
  max: number | null;
  minInclusive: boolean;
  maxInclusive: boolean;
}

/** A number in the result's unit: the printed unit as text, the UCUM code when mapped. */
export function quantityOf(value: number, result: PanelResult): FhirSimpleQuantity {
  const unit = result.resultUnit ?? undefined;
  return {
    value,
    ...(unit ? { unit } : {}),
    ...(result.ucumCode ? { system: UCUM, code: result.ucumCode, ...(unit ? {} : { unit: result.ucumCode }) } : {}),
  };
}

/** The result's numeric range with the inclusiveness of each bound as printed (inclusive when no text says otherwise). */
export function numericRange(result: PanelResult): NumericRange | null {
  const { minRefRangeValue: min, maxRefRangeValue: max } = result;
  if (min === null && max === null) return null;
  const printed = result.referenceRangeText ? parseRange(result.referenceRangeText) : null;
  return { min, max, minInclusive: printed?.minInclusive ?? true, maxInclusive: printed?.maxInclusive ?? true };
}

export function referenceRange(result: PanelResult): FhirReferenceRange[] | undefined {
  const range: FhirReferenceRange = {};
  const numeric = numericRange(result);
  if (numeric?.min != null && numeric.minInclusive) range.low = quantityOf(numeric.min, result);
  if (numeric?.max != null && numeric.maxInclusive) range.high = quantityOf(numeric.max, result);
  if (result.referenceRangeText) range.text = result.referenceRangeText;
  return Object.keys(range).length > 0 ? [range] : undefined;
}
