import { ucum } from '../../reference/build/ucum';

/**
 * Comparing and converting UCUM quantities of lab results. ucum-lhc never converts arbitrary units
 * ([IU]); on enzyme activities (LOINC property CCnc) Labcorp's IU/L is U/L (data/sources/unit-to-ucum.csv,
 * row IU/L), and elsewhere an [IU] unit is compared with an [IU] unit as if both were masses, which
 * keeps the prefixes (m[IU]/L = u[IU]/mL) and nothing else.
 */
function plain(unit: string, property: string): string {
  return property === 'CCnc' ? unit.replace(/\[IU\]/g, 'U') : unit.replace(/\[IU\]/g, 'g');
}

const conversions = new Map<string, number | null>();

/** Factor that turns a value in `from` into `to`, or null when they measure different things. */
function factor(from: string, to: string, property: string): number | null {
  const key = `${from}|${to}|${property}`;
  let result = conversions.get(key);
  if (result === undefined) {
    const [a, b] = [plain(from, property), plain(to, property)];
    if (a === b) result = 1;
    else {
      const converted = ucum.convertUnitTo(a, 1, b);
      result = converted.status === 'succeeded' && converted.toVal !== null ? converted.toVal : null;
    }
    conversions.set(key, result);
  }
  return result;
}

export function sameKind(a: string, b: string, property: string): boolean {
  return factor(a, b, property) !== null;
}

export function convertValue(value: number, from: string, to: string, property: string): number | null {
  const f = factor(from, to, property);
  return f === null ? null : value * f;
}
