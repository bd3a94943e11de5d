import fc from 'fast-check';
import { DOMAINS } from '../../../functions/scoring/domains';
import { scoreTimeline } from '../../../functions/scoring/engine';
import type { Sex } from '../../../functions/scoring/models/types';
import { peerCurve } from '../../../functions/scoring/population';
import type { DiseaseScore } from '../../../functions/scoring/schemas';
import { predictor } from './fixtures';

/** A plausible adult panel (values inside NHANES 1st–99th percentiles), in US units. */
const panelArb = fc.record({
  sex: fc.constantFrom<Sex>('male', 'female'),
  age: fc.double({ min: 46, max: 63, noNaN: true }),
  albumin: fc.double({ min: 3.6, max: 5.0, noNaN: true }),
  creatinine: fc.double({ min: 0.5, max: 1.6, noNaN: true }),
  glucose: fc.double({ min: 75, max: 140, noNaN: true }),
  crp: fc.double({ min: 0.2, max: 15, noNaN: true }),
  lymphocyte: fc.double({ min: 15, max: 45, noNaN: true }),
  mcv: fc.double({ min: 80, max: 100, noNaN: true }),
  rdw: fc.double({ min: 11.5, max: 16, noNaN: true }),
  alp: fc.double({ min: 40, max: 130, noNaN: true }),
  wbc: fc.double({ min: 4, max: 11, noNaN: true }),
  tc: fc.double({ min: 140, max: 280, noNaN: true }),
  hdl: fc.double({ min: 30, max: 90, noNaN: true }),
  tg: fc.double({ min: 50, max: 350, noNaN: true }),
  sbp: fc.double({ min: 100, max: 170, noNaN: true }),
  bmi: fc.double({ min: 19, max: 40, noNaN: true }),
  height: fc.double({ min: 150, max: 195, noNaN: true }),
  waist: fc.double({ min: 70, max: 130, noNaN: true }),
  ast: fc.double({ min: 12, max: 60, noNaN: true }),
  alt: fc.double({ min: 8, max: 70, noNaN: true }),
  platelets: fc.double({ min: 150, max: 400, noNaN: true }),
  smoking: fc.boolean(),
  bpTreatment: fc.boolean(),
});
type Panel = typeof panelArb extends fc.Arbitrary<infer T> ? T : never;

function predictors(p: Panel, si = false) {
  const mmol = (mgdl: number, weight: number) => String((mgdl * 10) / weight);
  return [
    predictor('76689-9', p.sex),
    predictor('1751-7', si ? String(p.albumin * 10) : String(p.albumin), si ? 'g/L' : 'g/dL'),
    predictor('2160-0', si ? String((p.creatinine * 10_000) / 113.12) : String(p.creatinine), si ? 'umol/L' : 'mg/dL'),
    predictor('2345-7', si ? mmol(p.glucose, 180.156) : String(p.glucose), si ? 'mmol/L' : 'mg/dL'),
    predictor('30522-7', String(p.crp), 'mg/L'),
    predictor('736-9', String(p.lymphocyte), '%'),
    predictor('787-2', String(p.mcv), 'fL'),
    predictor('788-0', String(p.rdw), '%'),
    predictor('6768-6', String(p.alp), 'U/L'),
    predictor('6690-2', String(p.wbc), si ? '10*9/L' : 'x10E3/uL'),
    predictor('2093-3', si ? mmol(p.tc, 386.65) : String(p.tc), si ? 'mmol/L' : 'mg/dL'),
    predictor('2085-9', si ? mmol(p.hdl, 386.65) : String(p.hdl), si ? 'mmol/L' : 'mg/dL'),
    predictor('2571-8', si ? mmol(p.tg, 885.7) : String(p.tg), si ? 'mmol/L' : 'mg/dL'),
    predictor('8480-6', String(p.sbp), 'mmHg'),
    predictor('39156-5', String(p.bmi), 'kg/m2'),
    predictor('8302-2', String(p.height), 'cm'),
    predictor('8280-0', String(p.waist), 'cm'),
    predictor('1920-8', String(p.ast), 'U/L'),
    predictor('1742-6', String(p.alt), si ? 'IU/L' : 'U/L'),
    predictor('777-3', String(p.platelets), si ? 'K/uL' : '10*3/uL'),
    predictor('72166-2', p.smoking ? 'yes' : 'no'),
    predictor('308116003', p.bpTreatment ? '1' : '0'),
    predictor('73211009', 'no'),
  ];
}

function score(p: Panel, si = false) {
  return scoreTimeline({ events: [{ eventId: 'e', age: p.age, date: null, predictors: predictors(p, si) }], points: [{ age: p.age, date: null }] })[0]!;
}

const RUNS = { numRuns: 60 };

describe('scoring properties', () => {
  it('keeps health scores and percentiles within 0–100 and ratio and disease age on the same side of the peer', () => {
    fc.assert(
      fc.property(panelArb, (p) => {
        for (const d of score(p).disease_scores) {
          expect(d.status).toBe('scored');
          expect(d.health_score!).toBeGreaterThanOrEqual(0);
          expect(d.health_score!).toBeLessThanOrEqual(100);
          expect(d.score_percentile!).toBeGreaterThanOrEqual(0);
          expect(d.score_percentile!).toBeLessThanOrEqual(100);
          expect(Number.isFinite(d.disease_age)).toBe(true);
          expect(d.completeness.fraction_observed).toBeGreaterThanOrEqual(0);
          expect(d.completeness.fraction_observed).toBeLessThanOrEqual(1);
          const { ratio } = d.risk_ratios;
          const unclamped = !d.notes.some((n) => n.startsWith('disease age'));
          if (ratio !== null && unclamped && d.disease_code !== 'all_cause' && Math.abs(ratio - 1) > 1e-3) {
            expect(Math.sign(d.disease_age! - d.chronological_age)).toBe(Math.sign(ratio - 1));
          }
        }
      }),
      RUNS,
    );
  });

  it('gives identical results for unit-equivalent inputs (mg/dL vs mmol/L, g/dL vs g/L, K/uL vs 10*3/uL, IU/L vs U/L)', () => {
    fc.assert(
      fc.property(panelArb, (p) => {
        expect(score(p, true)).toEqual(score(p, false));
      }),
      { numRuns: 30 },
    );
  });

  it('returns the chronological age and a ratio of 1 for a person at the peer average (round trip through the peer curve)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DOMAINS), fc.constantFrom<Sex>('male', 'female'), fc.double({ min: 0, max: 1, noNaN: true }), (domain, sex, u) => {
        const curve = peerCurve(domain.code, sex, domain.higherIsWorse);
        const age = curve.ages[0]! + u * (curve.ages[curve.ages.length - 1]! - curve.ages[0]!);
        const peer = curve.valueAt(age);
        if (new Set(curve.bands.map((b) => b.curve_value)).size === curve.bands.length) {
          expect(curve.ageAt(peer)).toBeCloseTo(age, 6);
        }
        expect(curve.valueAt(curve.ageAt(peer))).toBeCloseTo(peer, 9);
      }),
      { numRuns: 200 },
    );
  });

  it('makes the one-at-a-time attributions add up to the total effect, up to the reported residual', () => {
    fc.assert(
      fc.property(panelArb, (p) => {
        const allCause = score(p).disease_scores.find((d) => d.disease_code === 'all_cause')!;
        // The peer profile has no binary inputs for PhenoAge, so it can be scored as a person.
        const peer = { ...p };
        const peerOf = (key: string) => allCause.predictor_attributions.find((a) => a.predictor === key)!.peer_value!;
        Object.assign(peer, {
          albumin: peerOf('albumin'),
          creatinine: peerOf('creatinine'),
          glucose: peerOf('glucose'),
          crp: peerOf('crp'),
          lymphocyte: peerOf('lymphocyte_pct'),
          mcv: peerOf('mcv'),
          rdw: peerOf('rdw'),
          alp: peerOf('alp'),
          wbc: peerOf('wbc'),
        });
        const peerScore = score(peer).disease_scores.find((d) => d.disease_code === 'all_cause')!;
        const total = allCause.indices[0]!.value - peerScore.indices[0]!.value;
        const sum = allCause.predictor_attributions.reduce((s, a) => s + a.disease_age_years!, 0);
        expect(sum + allCause.attribution_residual!.disease_age_years).toBeCloseTo(total, 1);
        // PhenoAge is additive in xb and near-linear in years over this range: the residual stays small.
        expect(Math.abs(allCause.attribution_residual!.disease_age_years)).toBeLessThanOrEqual(0.1 * Math.abs(total) + 0.6);
        const ordered = allCause.predictor_attributions.map((a) => Math.abs(a.disease_age_years!));
        expect(ordered).toEqual([...ordered].sort((a, b) => b - a));
      }),
      RUNS,
    );
  });

  /** Inputs whose increase raises the model's value everywhere on these ranges (J-shaped terms only above their knot). */
  const RISK_RAISING: [DiseaseScore['disease_code'], keyof Panel, number][] = [
    ['all_cause', 'creatinine', 0.2],
    ['all_cause', 'glucose', 10],
    ['all_cause', 'crp', 2],
    ['all_cause', 'rdw', 0.5],
    ['all_cause', 'wbc', 1],
    ['all_cause', 'mcv', 2],
    ['all_cause', 'alp', 10],
    ['cardiovascular', 'sbp', 8],
    ['cardiovascular', 'tc', 20],
    ['heart_failure', 'sbp', 8],
    ['kidney', 'creatinine', 0.2],
    ['type2_diabetes', 'glucose', 8],
    ['type2_diabetes', 'waist', 5],
    ['type2_diabetes', 'tg', 30],
    ['type2_diabetes', 'sbp', 8],
    ['liver', 'ast', 5],
  ];
  const RISK_LOWERING: [DiseaseScore['disease_code'], keyof Panel, number][] = [
    ['all_cause', 'albumin', 0.2],
    ['all_cause', 'lymphocyte', 3],
    ['cardiovascular', 'hdl', 8],
    ['type2_diabetes', 'hdl', 8],
    ['liver', 'platelets', 30],
  ];

  it.each([...RISK_RAISING.map((r) => [...r, 1] as const), ...RISK_LOWERING.map((r) => [...r, -1] as const)])(
    '%s is monotone in %s',
    (code, key, step, direction) => {
      fc.assert(
        fc.property(panelArb, (p) => {
          const value = (panel: Panel) => {
            const d = score(panel).disease_scores.find((x) => x.disease_code === code)!;
            return code === 'kidney' ? -d.indices[0]!.value : code === 'liver' ? d.indices[0]!.value : d.risk_ratios.risk!;
          };
          // PREVENT's SBP terms are J-shaped below 110 mmHg (published spline knot): test above it.
          // ARIC reads fasting glucose: 2345-7 stands in for it (data/models/README.md).
          const base = key === 'sbp' ? { ...p, sbp: Math.max(p.sbp, 110) } : p;
          const raised = { ...base, [key]: (base[key] as number) + step };
          expect(Math.sign(value(raised) - value(base))).toBe(direction);
        }),
        { numRuns: 25 },
      );
    },
  );
});
