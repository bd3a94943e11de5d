import fc from 'fast-check';
import unitTable from '../../../../data/lab/unit-to-ucum.json';
import labRanges from '../../../../data/reference/lab-ranges.json';
import { LOINC_ROWS, loincRow } from '../../../../functions/lab/loinc/map-to-loinc';
import { PRINTED_UNITS } from '../../../../functions/lab/ocr/normalise-word';
import { confusionFold } from '../../../../functions/lab/ocr/test-name-repair';
import { isGarbledUnit, repairedUnit } from '../../../../functions/lab/ocr/unit-repair';
import type { Vendor } from '../../../../functions/lab/parsers/vocabulary';
import { sameKind } from '../../../../functions/lab/ucum/convert';
import { toUcum } from '../../../../functions/lab/ucum/to-ucum';

const VENDORS: readonly Vendor[] = ['quest', 'labcorp'];
const LAB_NAMES: Record<Vendor, string> = { quest: 'Quest Diagnostics', labcorp: 'Labcorp' };
const UNITS = unitTable as Array<{ printed: string; ucum: string | null; printedBy: string[] }>;
const RANGES = labRanges as Array<{ vendor_name: string; concept_code: string; unit: string }>;

describe('a unit OCR misread, put back to the one the lab prints for the test', () => {
  it.each([
    ['labcorp', '1742-6', '[U/L', 'IU/L', 'a bracket for I: the one unit Labcorp prints for ALT'],
    ['labcorp', '1742-6', 'UL', 'IU/L', 'two of four characters lost'],
    ['quest', '1742-6', 'UL', 'U/L', 'the slash lost: Quest prints U/L for ALT'],
    ['labcorp', '786-4', 'gidL', 'g/dL', 'a slash read as i'],
    ['quest', '785-6', 'Pg', 'pg', 'letter case'],
    ['labcorp', '736-9', '9%', '%', 'a speck before it, on a test the ranges table lacks: the units of its kind'],
    ['labcorp', '2498-4', 'uq/dL', 'ug/dL', 'q for g: the one unit of the kind Labcorp prints within a character'],
    ['labcorp', '736-9', 'Yo', '%', 'a percent sign read as two glyphs'],
    ['labcorp', '736-9', 'o °', '%', 'a percent sign read as two glyphs'],
  ] as const)('%s %s %s → %s (%s)', (vendor, code, read, unit, _why) => {
    expect(repairedUnit(read, code, vendor)).toBe(unit);
  });

  it.each([
    ['labcorp', '2498-4', 'xg/dL', 'as near to ug/dL, mg/dL and ng/dL'],
    ['labcorp', '2498-4', 'ug/L', 'a unit of the right kind the table does not list'],
    ['labcorp', '2498-4', 'mg/dL', 'one of the table’s spellings, though not the lab’s for the test'],
    ['labcorp', '1742-6', 'WL', 'three of four characters changed'],
    ['labcorp', '1975-2', 'no', 'too little of mg/dL left'],
  ] as const)('%s %s %s stays as read (%s)', (vendor, code, read, _why) => {
    expect(repairedUnit(read, code, vendor)).toBeNull();
  });

  it('leaves a result with no LOINC code or a unitless one as read', () => {
    expect(repairedUnit('mo/dL', null, 'quest')).toBeNull();
    const unitless = LOINC_ROWS.find((r) => r.exampleUcum === null)!;
    expect(repairedUnit('mo/dL', unitless.code, 'quest')).toBeNull();
  });

  it('never gives a unit the lab does not print, or one of another kind than the test measures', () => {
    const alphabet = fc.constantFrom(...'mgudLlI1/%()xE03nNpPcfU[]|o9 '.split(''));
    const reading = fc.oneof(
      fc.array(alphabet, { minLength: 1, maxLength: 10 }).map((cs) => cs.join('')),
      fc.tuple(fc.constantFrom(...PRINTED_UNITS), fc.nat(), alphabet).map(([u, at, c]) => `${u.slice(0, at % (u.length + 1))}${c}${u.slice((at % (u.length + 1)) + 1)}`),
    );
    fc.assert(
      fc.property(reading, fc.constantFrom(...LOINC_ROWS), fc.constantFrom(...VENDORS), (read, row, vendor) => {
        const unit = repairedUnit(read, row.code, vendor);
        if (unit === null) return;
        const printed = UNITS.find((u) => u.printed === unit);
        expect(printed?.printedBy).toContain(vendor);
        expect(sameKind(printed!.ucum!, row.exampleUcum!, row.property)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives each unit a lab’s ranges print for a test back from any reading with one character lost, unless that reading is another unit of its kind', () => {
    const sourced = RANGES.filter((r) => PRINTED_UNITS.has(r.unit) && r.unit.length > 1);
    fc.assert(
      fc.property(fc.constantFrom(...sourced), fc.nat(), (range, at) => {
        const vendor = VENDORS.find((v) => LAB_NAMES[v] === range.vendor_name)!;
        const i = at % range.unit.length;
        const read = `${range.unit.slice(0, i)}${range.unit.slice(i + 1)}`;
        const row = loincRow(range.concept_code)!;
        const asRead = toUcum(read).ucumCode;
        const ofKind = PRINTED_UNITS.has(read) || (asRead !== null && sameKind(asRead, row.exampleUcum!, row.property));
        // A space lost is the same spelling (`mg/dL(calc)`), whatever else the reading might be.
        const respaced = confusionFold(read) === confusionFold(range.unit);
        expect(repairedUnit(read, range.concept_code, vendor)).toBe(ofKind && !respaced ? null : range.unit);
      }),
      { numRuns: 500 },
    );
  });
});

describe('a scanned unit that is no unit at all', () => {
  it.each([
    ['labcorp', '1742-6', 'WL', true, 'Labcorp prints IU/L for ALT: neither a spelling of the table nor UCUM'],
    ['labcorp', '1920-8', 'un', true, 'nor is `un` for AST'],
    ['labcorp', '1742-6', 'U/L', false, 'a UCUM unit, though not the lab’s'],
    ['labcorp', '1742-6', 'IU/L', false, 'the lab’s own'],
    ['labcorp', '4548-4', '% oftotal Hgb', false, 'a table unit read with a space lost'],
    ['labcorp', null, 'WL', false, 'a test with no LOINC code'],
  ] as const)('%s %s %s: %s (%s)', (vendor, code, read, garbled, _why) => {
    expect(isGarbledUnit(read, code, vendor)).toBe(garbled);
  });

  it('is only said where the lab’s ranges give the unit it prints for the test', () => {
    const withUnit = new Set(RANGES.filter((r) => PRINTED_UNITS.has(r.unit)).map((r) => `${r.vendor_name}|${r.concept_code}`));
    const unranged = LOINC_ROWS.find((row) => VENDORS.every((vendor) => !withUnit.has(`${LAB_NAMES[vendor]}|${row.code}`)))!;
    expect(unranged).toBeDefined();
    for (const vendor of VENDORS) expect(isGarbledUnit('WL', unranged.code, vendor)).toBe(false);
  });

  it('is never said of a unit the unit table spells, for any test of any lab', () => {
    fc.assert(
      fc.property(fc.constantFrom(...UNITS.map((u) => u.printed)), fc.constantFrom(...RANGES), (unit, range) => {
        const vendor = VENDORS.find((v) => LAB_NAMES[v] === range.vendor_name) ?? 'quest';
        expect(isGarbledUnit(unit, range.concept_code, vendor)).toBe(false);
      }),
    );
  });
});

