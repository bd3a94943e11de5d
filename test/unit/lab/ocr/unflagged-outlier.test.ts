import fc from 'fast-check';
import { isUnflaggedOutlier, usualRange } from '../../../../functions/lab/ocr/unflagged-outlier';
import type { PanelResult } from '../../../../functions/lab/results-schema';
import type { StoredLabRange } from '../../../../functions/reference/build/lab-ranges';

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

/** A row of the lab-ranges table: test 1751-7 in g/dL, for `sex`, with bounds `min` and `max`. */
function printed(sex: 'MALE' | 'FEMALE' | 'ALL', min: number | null, max: number | null, extra: Partial<StoredLabRange> = {}): StoredLabRange {
  return {
    lab_range_id: 1,
    concept_id: 1,
    concept_code: '1751-7',
    concept_name: 'Albumin',
    vendor_name: 'Labcorp',
    gender_name: sex,
    min_value_display: min === null ? null : String(min),
    min_value: min,
    min_value_operator: min === null ? null : '>=',
    max_value_display: max === null ? null : String(max),
    max_value: max,
    max_value_operator: max === null ? null : '<=',
    bmi_min: null,
    bmi_max: null,
    menstrual_cycle: null,
    vendor_test_name: 'Albumin',
    unit: 'g/dL',
    ucum_unit: 'g/dL',
    source: 'test',
    ...extra,
  } as StoredLabRange;
}

describe('usualRange', () => {
  it('is the widest of the ranges printed in the unit, where they cover both sexes', () => {
    const bound = fc.double({ min: 0.01, max: 1000, noNaN: true });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('MALE', 'FEMALE', 'ALL'), bound, bound), { minLength: 1, maxLength: 5 }), (strata) => {
        const rows = strata.map(([sex, a, b]) => printed(sex as 'MALE', Math.min(a, b), Math.max(a, b)));
        const sexes = new Set(strata.map(([sex]) => sex));
        const both = sexes.has('ALL') || (sexes.has('MALE') && sexes.has('FEMALE'));
        expect(usualRange(rows, 'g/dL')).toEqual(
          both ? { min: Math.min(...strata.map(([, a, b]) => Math.min(a, b))), max: Math.max(...strata.map(([, a, b]) => Math.max(a, b))) } : null,
        );
      }),
    );
  });

  it('has no bound a stratum leaves open', () => {
    expect(usualRange([printed('MALE', 3.5, 5.5), printed('FEMALE', null, 5.2)], 'g/dL')).toEqual({ min: null, max: 5.5 });
  });

  it.each([
    ['men’s ranges only (testosterone, ferritin)', [printed('MALE', 3.5, 5.5)], 'g/dL'],
    ['ranges in another unit', [printed('ALL', 3.5, 5.5)], 'g/L'],
    ['ranges that depend on more than sex (estradiol by phase)', [printed('ALL', 3.5, 5.5, { menstrual_cycle: 'luteal_phase' })], 'g/dL'],
  ])('is none for %s', (_why, rows, unit) => expect(usualRange(rows, unit)).toBeNull());
});

describe('isUnflaggedOutlier against the ranges labs print, on a row that prints none', () => {
  const usual = { min: 3.5, max: 5.5 };
  it('holds an unflagged scanned value beyond twice them', () => expect(isUnflaggedOutlier(scanned('42', null, null), usual)).toBe(true));
  it('holds no value the row’s own range takes in', () => expect(isUnflaggedOutlier(scanned('42', 30, 50), usual)).toBe(false));
  it('holds no flagged value', () => expect(isUnflaggedOutlier(scanned('42', null, null, { flag: 'H' }), usual)).toBe(false));
});

