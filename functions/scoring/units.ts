import { toUcum } from '../lab/ucum/to-ucum';
import { ucum } from '../reference/build/ucum';
import type { PredictorDefinition } from './catalogue';

/**
 * Printed unit → the catalogue unit of a predictor. Printed spellings go through the lab area's
 * printed-unit table (data/sources/unit-to-ucum.csv: `x10E3/uL`, `K/uL`, `Thousand/uL`, `mEq/L`,
 * `mIU/L`, …); vitals spellings below; conversion by @lhncbc/ucum-lhc, molar ↔ mass with the
 * predictor's molecular weight, except where the catalogue gives an affine conversion (HbA1c in IFCC
 * mmol/mol, which is not a multiple of NGSP %).
 */

/** Vitals spellings that are not lab-report units (UCUM specification, unitsofmeasure.org). */
const VITALS_UCUM: Readonly<Record<string, string>> = {
  mmHg: 'mm[Hg]',
  'mm Hg': 'mm[Hg]',
  in: '[in_i]',
  inch: '[in_i]',
  inches: '[in_i]',
  lb: '[lb_av]',
  lbs: '[lb_av]',
  'kg/m^2': 'kg/m2',
};

// ucum-lhc's convertUnitTo takes a fourth options argument for molar ↔ mass conversions.
type ConvertUnitTo = (
  from: string,
  value: number,
  to: string,
  options?: { molecularWeight?: number },
) => { status: string; toVal: number | null; msg: string[] };
const ucumConvertUnitTo = ucum.convertUnitTo.bind(ucum) as ConvertUnitTo;

/**
 * ucum-lhc keeps its unit tables in plain objects, so a printed unit spelled like an Object.prototype
 * member (`hasOwnProperty`, `constructor`) passes validateUnitString and then makes convertUnitTo
 * throw a TypeError: a unit the library cannot handle is not convertible, whatever the reason.
 */
const convertUnitTo: ConvertUnitTo = (from, value, to, options) => {
  try {
    return ucumConvertUnitTo(from, value, to, options);
  } catch {
    return { status: 'failed', toVal: null, msg: [`unit '${from}' could not be converted`] };
  }
};

/** Enzyme activities: the international unit of an enzyme is the µmol/min `U` (data/sources/unit-to-ucum.csv, IU/L). */
const ENZYMES = new Set(['alp', 'ast', 'alt']);

export type UnitResult = { ok: true; value: number } | { ok: false; reason: string };

/** value in the catalogue unit = printed value × slope + intercept (intercept 0 but for HbA1c IFCC → NGSP). */
interface Conversion {
  slope: number;
  intercept: number;
}

const conversions = new Map<PredictorDefinition, Map<string, Conversion | null>>();

function ucumCodeOf(printed: string): string | null {
  const trimmed = printed.trim();
  // Own keys only: a printed unit such as `constructor` or `hasOwnProperty` is not a table entry.
  const vitals = Object.hasOwn(VITALS_UCUM, trimmed) ? VITALS_UCUM[trimmed] : undefined;
  if (vitals) return vitals;
  const mapped = toUcum(trimmed, { numeric: true }).ucumCode;
  if (mapped) return mapped;
  return ucum.validateUnitString(trimmed, false).status === 'valid' ? trimmed : null;
}

/** Conversion from `printed` to the predictor's unit, or null when not convertible (cached). */
function conversionTo(predictor: PredictorDefinition, printed: string): Conversion | null {
  let cache = conversions.get(predictor);
  if (!cache) {
    cache = new Map();
    conversions.set(predictor, cache);
  }
  const cached = cache.get(printed);
  if (cached !== undefined) return cached;
  let code = ucumCodeOf(printed);
  if (code !== null && ENZYMES.has(predictor.key)) code = code.replace(/\[IU\]/g, 'U');
  let conversion: Conversion | null = null;
  const affine = code !== null && predictor.affineUnits && Object.hasOwn(predictor.affineUnits, code) ? predictor.affineUnits[code] : undefined;
  if (affine) conversion = { slope: affine.slope, intercept: affine.intercept };
  else if (code === predictor.ucumUnit) conversion = { slope: 1, intercept: 0 };
  else if (code !== null) {
    const options = predictor.molecularWeight ? { molecularWeight: predictor.molecularWeight.value } : undefined;
    const converted = convertUnitTo(code, 1, predictor.ucumUnit, options);
    const factor = converted.status === 'succeeded' && converted.toVal !== null && Number.isFinite(converted.toVal) ? converted.toVal : null;
    conversion = factor === null ? null : { slope: factor, intercept: 0 };
  }
  cache.set(printed, conversion);
  return conversion;
}

/** Converts a numeric value in a printed unit to the predictor's catalogue unit. */
export function toCatalogueUnit(predictor: PredictorDefinition, value: number, printedUnit: string): UnitResult {
  if (printedUnit.trim() === '') {
    return { ok: false, reason: `a unit is required (${predictor.name} is computed in ${predictor.ucumUnit})` };
  }
  const conversion = conversionTo(predictor, printedUnit);
  if (conversion === null) {
    return { ok: false, reason: `unit '${printedUnit}' cannot be converted to ${predictor.ucumUnit}` };
  }
  return { ok: true, value: value * conversion.slope + conversion.intercept };
}
