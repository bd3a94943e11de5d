/**
 * The unit strings of `data/sources/nhanes-biomarker-stats.json` in UCUM. NHANES labels enzyme
 * activities "IU/L"; they are enzyme units per litre (U/L), as labs print them. "µU/mL" of insulin is
 * micro-international units.
 */
export const NHANES_UNIT_TO_UCUM: Readonly<Record<string, string>> = {
  'g/dL': 'g/dL',
  'mg/dL': 'mg/dL',
  'mg/L': 'mg/L',
  '%': '%',
  fL: 'fL',
  'IU/L': 'U/L',
  'U/L': 'U/L',
  '1000 cells/uL': '10*3/uL',
  'million cells/uL': '10*6/uL',
  'mg/g': 'mg/g',
  'kg/m**2': 'kg/m2',
  cm: 'cm',
  kg: 'kg',
  mmHg: 'mm[Hg]',
  'µU/mL': 'u[IU]/mL',
  'uU/mL': 'u[IU]/mL',
};
