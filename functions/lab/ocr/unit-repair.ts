import unitTable from '../../../data/lab/unit-to-ucum.json';
import { loincRow, unitFit } from '../loinc/map-to-loinc';
import type { Vendor } from '../parsers/vocabulary';
import { toUcum } from '../ucum/to-ucum';
import { PRINTED_UNITS } from './normalise-word';
import { printedRanges } from './printed-ranges';
import { confusionFold, foldedDistance } from './test-name-repair';
import { isUnitRespaced } from './unit-spacing';

/**
 * A unit read from a scan that is no unit the lab prints, put back to the one it does print for that
 * test. The engine misreads a unit's glyphs as it misreads a name's (`mo/dL`, `P9`, `9%`, `x10E3AL`,
 * `UL` for `IU/L`), but a test has few units, and which a lab prints is known:
 * - the unit the lab printed for that test in the reference ranges transcribed from its reports
 *   (data/reference/lab-ranges.json, from data/sources/lab-reference-ranges.csv, each row sourced).
 *   Where that is one unit, a reading is that unit if it keeps at least half of its characters: at most
 *   half of them lost, added or changed;
 * - else the units the lab prints (the unit table's `vendor` column, data/lab/unit-to-ucum.json
 *   `printedBy`) for a quantity of the kind the test measures (its LOINC row's example UCUM unit and
 *   property, as LOINC coding compares them). A reading is the one of these it is nearest to within one
 *   character misread.
 *
 * Characters are compared as OCR confuses them: letter case and the classes of test-name-repair.ts
 * aside (`Pg` is `pg`), a glyph taken for one of like shape costing half a change, and `%` read as two
 * glyphs (`Yo`, `o °`) taken back. A reading that is one
 * of the unit table's spellings stays, as does one that is a unit of the right kind the table lacks
 * (`mmol/L` for a glucose), two candidates as near, or none near enough; and a result with no LOINC code
 * or a unitless one. A wrong unit is worse than one left as read.
 */

interface UnitRow {
  printed: string;
  ucum: string | null;
  printedBy: readonly string[];
}

const UNITS = unitTable as UnitRow[];

/** Glyphs of a unit the engine reads as two, in folded spelling: `%` as `Yo` or `o°` (its two rings parted from the stroke). */
const GLYPH_READINGS: ReadonlyArray<readonly [string, string]> = [
  ['Y0', '%'],
  ['0°', '%'],
];

/** A folded reading and the readings it gives with such a pair taken back for its glyph. */
function withGlyphsRead(fold: string): string[] {
  const readings = [fold];
  for (const [read, glyph] of GLYPH_READINGS) {
    for (let at = fold.indexOf(read); at >= 0; at = fold.indexOf(read, at + 1)) readings.push(`${fold.slice(0, at)}${glyph}${fold.slice(at + read.length)}`);
  }
  return readings;
}

interface Candidates {
  units: readonly string[];
  /** How far from a candidate (`distance`) a reading may be and still be taken for it. */
  reach: (unit: string) => number;
}

/** The units a reading of test `code`'s unit on `vendor`'s report may stand for, and how near it must be. */
function candidatesFor(code: string, vendor: Vendor): Candidates {
  // The printed units of the lab's ranges for the test.
  const sourced = [...new Set(printedRanges(vendor, code).map((r) => r.unit))].filter((unit) => PRINTED_UNITS.has(unit));
  if (sourced.length === 1) return { units: sourced, reach: (unit) => Math.ceil(confusionFold(unit).length / 2) };
  const row = loincRow(code);
  if (!row?.exampleUcum) return { units: [], reach: () => 0 };
  const units = UNITS.filter((u) => u.printedBy.includes(vendor) && u.ucum !== null && unitFit(u.ucum, row) === 'fits');
  return { units: units.map((u) => u.printed), reach: () => 1 };
}

/** Whether a reading is a unit of the kind test `code` measures (as LOINC coding judges it), printed so or not. */
function isUnitOfKind(read: string, code: string): boolean {
  const row = loincRow(code);
  return row !== undefined && row.exampleUcum !== null && unitFit(toUcum(read).ucumCode, row) === 'fits';
}

/** The unit `vendor` prints for test `code` that an OCR reading of a unit stands for; null to keep the reading. */
export function repairedUnit(read: string, code: string | null, vendor: Vendor): string | null {
  if (code === null || PRINTED_UNITS.has(read)) return null;
  const { units, reach } = candidatesFor(code, vendor);
  const readings = withGlyphsRead(confusionFold(read));
  const spelt = units.filter((unit) => confusionFold(unit) === readings[0]);
  if (spelt.length > 0) return spelt.length === 1 ? spelt[0]! : null;
  if (isUnitOfKind(read, code)) return null;
  const near = units
    .map((unit) => ({ unit, by: Math.min(...readings.map((reading) => foldedDistance(reading, confusionFold(unit)))) }))
    .filter(({ unit, by }) => by <= reach(unit));
  const nearest = Math.min(...near.map((u) => u.by));
  const best = near.filter((u) => u.by === nearest);
  return best.length === 1 ? best[0]!.unit : null;
}

/**
 * The unit of the lab's printed range that a scanned row's range is, where the row read another unit:
 * the bounds say which unit the lab printed them in (Quest's iron `50-180` is in mcg/dL; in mg/dL it
 * would be `0.05-0.18`), so a unit read with a glyph lost, itself a printed unit (`mg/dL` for `mcg/dL`,
 * a thousand times off), is that unit. Only where every range the lab prints for the test with those
 * bounds is in one unit, and the reading keeps at least half of its characters; null to keep the
 * reading (a range read wrong matches nothing).
 */
export function unitOfPrintedRange(read: string, bounds: { min: number | null; max: number | null }, code: string | null, vendor: Vendor): string | null {
  if (code === null || (bounds.min === null && bounds.max === null)) return null;
  const units = new Set(printedRanges(vendor, code).filter((r) => r.min_value === bounds.min && r.max_value === bounds.max).map((r) => r.unit));
  const [unit] = units;
  // The same unit spelt as another of the lab's reports spells it (`ug/dL`, `mcg/dL`) stays as read.
  if (units.size !== 1 || !unit || !PRINTED_UNITS.has(unit) || toUcum(read).ucumCode === toUcum(unit).ucumCode) return null;
  const printed = confusionFold(unit);
  return foldedDistance(confusionFold(read), printed) <= Math.ceil(printed.length / 2) ? unit : null;
}

/**
 * Whether a scanned unit that no printed unit mends is no unit at all, where the lab's ranges say which
 * unit it prints for the test: neither one of the unit table's spellings (as printed or re-spaced) nor
 * a UCUM unit (`WL` and `un` for Labcorp's `IU/L`, where glyphs were lost and changed beyond repair).
 * Such a reading, in a row the engine doubted, is left out rather than given (parsers/index.ts): a wrong
 * unit is worse than none. A reading that is a unit, and any reading for a test whose printed unit the
 * ranges do not give, stays as read.
 */
export function isGarbledUnit(read: string, code: string | null, vendor: Vendor): boolean {
  if (code === null || read.trim() === '' || PRINTED_UNITS.has(read) || isUnitRespaced(read) || toUcum(read).ucumCode !== null) return false;
  return printedRanges(vendor, code).some((range) => PRINTED_UNITS.has(range.unit));
}
