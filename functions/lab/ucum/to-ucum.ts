import unitTable from '../../../data/lab/unit-to-ucum.json';
import { ucum } from '../../reference/build/ucum';
import { memoize } from '../memo';
import type { UcumMatchMethod } from '../results-schema';

/**
 * Printed unit → UCUM code. In order: the printed-unit table (`static_map`, data/lab/unit-to-ucum.json
 * from data/sources/unit-to-ucum.csv), systematic vendor spellings (`pattern_rule`), units composed of
 * SI-prefixed base units (`prefix_map`); every code is validated with @lhncbc/ucum-lhc. `K/uL` is a
 * thousand per microlitre on a lab report and never Kelvin.
 */

export interface UcumMatch {
  ucumCode: string | null;
  ucumMatchMethod: UcumMatchMethod | null;
}

interface UnitRow {
  printed: string;
  ucum: string | null;
}

const STATIC = new Map<string, string | null>((unitTable as UnitRow[]).map((r) => [r.printed, r.ucum]));
const STATIC_FOLDED = new Map<string, string | null>((unitTable as UnitRow[]).map((r) => [r.printed.toLowerCase(), r.ucum]));

/** ucum-lhc validation, cached (bounded: candidate codes are built from whatever text a report prints): units repeat across every report. */
export const isValidUcum = memoize(function isValidUcum(code: string): boolean {
  // A UCUM code has no white space; ucum-lhc would also print such a string (a lab value beside its unit) to the console.
  return !/\s/.test(code) && ucum.validateUnitString(code, false).status === 'valid';
});

/** A bare `K` atom would be Kelvin; no lab result is a temperature, so such a code is never produced. */
function hasKelvin(code: string): boolean {
  return /(^|[./])K($|[./\d])/.test(code);
}

const SUPERSCRIPTS: Record<string, string> = { '⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9' };

/**
 * Systematic spellings: `(calc)` suffixes, micro signs, superscripts, `x10E3/uL`, `Thousand/uL`, `K/uL`.
 * Cached: every rule below asks for the same text's normal form.
 */
const normalisePrinted = memoize(function normalisePrinted(printed: string): string {
  return printed
    .replace(/\s*\(calc\)$/i, '')
    .replace(/[µμ]/g, 'u')
    // A superscript after 10 is its exponent (`10³` = 10^3); elsewhere (`m²`) it is a power digit.
    .replace(/10([⁰¹²³⁴⁵⁶⁷⁸⁹]+)/g, (_m, exponent: string) => `10^${[...exponent].map((d) => SUPERSCRIPTS[d]).join('')}`)
    .replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹]/g, (s) => SUPERSCRIPTS[s]!)
    .replace(/\s+/g, ' ')
    .trim();
});

const TEN_POWER = /^[x×*]?\s*10\s*(?:E|\^|\*)\s*(\d{1,2})\s*\/\s*(uL|mm3|L|mL)$/i;
const WORD_MULTIPLIERS: Record<string, string> = { thousand: '10*3', million: '10*6', billion: '10*9', k: '10*3', m: '10*6' };
const WORD_PER_VOLUME = /^(Thousand|Million|Billion|K|M)\s*\/\s*(uL|mm3|L)$/i;

function volume(unit: string): string {
  return unit.toLowerCase() === 'mm3' ? 'mm3' : unit.toLowerCase() === 'ul' ? 'uL' : unit.toLowerCase() === 'ml' ? 'mL' : 'L';
}

/**
 * A unit followed by words that say what it measures (`% of total Hgb`, `% by wt`): the unit is the
 * first part. Each word of the description opens with a letter (a number after it is another column's).
 */
const DESCRIBED_UNIT = /^(\S+)\s+(?:of|by|in)(?:\s+[A-Za-z][\w.]*)+$/i;

function patternRule(printed: string): string | null {
  const described = DESCRIBED_UNIT.exec(normalisePrinted(printed));
  if (described) {
    const base = STATIC.get(described[1]!) ?? patternRule(described[1]!);
    if (base) return base;
  }
  const unit = normalisePrinted(printed);
  if (unit === '') return printed.trim() === '' ? null : '1';
  const staticHit = STATIC.get(unit) ?? STATIC_FOLDED.get(unit.toLowerCase());
  if (staticHit) return staticHit;
  const power = TEN_POWER.exec(unit);
  if (power) return `10*${power[1]}/${volume(power[2]!)}`;
  const word = WORD_PER_VOLUME.exec(unit);
  // `M/uL` would read as metres; only the upper-case single letters and the spelled words are counts.
  if (word && (word[1]!.length > 1 || word[1] === 'K' || word[1] === 'M')) {
    return `${WORD_MULTIPLIERS[word[1]!.toLowerCase()]}/${volume(word[2]!)}`;
  }
  const spelled = unit
    .replace(/^cells\s*\//i, '/')
    .replace(/\bmcg\b/g, 'ug')
    .replace(/mEq/g, 'meq')
    .replace(/mOsm/g, 'mosm')
    .replace(/\b([munpk]?)IU\b/g, '$1[IU]')
    .replace(/\/hr$/i, '/h')
    .replace(/\/1\.73\s?m2$/i, '/{1.73_m2}')
    .replace(/\/1\.73$/, '/{1.73_m2}');
  return spelled !== unit ? spelled : null;
}

/** SI prefixes that lab units use, printed spelling → UCUM. */
const PREFIXES: Record<string, string> = { '': '', k: 'k', d: 'd', c: 'c', m: 'm', u: 'u', mc: 'u', n: 'n', p: 'p', f: 'f' };
/** Longest printed prefix first (`mc` before `m`). */
const PREFIXES_LONGEST_FIRST = Object.entries(PREFIXES).sort((a, b) => b[0].length - a[0].length);
const BASES = new Set(['g', 'L', 'l', 'mol', 'U', 'eq', 's', 'min', 'h', 'kat', 'osm']);

function prefixAtom(atom: string): string | null {
  for (const [printed, code] of PREFIXES_LONGEST_FIRST) {
    if (!atom.startsWith(printed)) continue;
    const base = atom.slice(printed.length);
    if (BASES.has(base)) return `${code}${base === 'l' ? 'L' : base}`;
  }
  return null;
}

/** `pmol/L`, `ng/dL`, `ukat/L`, `mmol/mol`: each atom an SI prefix on a base unit. */
function prefixMap(printed: string): string | null {
  const unit = normalisePrinted(printed);
  const atoms = unit.split('/');
  if (atoms.length > 3 || atoms.some((a) => a === '')) return null;
  const mapped = atoms.map(prefixAtom);
  return mapped.every((a) => a !== null) ? mapped.join('/') : null;
}

function accepted(code: string | null): code is string {
  return code !== null && !hasKelvin(code) && isValidUcum(code);
}

/** UCUM code of a printed unit; `null` printed unit (a unitless value) maps to `1` for numbers only. */
export function toUcum(printedUnit: string | null, options: { numeric?: boolean } = {}): UcumMatch {
  const printed = printedUnit?.trim() ?? '';
  if (printed === '') {
    return options.numeric ? { ucumCode: STATIC.get('') ?? '1', ucumMatchMethod: 'static_map' } : { ucumCode: null, ucumMatchMethod: null };
  }
  if (STATIC.has(printed)) {
    const code = STATIC.get(printed)!;
    // Rows such as `Pattern` are not units: the result is qualitative.
    if (code === null) return { ucumCode: null, ucumMatchMethod: null };
    if (accepted(code)) return { ucumCode: code, ucumMatchMethod: 'static_map' };
  }
  const pattern = patternRule(printed);
  if (accepted(pattern)) return { ucumCode: pattern, ucumMatchMethod: 'pattern_rule' };
  const prefixed = prefixMap(printed);
  if (accepted(prefixed)) return { ucumCode: prefixed, ucumMatchMethod: 'prefix_map' };
  return { ucumCode: null, ucumMatchMethod: 'not_found' };
}

/** Whether a cell's text is a unit as labs print them (used to split Quest's range-and-unit cell). */
export const isPrintedUnit = memoize(function isPrintedUnit(text: string): boolean {
  const unit = text.trim();
  if (unit === '') return false;
  if (STATIC.has(unit) || /\(calc\)$/i.test(unit)) return true;
  const normalised = normalisePrinted(unit);
  if (STATIC.has(normalised) || STATIC_FOLDED.has(normalised.toLowerCase())) return true;
  return accepted(patternRule(unit)) || accepted(prefixMap(unit));
});
