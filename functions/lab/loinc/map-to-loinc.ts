import loincTable from '../../../data/lab/loinc-common-labs.json';
import { memoize } from '../memo';
import type { LoincMatchType } from '../results-schema';
import { sameKind } from '../ucum/convert';

/**
 * Printed test name (+ specimen from the panel, + UCUM unit) → LOINC code from data/lab/loinc-common-labs.json
 * (data/sources/loinc-common-labs.csv). `exact` when name, specimen and unit leave one code;
 * `biomarker_only` when the name matches but specimen, property or method stay ambiguous, and then the
 * default is the serum/plasma (or whole-blood) code, verified before unverified, method-less before a
 * named method; `not_found` otherwise. `llm_fuzzy` is never produced here (see fallback.ts).
 */

export interface LoincRow {
  code: string;
  longCommonName: string;
  component: string;
  property: string;
  system: string;
  scale: string;
  exampleUcum: string | null;
  synonyms: string[];
  verified: boolean;
}

export interface LoincMatch {
  loincCode: string | null;
  loincMatchType: LoincMatchType;
}

export interface LoincContext {
  ucumCode: string | null;
  panelName?: string;
}

export const LOINC_ROWS = loincTable as LoincRow[];
const BY_CODE = new Map(LOINC_ROWS.map((r) => [r.code, r]));

/** Case, spacing and punctuation spacing vary between layouts (`Monocytes(Absolute)`, `Creatine Kinase,Total`). */
export function normaliseTestName(name: string): string {
  return name
    .toUpperCase()
    .replace(/\s*,\s*/g, ', ')
    .replace(/\s*\(\s*/g, ' (')
    .replace(/\s*\)/g, ')')
    .replace(/\s+/g, ' ')
    .trim();
}

const BY_NAME = new Map<string, LoincRow[]>();
for (const row of LOINC_ROWS) {
  for (const synonym of row.synonyms) {
    const key = normaliseTestName(synonym);
    const rows = BY_NAME.get(key) ?? [];
    if (!rows.includes(row)) rows.push(row);
    BY_NAME.set(key, rows);
  }
}

/**
 * Rows for a printed name: its own spelling, else the abbreviation it carries in parentheses when the
 * rest is an abbreviated spelling of its own (`Iron Bind.Cap.(TIBC)` → `TIBC`, `UREA NITROGEN (BUN)`
 * is known whole). Only an alias the table knows counts.
 */
function rowsFor(name: string): LoincRow[] | undefined {
  const key = normaliseTestName(name);
  const own = BY_NAME.get(key);
  if (own) return own;
  const alias = /\(([^()]+)\)\s*$/.exec(key)?.[1];
  return alias ? BY_NAME.get(normaliseTestName(alias)) : undefined;
}

/**
 * Whether the table knows this printed test name (any layout's spelling), as printed: used to re-join
 * wrapped names, where an abbreviation would make any words before `(TIBC)` a known name.
 */
export const isKnownTestName = memoize(function isKnownTestName(name: string): boolean {
  return BY_NAME.has(normaliseTestName(name));
});

/** Whether the table codes this printed name, by its own spelling or the abbreviation it carries. */
export function isCodedTestName(name: string): boolean {
  return rowsFor(name) !== undefined;
}

const FIRST_WORDS = new Set([...BY_NAME.keys()].map((name) => name.split(' ')[0]!));

/**
 * Whether a name opens the way some printed test name does (`IRON ...`, `PLATELET ...`): the second
 * line of a wrapped name (`COUNT`, `Bind.Cap.(TIBC)`, `(BUN)`) does not.
 */
export function opensLikeTestName(name: string): boolean {
  return FIRST_WORDS.has(normaliseTestName(name).split(' ')[0]!);
}

export function loincRow(code: string): LoincRow | undefined {
  return BY_CODE.get(code);
}

const URINE_CONTEXT = /URINALYSIS|URINE|\bUA\b/i;

function isUrine(row: LoincRow): boolean {
  return row.system.startsWith('Urine');
}

type Fit = 'fits' | 'conflicts' | 'unknown';

/** Does the result's unit fit the row's property? */
export function unitFit(ucumCode: string | null, row: LoincRow): Fit {
  // Qualitative rows (presence, colour) carry no unit; a printed one (`/HPF`) neither fits nor conflicts.
  if (row.exampleUcum === null) return ucumCode === null ? 'fits' : 'unknown';
  if (ucumCode === null) return 'unknown';
  const fits = sameKind(ucumCode, row.exampleUcum, row.property);
  // `1` is what a unitless printout maps to (pH, specific gravity): it says nothing against a code.
  if (ucumCode === '1') return fits ? 'fits' : 'unknown';
  return fits ? 'fits' : 'conflicts';
}

/** Default among equally good rows: serum/plasma or blood, verified, no named method, table order. */
function preferred(rows: readonly LoincRow[]): LoincRow {
  const score = (r: LoincRow) =>
    (isUrine(r) ? 4 : 0) + (r.verified ? 0 : 2) + (/ by /.test(r.longCommonName.replace(/by calculation/, '')) ? 1 : 0);
  return [...rows].sort((a, b) => score(a) - score(b))[0]!;
}

export function mapToLoinc(biomarker: string, context: LoincContext): LoincMatch {
  const named = rowsFor(biomarker);
  if (!named) return { loincCode: null, loincMatchType: 'not_found' };
  const urine = URINE_CONTEXT.test(context.panelName ?? '') || /\bURINE\b/i.test(biomarker);
  const specimen = named.filter((r) => isUrine(r) === urine);
  const pool = specimen.length > 0 ? specimen : named;
  const fitting = pool.filter((r) => unitFit(context.ucumCode, r) === 'fits');
  const open = pool.filter((r) => unitFit(context.ucumCode, r) !== 'conflicts');
  if (specimen.length > 0 && fitting.length === 1 && open.length === 1) return { loincCode: fitting[0]!.code, loincMatchType: 'exact' };
  if (specimen.length > 0 && fitting.length === 0 && open.length === 1 && pool.length === 1) {
    return { loincCode: open[0]!.code, loincMatchType: 'exact' };
  }
  const candidates = fitting.length > 0 ? fitting : open.length > 0 ? open : pool;
  return { loincCode: preferred(candidates).code, loincMatchType: 'biomarker_only' };
}
