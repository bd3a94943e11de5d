import fc from 'fast-check';
import { lostItsPoint } from '../../../../functions/lab/ocr/lost-point';
import { type ParsedRange, parseRange } from '../../../../functions/lab/parsers/values';

const numeric = (text: string) => ({ resultValue: text, resultType: 'numeric' as const, numeric: Number(text) });
const range = (text: string): ParsedRange => parseRange(text)!;

describe('lostItsPoint', () => {
  it.each([
    ['12', '1.2-2.2'],
    ['48', '3.5-5.2'],
    ['101', '0.76-1.27'],
    ['55', '<7.0'],
  ])('takes %s beside %s, without a flag, for a value whose point was lost', (value, printed) => expect(lostItsPoint(numeric(value), null, range(printed))).toBe(true));

  it.each([
    // Inside the range: a value as printed.
    ['48', '35-52', null],
    ['2', '1.2-2.2', null],
    // A whole-number range: reports print values outside it without a flag.
    ['59', '0-44', null],
    // Flagged: the print says it is outside.
    ['12', '1.2-2.2', 'H'],
    // No point brings it inside.
    ['95', '1.2-2.2', null],
    // `7.0` is not below `<7.0`: the bound is exclusive.
    ['70', '<7.0', null],
    // Already a decimal.
    ['1.2', '1.2-2.2', null],
  ] as const)('leaves %s beside %s (flag %s)', (value, printed, flag) => expect(lostItsPoint(numeric(value), flag, range(printed))).toBe(false));

  it('takes a pointed value read without its point, outside its pointed range, and nothing flagged, whole or inside', () => {
    const pointed = fc
      .record({ whole: fc.integer({ min: 0, max: 99 }), tenths: fc.integer({ min: 0, max: 9 }), width: fc.integer({ min: 1, max: 30 }), below: fc.integer({ min: 0, max: 30 }) })
      .map(({ whole, tenths, width, below }) => {
        const printed = whole + tenths / 10;
        const low = Math.max(0, printed - below / 10);
        return { printed: `${whole}.${tenths}`, range: `${low.toFixed(1)}-${(printed + width / 10).toFixed(1)}` };
      });
    fc.assert(
      fc.property(pointed, fc.constantFrom(null, 'H' as const, 'L' as const), ({ printed, range: text }, flag) => {
        const read = printed.replace('.', '');
        const r = range(text);
        const outside = (r.min !== null && Number(read) < r.min) || (r.max !== null && Number(read) > r.max);
        expect(lostItsPoint(numeric(read), flag, r)).toBe(flag === null && read.length >= 2 && outside);
        expect(lostItsPoint(numeric(printed), flag, r)).toBe(false);
      }),
    );
  });
});
