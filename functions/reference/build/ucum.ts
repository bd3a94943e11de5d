/**
 * The slice of @lhncbc/ucum-lhc that Hale uses (reference build, lab unit mapping, scoring unit
 * conversion); the package ships no types. One instance per process: loading its tables takes ~80 ms.
 */
export interface UcumUtils {
  validateUnitString(unit: string, suggest?: boolean): { status: 'valid' | 'invalid' | 'error'; msg: string[] };
  convertUnitTo(from: string, value: number, to: string): { status: 'succeeded' | 'failed' | 'error'; toVal: number | null; msg: string[] };
}

// A typed require instead of an ambient module declaration, so no global typing of the package is claimed here.
const { UcumLhcUtils } = require('@lhncbc/ucum-lhc') as { UcumLhcUtils: { getInstance(): UcumUtils } };

export const ucum: UcumUtils = UcumLhcUtils.getInstance();
