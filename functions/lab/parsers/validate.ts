import { PREDICTORS_BY_CODE } from '../../scoring/catalogue';
import { loincRow, unitFit } from '../loinc/map-to-loinc';
import type { LabPanel, PanelResult, ValidationFlag } from '../results-schema';
import { convertValue } from '../ucum/convert';
import { toNumber } from './values';

/**
 * Checks on extracted results; each finding becomes a validation flag, nothing is changed or dropped.
 * Physiological bounds are the ones Hale's scoring enforces (functions/scoring/catalogue.ts, built from
 * NHANES in data/population/predictor-bounds.json), so extraction warns about exactly the values
 * scoring would refuse; beyond those, definitions: a count or concentration is never negative and a
 * percentage of a whole never exceeds 100.
 */

/** LOINC codes of the leukocyte differential in percent (data/sources/loinc-common-labs.csv). */
const DIFFERENTIAL_PERCENT = new Set(['770-8', '736-9', '5905-5', '713-8', '706-2', '71695-1']);
/**
 * A differential printed as whole percentages can miss 100 by rounding alone: up to 0.5 per
 * component, six components.
 */
const DIFFERENTIAL_TOLERANCE = 3;

function numericValue(result: PanelResult): number | null {
  if (result.resultType !== 'numeric' || result.resultValue === null) return null;
  const value = toNumber(result.resultValue);
  return Number.isFinite(value) ? value : null;
}

function flagFor(code: ValidationFlag['code'], message: string, panel: LabPanel, result: PanelResult | null): ValidationFlag {
  return { code, message, panelName: panel.panelName, biomarker: result?.biomarker ?? null, pageNumber: result?.pageNumber ?? panel.pageNumber };
}

/** UCUM codes of a quantity without a unit: `1` and annotations (`{ratio}`). */
const UNITLESS = /^(?:1|\{[^}]*\})$/;

/** What makes `value` one no living person has (see above), or null where nothing does. */
function boundsProblem(result: PanelResult, value: number): string | null {
  if (value < 0 && result.ucumCode !== '[pH]') return `${result.biomarker} is negative`;
  if (result.ucumCode === '%' && value > 100) return `${result.biomarker} is a percentage above 100`;
  const predictor = result.loincCode ? PREDICTORS_BY_CODE.get(result.loincCode)?.find((p) => p.bounds) : undefined;
  if (!predictor?.bounds || !result.ucumCode) return null;
  // A value printed without a unit is coded `1`, which stands for no unit read, not for a fraction: it
  // is compared only with bounds that have no unit either (a ratio), never converted (`5.4` is no 540 %).
  if (result.resultUnit === null && !UNITLESS.test(predictor.ucumUnit)) return null;
  const property = loincRow(result.loincCode!)?.property ?? '';
  const inBoundUnit = convertValue(value, result.ucumCode, predictor.ucumUnit, property);
  const { min, max } = predictor.bounds;
  if (inBoundUnit === null || (inBoundUnit >= min && inBoundUnit <= max)) return null;
  return `${result.biomarker} ${result.resultValue} ${result.resultUnit ?? ''} lies outside the physiological bounds ${min}–${max} ${predictor.ucumUnit}`.replace(/\s+/g, ' ');
}

/** Whether the coded result is a number no living person has (a scan's misreading, where OCR read it). */
export function isBeyondPhysiologicalBounds(result: PanelResult): boolean {
  const value = numericValue(result);
  return value !== null && boundsProblem(result, value) !== null;
}

function boundsFlag(panel: LabPanel, result: PanelResult, value: number): ValidationFlag | null {
  const problem = boundsProblem(result, value);
  return problem === null ? null : flagFor('value_outside_physiological_bounds', problem, panel, result);
}

/** A printed H/L that the printed numeric range contradicts, or an out-of-range value without a flag. */
function rangeFlag(panel: LabPanel, result: PanelResult, value: number): ValidationFlag | null {
  const { minRefRangeValue: min, maxRefRangeValue: max } = result;
  if (min === null && max === null) return null;
  const text = result.referenceRangeText ?? '';
  const maxExclusive = /^\s*<(?!\s*(?:=|or\s*=))/i.test(text);
  const minExclusive = /^\s*>(?!\s*(?:=|or\s*=))/i.test(text);
  const above = max !== null && (maxExclusive ? value >= max : value > max);
  const below = min !== null && (minExclusive ? value <= min : value < min);
  const flag = result.flag;
  const high = flag === 'H' || flag === 'HH';
  const low = flag === 'L' || flag === 'LL';
  let problem: string | null = null;
  if (high && !above) problem = `flagged ${flag} but ${result.resultValue} is not above the printed range ${text}`;
  else if (low && !below) problem = `flagged ${flag} but ${result.resultValue} is not below the printed range ${text}`;
  else if (!flag && (above || below)) problem = `${result.resultValue} is outside the printed range ${text} but carries no flag`;
  return problem ? flagFor('flag_inconsistent_with_range', `${result.biomarker} ${problem}`, panel, result) : null;
}

export function validatePanels(panels: readonly LabPanel[]): ValidationFlag[] {
  const flags: ValidationFlag[] = [];
  const seen = new Map<string, PanelResult>();
  for (const panel of panels) {
    let differential = 0;
    let differentialCount = 0;
    for (const result of panel.panelResults) {
      const value = numericValue(result);
      if (value !== null) {
        const bounds = boundsFlag(panel, result, value);
        if (bounds) flags.push(bounds);
        const range = rangeFlag(panel, result, value);
        if (range) flags.push(range);
        if (result.loincCode && DIFFERENTIAL_PERCENT.has(result.loincCode) && result.ucumCode === '%') {
          differential += value;
          differentialCount++;
        }
      }
      const row = result.loincCode ? loincRow(result.loincCode) : undefined;
      if (row && result.resultUnit !== null && result.ucumCode && unitFit(result.ucumCode, row) === 'conflicts') {
        flags.push(
          flagFor('unit_invalid_for_loinc', `${result.biomarker}: unit ${result.resultUnit} does not measure ${row.longCommonName}`, panel, result),
        );
      }
      const key = result.loincCode ?? result.biomarker.toUpperCase();
      const earlier = seen.get(key);
      if (earlier) {
        flags.push(flagFor('duplicate_test', `${result.biomarker} is reported more than once (also as ${earlier.biomarker} on page ${earlier.pageNumber})`, panel, result));
      } else seen.set(key, result);
    }
    if (differentialCount >= 4 && Math.abs(differential - 100) > DIFFERENTIAL_TOLERANCE) {
      flags.push(flagFor('differential_sum_off', `The differential percentages of ${panel.panelName} sum to ${Math.round(differential * 10) / 10}, not about 100`, panel, null));
    }
  }
  return flags;
}
