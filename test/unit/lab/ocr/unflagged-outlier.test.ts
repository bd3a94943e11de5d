import fc from 'fast-check';
import { isUnflaggedOutlier } from '../../../../functions/lab/ocr/unflagged-outlier';
import type { PanelResult } from '../../../../functions/lab/results-schema';

/** A scanned numeric result with its printed range. */
function scanned(resultValue: string, min: number | null, max: number | null, extra: Partial<PanelResult> = {}): PanelResult {
  return {
    biomarker: 'Test',
    resultValue,
    resultType: 'numeric',
    resultUnit: 'g/dL',
    loincCode: null,
    loincMatchType: null,
    ucumCode: null,
    ucumMatchMethod: null,
    minRefRangeValue: min,
    maxRefRangeValue: max,
    referenceRangeText: `${min ?? ''}-${max ?? ''}`,
    pageNumber: 1,
    provenance: { pageNumber: 1, bbox: [0, 0, 1, 1], sourceText: `Test ${resultValue}`, source: 'ocr', ocrConfidence: 0.9 },
    confidence: 0.9,
    ...extra,
  };
}

describe('isUnflaggedOutlier', () => {
  it.each([
    ['a 7 read as a 1', scanned('1.7', 6.1, 8.1)],
    ['a point lost', scanned('22', 1.2, 2.2)],
    ['a leading digit lost under a one-sided range', scanned('1', 60, null)],
    ['a point lost in a number with thousands', scanned('4,500', 0.45, 4.5)],
  ])('is a scanned value beyond twice its range, unflagged: %s', (_why, result) => expect(isUnflaggedOutlier(result)).toBe(true));

  it.each([
    ['flagged by the lab', scanned('358', 31.5, 35.7, { flag: 'H' })],
    ['read from a text layer', scanned('1.7', 6.1, 8.1, { provenance: { pageNumber: 1, bbox: [0, 0, 1, 1], sourceText: '', source: 'text' } })],
    ['just outside, where a flag may have been lost', scanned('9.0', 6.1, 8.1)],
    ['a text result', scanned('NEGATIVE', 6.1, 8.1, { resultType: 'string' })],
    ['a censored value', scanned('<0.5', 6.1, 8.1, { resultType: 'range' })],
    ['no range printed', scanned('1.7', null, null)],
    // A bound of zero gives no scale: a negative reading beside `0-40` is validation's (a value no one has).
    ['a range from zero', scanned('-5', 0, 40)],
    ['a range up to zero (a bound misread)', scanned('187', null, 0)],
  ])('is not: %s', (_why, result) => expect(isUnflaggedOutlier(result)).toBe(false));

  it('holds exactly the unflagged scanned numbers beyond twice the upper bound or under half the lower', () => {
    const bound = fc.double({ min: 0.01, max: 1000, noNaN: true });
    fc.assert(
      fc.property(bound, bound, fc.double({ min: 0, max: 5000, noNaN: true }), fc.boolean(), (a, b, value, flagged) => {
        const [min, max] = a <= b ? [a, b] : [b, a];
        const result = scanned(String(value), min, max, flagged ? { flag: value > max ? 'H' : 'L' } : {});
        expect(isUnflaggedOutlier(result)).toBe(!flagged && (value > 2 * max || value < min / 2));
      }),
    );
  });
});
