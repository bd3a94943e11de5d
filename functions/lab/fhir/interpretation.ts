import type { PanelResult, ResultFlag, ResultOperator } from '../results-schema';
import type { FhirCodeableConcept } from './fhir-schemas';
import type { NumericRange } from './reference-range';
import { OBSERVATION_INTERPRETATION } from './terminology';

/**
 * Observation.interpretation in HL7 v3 ObservationInterpretation codes. The flag the lab printed
 * wins; without one, a numeric result is placed against its printed range: N inside, H above, L
 * below, and IND (indeterminate) when a censored value straddles a bound (`<10` against 5–20).
 * Bounds count as printed: `<5.7` excludes 5.7, `< OR = 39` includes 39.
 */

type Code = ResultFlag | 'IND';

const DISPLAY: Record<Code, string> = {
  H: 'High',
  L: 'Low',
  HH: 'Critical high',
  LL: 'Critical low',
  A: 'Abnormal',
  AA: 'Critical abnormal',
  N: 'Normal',
  IND: 'Indeterminate',
};

interface Interval {
  lo: number;
  loIn: boolean;
  hi: number;
  hiIn: boolean;
}

/** Where the true value may lie: the value itself, or the side of it a comparator names. */
function valueInterval(value: number, comparator: ResultOperator | undefined): Interval {
  switch (comparator) {
    case '<':
      return { lo: -Infinity, loIn: false, hi: value, hiIn: false };
    case '<=':
      return { lo: -Infinity, loIn: false, hi: value, hiIn: true };
    case '>':
      return { lo: value, loIn: false, hi: Infinity, hiIn: false };
    case '>=':
      return { lo: value, loIn: true, hi: Infinity, hiIn: false };
    default:
      return { lo: value, loIn: true, hi: value, hiIn: true };
  }
}

function rangeInterval(range: NumericRange): Interval {
  return {
    lo: range.min ?? -Infinity,
    loIn: range.min !== null && range.minInclusive,
    hi: range.max ?? Infinity,
    hiIn: range.max !== null && range.maxInclusive,
  };
}

function placement(value: Interval, range: Interval): Code {
  const startsInside = value.lo > range.lo || (value.lo === range.lo && (range.loIn || !value.loIn));
  const endsInside = value.hi < range.hi || (value.hi === range.hi && (range.hiIn || !value.hiIn));
  if (startsInside && endsInside) return 'N';
  if (value.lo > range.hi || (value.lo === range.hi && !(value.loIn && range.hiIn))) return 'H';
  if (value.hi < range.lo || (value.hi === range.lo && !(value.hiIn && range.loIn))) return 'L';
  return 'IND';
}

export function interpretationCode(result: PanelResult, value: number | null, range: NumericRange | null): Code | null {
  if (result.flag) return result.flag;
  if (value === null || range === null) return null;
  return placement(valueInterval(value, result.resultOperator), rangeInterval(range));
}

export function interpretation(code: Code): FhirCodeableConcept[] {
  return [{ coding: [{ system: OBSERVATION_INTERPRETATION, code, display: DISPLAY[code] }] }];
}
