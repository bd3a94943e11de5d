import fc from 'fast-check';
import labRanges from '../../../../data/reference/lab-ranges.json';
import { isGarbledRange, type RangeReading, repairedRange, reportHyphen } from '../../../../functions/lab/ocr/range-repair';
import { parseRange } from '../../../../functions/lab/parsers/values';
import type { Vendor } from '../../../../functions/lab/parsers/vocabulary';

const RANGES = labRanges as Array<{ vendor_name: string; concept_code: string; min_value: number | null; max_value: number | null; min_value_display: string; max_value_display: string }>;

/** A range text as the reader gives it: its bounds where it parses. */
function reading(text: string): RangeReading {
  const parsed = parseRange(text);
  return { text, min: parsed?.min ?? null, max: parsed?.max ?? null };
}

describe('a range OCR read with its points or dash lost or misread, put back to the lab’s printed range', () => {
  it.each([
    ['labcorp', '788-0', '11.6-154', '11.6-15.4', 'the upper bound’s point lost: RDW'],
    ['labcorp', '1759-0', '1.2.22', '1.2-2.2', 'the dash read as a point and a point lost: A/G ratio'],
    ['labcorp', '1759-0', '12:22', '1.2-2.2', 'a colon for the dash, both points lost'],
    ['labcorp', '1759-0', '1:2=2.2', '1.2-2.2', 'a colon for a point, an equals sign for the dash'],
    ['labcorp', '789-8', '4,14-5.80', '4.14-5.80', 'a comma for the point, the printed zero kept: RBC'],
    ['labcorp', '4548-4', '48-56', '4.8-5.6', 'both points lost: HbA1c'],
  ] as const)('%s %s %s → %s (%s)', (vendor, code, read, printed, _why) => {
    const repaired = repairedRange(reading(read), code, vendor);
    expect(repaired).toEqual({ text: printed, min: parseRange(printed)!.min, max: parseRange(printed)!.max });
  });

  it.each([
    ['labcorp', '788-0', '11.6-15.4', 'read as printed'],
    ['labcorp', '3094-0', '6 - 24', 'read as printed, spaced as Labcorp spaces it'],
    ['labcorp', '2075-0', '96-166', 'a digit misread: the lab may print a range the table lacks'],
    ['labcorp', '2823-3', 'DIE5.2', 'letters in it: the engine could not read it'],
    ['labcorp', '99999-9', '11.6-154', 'a test the table has no range of'],
  ] as const)('%s %s %s stays as read (%s)', (vendor, code, read, _why) => {
    expect(repairedRange(reading(read), code, vendor)).toBeNull();
  });

  it.each([
    ['355.2', true],
    ['5.0:7.5', true],
    ['13:4145', true],
    ['3.5-5.2', false],
    ['<5.7', false],
    ['NEGATIVE', false],
    ['Not Estab.', false],
    ['1+', false],
    // No bound, a digit or a unit's marks in it: `<5.2`, `>39` and `<5.7` misread, a unit read into the range.
    ['DIE5.2', true],
    ['=39', true],
    ['57%', true],
    ['mg/k', true],
    ['{calc)', true],
    // A bound with a leading zero, no number a lab writes (`<200` with a digit lost); `0.` and a zero inside a number are.
    ['<00', true],
    ['012-40', true],
    ['0.60-1.26', false],
    ['100-199', false],
    ['0-40', false],
  ])('takes %s for a range no lab writes: %s', (text, garbled) => expect(isGarbledRange(reading(text))).toBe(garbled));

  it('stays as read without a LOINC code', () => {
    expect(repairedRange(reading('11.6-154'), null, 'labcorp')).toBeNull();
  });

  const twoSided = RANGES.filter((r) => r.min_value !== null && r.max_value !== null);
  const vendorOf = (name: string): Vendor => (name === 'Labcorp' ? 'labcorp' : 'quest');
  /** Every two-sided range the lab prints for the same test, as bounds. */
  const rangesOf = (r: (typeof twoSided)[number]) => twoSided.filter((o) => o.vendor_name === r.vendor_name && o.concept_code === r.concept_code);

  it('puts back every printed range whose points and dash were read as other marks or lost, where its digits are no other range of the test', () => {
    const mark = fc.constantFrom('', '.', ',', ':', '=', '-', ' ');
    fc.assert(
      fc.property(fc.constantFrom(...twoSided), mark, mark, mark, (row, inLow, between, inHigh) => {
        const digitsOf = (display: string, where: string) => display.replace('.', where);
        const read = `${digitsOf(row.min_value_display, inLow)}${between}${digitsOf(row.max_value_display, inHigh)}`;
        fc.pre(/^\d/.test(read) && /\d$/.test(read));
        const repaired = repairedRange(reading(read), row.concept_code, vendorOf(row.vendor_name));
        const digits = read.replace(/\D/g, '');
        const alike = rangesOf(row).filter((o) => o.min_value !== row.min_value || o.max_value !== row.max_value).filter((o) => `${o.min_value_display}${o.max_value_display}`.replace(/\D/g, '') === digits);
        const parsed = reading(read);
        if (alike.length > 0 || (parsed.min === row.min_value && parsed.max === row.max_value)) return;
        expect(repaired).not.toBeNull();
        expect([repaired!.min, repaired!.max]).toEqual([row.min_value, row.max_value]);
        expect(repaired!.text.replace(/\D/g, '')).toBe(digits);
      }),
    );
  });

  it('never gives bounds that are no range the lab prints for the test, nor changes a digit', () => {
    fc.assert(
      fc.property(fc.constantFrom(...twoSided), fc.stringMatching(/^\d[\d.,:=\- ]{0,8}\d$/), (row, read) => {
        const repaired = repairedRange(reading(read), row.concept_code, vendorOf(row.vendor_name));
        if (repaired === null) return;
        expect(rangesOf(row).some((o) => o.min_value === repaired.min && o.max_value === repaired.max)).toBe(true);
        expect(repaired.text.replace(/\D/g, '')).toBe(read.replace(/\D/g, ''));
      }),
    );
  });
});

describe('the hyphen a report prints its ranges with', () => {
  const bound = fc.oneof(fc.integer({ min: 0, max: 999 }).map(String), fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 })).map(([a, b]) => `${a}.${b}`));
  const spaced = fc.tuple(bound, bound).map(([a, b]) => `${a} - ${b}`);
  const unspaced = fc.tuple(bound, bound).map(([a, b]) => `${a}-${b}`);
  /** Range texts that are no two-sided range of numbers: they say nothing of the hyphen. */
  const other = fc.constantFrom(null, '<200', '> OR = 60', 'Negative', 'Not Estab.', '3.4-', '-5', '1.2.22', '');

  it('is the one hyphen two or more of its ranges show, whatever else it prints', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.tuple(fc.array(spaced, { minLength: 2, maxLength: 12 }), fc.constant(' - ')), fc.tuple(fc.array(unspaced, { minLength: 2, maxLength: 12 }), fc.constant('-'))),
        fc.array(other, { maxLength: 6 }),
        ([ranges, hyphen], others) => {
          const texts = [...ranges, ...others].sort((a, b) => String(a).localeCompare(String(b)));
          expect(reportHyphen(texts)).toBe(hyphen);
        },
      ),
    );
  });

  it('is none where ranges show both hyphens, or fewer than two show one', () => {
    fc.assert(
      fc.property(fc.array(spaced, { minLength: 1, maxLength: 8 }), fc.array(unspaced, { minLength: 1, maxLength: 8 }), fc.array(other, { maxLength: 4 }), (a, b, others) => {
        expect(reportHyphen([...a, ...others, ...b])).toBeNull();
      }),
    );
    expect(reportHyphen(['6 - 24', null, 'Negative'])).toBeNull();
    expect(reportHyphen([])).toBeNull();
  });

  it('writes a range mended from the lab’s table with the hyphen given', () => {
    expect(repairedRange(reading('355.2'), '2823-3', 'labcorp', ' - ')).toEqual({ text: '3.5 - 5.2', min: 3.5, max: 5.2 });
    expect(repairedRange(reading('355.2'), '2823-3', 'labcorp')).toEqual({ text: '3.5-5.2', min: 3.5, max: 5.2 });
  });
});
