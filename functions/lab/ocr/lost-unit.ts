import { loincRow } from '../loinc/map-to-loinc';
import type { PanelResult } from '../results-schema';

/**
 * A number printed without a unit is unitless, UCUM `1`, and a report prints ratios so. A scan can lose
 * a unit, though: a `%` the engine did not read, or a unit cell it garbled beyond what the lab's printed
 * units mend, which is left out rather than given as read (parsers/index.ts). A scanned number without a
 * unit, of a test LOINC measures in units (its example unit neither `1`, `[pH]` nor an annotation such
 * as `{ratio}`: `%` for HbA1c and RDW, `mg/dL`), lost its unit to the scan. Its UCUM code is unknown, not
 * `1`: `1` would read HbA1c's 5.5 % as 550 %. So with a scanned unit UCUM codes `1` (what is left of
 * `mg/dL (calc)` read `(calc)`): the unit is left out too.
 */

/** UCUM codes of what labs print as a bare number: `1`, an annotation alone (`{ratio}`, `{INR}`), and `[pH]`. */
const UNITLESS = /^(?:1|\[pH\]|\{[^}]*\})$/;

export function withLostUnitUncoded<R extends PanelResult>(result: R): R {
  if (result.provenance.source !== 'ocr' || result.ucumCode !== '1' || result.loincCode === null) return result;
  const example = loincRow(result.loincCode)?.exampleUcum;
  return example && !UNITLESS.test(example) ? { ...result, resultUnit: null, ucumCode: null, ucumMatchMethod: null } : result;
}
