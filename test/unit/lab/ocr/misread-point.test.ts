import fc from 'fast-check';
import { misreadPoint, restoredPoint } from '../../../../functions/lab/ocr/misread-point';
import { type ParsedRange, parseRange } from '../../../../functions/lab/parsers/values';
import type { ResultFlag } from '../../../../functions/lab/results-schema';

const numeric = (text: string) => ({ resultValue: text, resultType: 'numeric' as const, numeric: Number(text) });
const range = (text: string): ParsedRange => parseRange(text)!;

/** The flag a lab prints beside `value` and a two-sided range. */
const flagOf = (value: number, r: ParsedRange): ResultFlag | null => (value < r.min! ? 'L' : value > r.max! ? 'H' : null);
const flagged = (value: number, r: ParsedRange) => fc.constant(flagOf(value, r));

describe('misreadPoint', () => {
  it.each([
    ['12', '1.2-2.2', null, 'a point lost, unflagged'],
    ['48', '3.5-5.2', null, 'a point lost, unflagged'],
    ['101', '0.76-1.27', null, 'a point lost, unflagged'],
    ['55', '<7.0', null, 'a point lost, unflagged'],
    ['85', '8.7-10.2', 'L', 'a point lost: flagged low, read above'],
    ['15', '3.5-5.2', 'LL', 'a point lost: flagged critically low, read above'],
    ['11.9', '44-121', null, 'a speck’s point: unflagged, read far below a whole-number range'],
    ['4.5', '30-100', null, 'a speck’s point'],
    ['1.50', '30-100', 'H', 'a speck’s point: flagged high, read below'],
    ['54', '3.5-5.2', 'H', 'a point lost: flagged high and read above, but ten times beyond the range'],
    ['4', '3.8-4.9', null, 'decimals lost: a whole number beside a range printed with points'],
    ['2', '1.2-2.2', null, 'decimals lost, inside the range as read'],
    ['12', '1.2-2.2', 'H', 'decimals lost, agreeing with its flag as read'],
    ['45', '4.0-5.0', 'H', 'decimals lost, agreeing with its flag as read'],
    ['95', '1.2-2.2', null, 'decimals lost, no point bringing it into agreement'],
    ['12', '1.2-2.2', 'A', 'decimals lost, whatever the flag'],
    ['7', '6.0 - 8.5', null, 'decimals lost, the range printed with spaces'],
  ] as const)('takes %s beside %s (flag %s) for a misread point: %s', (value, printed, flag, _why) => expect(misreadPoint(numeric(value), flag, range(printed))).toBe(true));

  it.each([
    // Inside the range: a value as printed.
    ['48', '35-52', null],
    ['5', '<7.0', null],
    // A whole-number range: reports print values outside it without a flag.
    ['59', '0-44', null],
    // A range with a bound printed without a point says nothing of the value's precision.
    ['7', '0.5-10', null],
    // Flagged, and the reading agrees with the flag: within ten times the range, or beyond it where no point brings it within.
    ['99', '<0.5', 'H'],
    ['45', '<5.0', 'H'],
    ['2.5', '30-100', 'L'],
    // A flag that says nothing of where the value lies.
    ['12', '<7.0', 'A'],
    // Flagged low beside a range with no lower bound: nothing to compare.
    ['85', '<7.0', 'L'],
    // No point brings it into agreement.
    ['95', '<1.2', null],
    ['1.5', '44-121', null],
    // `7.0` is not below `<7.0`: the bound is exclusive.
    ['70', '<7.0', null],
    // Already a decimal beside a pointed range.
    ['1.2', '1.2-2.2', null],
    ['0.5', '1.2-2.2', null],
  ] as const)('leaves %s beside %s (flag %s)', (value, printed, flag) => expect(misreadPoint(numeric(value), flag, range(printed))).toBe(false));

  it('takes a pointed value read without its point beside a range printed with points on both sides, and beside one on one side exactly where that contradicts the flag the lab prints', () => {
    const pointed = fc.record({
      whole: fc.integer({ min: 0, max: 99 }),
      tenths: fc.integer({ min: 0, max: 9 }),
      low: fc.integer({ min: 0, max: 999 }),
      width: fc.integer({ min: 1, max: 300 }),
      twoSided: fc.boolean(),
    });
    fc.assert(
      fc.property(
        pointed.chain(({ whole, tenths, low, width, twoSided }) => {
          const top = ((low + width) / 10).toFixed(1);
          const r = range(twoSided ? `${(low / 10).toFixed(1)}-${top}` : `<${top}`);
          // The lab's flag: low below the range (none beside an upper bound alone), high at or over its top.
          const value = whole + tenths / 10;
          const flag: ResultFlag | null = twoSided ? flagOf(value, r) : value >= r.max! ? 'H' : null;
          return fc.tuple(fc.constant(`${whole}.${tenths}`), fc.constant(r), fc.constant(flag), fc.constant(twoSided));
        }),
        ([printed, r, flag, twoSided]) => {
          const read = printed.replace('.', '');
          if (twoSided) {
            // Decimals lost: the range's precision says so, whatever the flag.
            expect(misreadPoint(numeric(read), flag, r)).toBe(true);
            expect(misreadPoint(numeric(printed), flag, r)).toBe(false);
            return;
          }
          const x = Number(read);
          const agrees = flag === 'H' ? x >= r.max! : x < r.max!;
          // Flagged high as read, but over ten times the range's top, where a point put back (above the top) brings it under that.
          const placements = Array.from({ length: read.length - 1 }, (_, i) => Number(`${read.slice(0, i + 1)}.${read.slice(i + 1)}`));
          const beyondScale = flag === 'H' && x > 10 * r.max! && placements.some((p) => p > r.max! && p <= 10 * r.max!);
          expect(misreadPoint(numeric(read), flag, r)).toBe(read.length >= 2 && (!agrees || beyondScale));
          expect(misreadPoint(numeric(printed), flag, r)).toBe(false);
        },
      ),
    );
  });

  it('takes a whole value read with a speck’s point exactly where that contradicts the flag the lab prints for the value', () => {
    const whole = fc.record({ value: fc.integer({ min: 10, max: 999 }), low: fc.integer({ min: 0, max: 500 }), width: fc.integer({ min: 1, max: 500 }), at: fc.nat() });
    fc.assert(
      fc.property(
        whole.chain(({ value, low, width, at }) => {
          const r = range(`${low}-${low + width}`);
          return fc.tuple(fc.constant(value), fc.constant(at), fc.constant(r), flagged(value, r));
        }),
        ([value, at, r, flag]) => {
          const digits = String(value);
          const cut = 1 + (at % (digits.length - 1));
          const read = `${digits.slice(0, cut)}.${digits.slice(cut)}`;
          const x = Number(read);
          const agrees = flag === 'L' ? x < r.min! : flag === 'H' ? x > r.max! : x >= r.min! && x <= r.max!;
          expect(misreadPoint(numeric(read), flag, r)).toBe(!agrees);
          expect(misreadPoint(numeric(digits), flag, r)).toBe(false);
        },
      ),
    );
  });
});

describe('restoredPoint', () => {
  it.each([
    ['22', '1.2-2.2', null, '2.2'],
    ['12', '1.2-2.2', null, '1.2'],
    ['38', '3.4-10.8', null, '3.8'],
    ['345', '31.5-35.7', null, '34.5'],
    ['098', '0.57-1.27', null, '0.98'],
    ['95', '9.8-13.5', 'L', '9.5'],
    ['85', '8.7-10.2', 'L', '8.5'],
    ['54', '<5.7', null, '5.4'],
    ['1298', '0.450-4.500', null, '1.298'],
    ['54', '3.5-5.2', 'H', '5.4'],
  ] as const)('puts the point back in %s beside %s (flag %s): %s', (value, printed, flag, restored) => expect(restoredPoint(numeric(value), flag, range(printed))).toBe(restored));

  it.each([
    // Inside its range: no point lost.
    ['48', '35-52', null, 'agrees as read'],
    // Two places of the point agree (1.23 and 12.3): nothing says which.
    ['123', '1.0-20.0', null, 'two places agree'],
    ['123', '20.0-50.0', 'L', 'two places agree'],
    ['131', '0.57-1.27', 'H', 'two places agree'],
    // One place agrees, but with two digits after the point beside a range printed with one, or one beside two: a digit lost too.
    ['13', '0.50-1.50', null, 'precision unlike the range'],
    ['1215', '11.5-15.5', null, 'precision unlike the range'],
    // A speck's point: the range read in whole numbers may have lost its own points.
    ['11.9', '44-121', null, 'a point taken out'],
    // No point brings it into agreement.
    ['95', '1.2-2.2', null, 'none agrees'],
    // A flag that says nothing of where the value lies.
    ['12', '1.2-2.2', 'A', 'the flag says nothing'],
  ] as const)('leaves %s beside %s (flag %s): %s', (value, printed, flag, _why) => expect(restoredPoint(numeric(value), flag, range(printed))).toBeNull());

  it('puts back the printed value or nothing, and only where the point is taken for misread', () => {
    const printedPair = fc.record({
      whole: fc.integer({ min: 0, max: 99 }),
      decimals: fc.integer({ min: 1, max: 3 }),
      fraction: fc.nat(),
      low: fc.integer({ min: 0, max: 99_999 }),
      width: fc.integer({ min: 1, max: 99_999 }),
    });
    fc.assert(
      fc.property(
        printedPair.chain(({ whole, decimals, fraction, low, width }) => {
          const scale = 10 ** decimals;
          const printed = `${whole}.${String(fraction % scale).padStart(decimals, '0')}`;
          const r = range(`${(low / scale).toFixed(decimals)}-${((low + width) / scale).toFixed(decimals)}`);
          return fc.tuple(fc.constant(printed), fc.constant(r), flagged(Number(printed), r));
        }),
        ([printed, r, flag]) => {
          const read = printed.replace('.', '');
          const restored = restoredPoint(numeric(read), flag, r);
          expect([null, printed]).toContain(restored);
          if (restored !== null) expect(misreadPoint(numeric(read), flag, r)).toBe(true);
          expect(restoredPoint(numeric(printed), flag, r)).toBeNull();
        },
      ),
    );
  });
});
