import fc from 'fast-check';
import hba1cUnits from '../../../data/models/hba1c-units.json';
import { DOMAINS } from '../../../functions/scoring/domains';
import { scoreTimeline } from '../../../functions/scoring/engine';
import type { Sex } from '../../../functions/scoring/models/types';
import { peerTable } from '../../../functions/scoring/population';
import type { DiseaseScore } from '../../../functions/scoring/schemas';
import { predictor } from './fixtures';

/** A plausible adult panel (values inside NHANES 1st–99th percentiles), in US units. */
const panelArb = fc.record({
  sex: fc.constantFrom<Sex>('male', 'female'),
  age: fc.double({ min: 46, max: 63, noNaN: true }),
  albumin: fc.double({ min: 3.6, max: 5.0, noNaN: true }),
  creatinine: fc.double({ min: 0.5, max: 1.6, noNaN: true }),
  glucose: fc.double({ min: 75, max: 140, noNaN: true }),
  // Below the ADA threshold, so that the diabetes domain (incident diabetes) is scored.
  hba1c: fc.double({ min: 4.5, max: 6.4, noNaN: true }),
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

/** The panel in US units, or in SI units (mmol/L, µmol/L, g/L, 10*9/L, IFCC mmol/mol). */
function predictors(p: Panel, si = false) {
  const mmol = (mgdl: number, weight: number) => String((mgdl * 10) / weight);
  const { slope, intercept } = hba1cUnits.ifcc_mmol_mol_to_ngsp_pct;
  return [
    predictor('76689-9', p.sex),
    predictor('1751-7', si ? String(p.albumin * 10) : String(p.albumin), si ? 'g/L' : 'g/dL'),
    predictor('2160-0', si ? String((p.creatinine * 10_000) / 113.12) : String(p.creatinine), si ? 'umol/L' : 'mg/dL'),
    predictor('2345-7', si ? mmol(p.glucose, 180.156) : String(p.glucose), si ? 'mmol/L' : 'mg/dL'),
    predictor('4548-4', si ? String((p.hba1c - intercept) / slope) : String(p.hba1c), si ? 'mmol/mol' : '%'),
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
  ];
}

function score(p: Panel, si = false, age = p.age) {
  return scoreTimeline({ events: [{ eventId: 'e', age: p.age, date: null, predictors: predictors(p, si) }], points: [{ age, date: null }] })[0]!;
}

const byCode = (scores: DiseaseScore[], code: DiseaseScore['disease_code']) => scores.find((d) => d.disease_code === code)!;
const RUNS = { numRuns: 60 };
const ONE_DAY = 1 / 365.25;

/** Inputs whose increase raises the domain's risk everywhere on these ranges (J-shaped terms only above their knot). */
const RISK_RAISING: [DiseaseScore['disease_code'], keyof Panel, number][] = [
  ['all_cause', 'creatinine', 0.2],
  ['all_cause', 'glucose', 10],
  ['all_cause', 'crp', 2],
  ['all_cause', 'rdw', 0.5],
  ['all_cause', 'wbc', 1],
  ['all_cause', 'mcv', 2],
  ['all_cause', 'alp', 10],
  ['cardiovascular', 'sbp', 8],
  ['heart_failure', 'sbp', 8],
  ['heart_failure', 'bmi', 3],
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
const LEVERS = [...RISK_RAISING, ...RISK_LOWERING];

describe('scoring properties', () => {
  it('keeps every figure finite and in range: health score and percentile 0–100, risks 0–1', () => {
    fc.assert(
      fc.property(panelArb, (p) => {
        for (const d of score(p).disease_scores) {
          expect(d.status).toBe('scored');
          expect(d.health_score!).toBeGreaterThan(0);
          expect(d.health_score!).toBeLessThan(100);
          expect(d.score_percentile!).toBeGreaterThanOrEqual(0);
          expect(d.score_percentile!).toBeLessThanOrEqual(100);
          expect(Number.isFinite(d.disease_age)).toBe(true);
          for (const r of d.risk_ratios) {
            if (r.risk !== null) expect(r.risk).toBeGreaterThanOrEqual(0);
            if (r.risk !== null) expect(r.risk).toBeLessThanOrEqual(1);
          }
        }
      }),
      RUNS,
    );
  });

  it('orders health score, percentile, risk ratio and disease age alike: for one person, domain and date, lower risk is never worse on any', () => {
    fc.assert(
      fc.property(panelArb, fc.constantFrom(...LEVERS), fc.double({ min: -0.4, max: 0.4, noNaN: true }), (p, [code, key], k) => {
        // The same person with one input up to 40 % lower or higher (staying plausible).
        const moved = { ...p, [key]: (p[key] as number) * (1 + k) };
        const a = byCode(score(p).disease_scores, code);
        const b = byCode(score(moved).disease_scores, code);
        // The domain's own risk, or its index (eGFR falls as risk rises; FIB-4 rises) when it has none.
        const riskOf = (d: DiseaseScore) => d.risk_ratios[0]!.risk ?? (code === 'kidney' ? -d.indices[0]!.value : d.indices[0]!.value);
        // Equal after rounding: the figures were rounded from values in either order, so there is nothing to compare.
        if (riskOf(a) === riskOf(b)) return;
        const [lower, higher] = riskOf(a) < riskOf(b) ? [a, b] : [b, a];
        expect(lower.health_score!).toBeGreaterThanOrEqual(higher.health_score!);
        expect(lower.score_percentile!).toBeGreaterThanOrEqual(higher.score_percentile!);
        expect(lower.disease_age!).toBeLessThanOrEqual(higher.disease_age! + 1e-9);
        if (lower.risk_ratios[0]!.ratio !== null) expect(lower.risk_ratios[0]!.ratio!).toBeLessThanOrEqual(higher.risk_ratios[0]!.ratio!);
      }),
      { numRuns: 150 },
    );
  });

  it('is continuous in age: one day later changes no percentile by more than 0.5 points (nor health score)', () => {
    fc.assert(
      fc.property(panelArb, fc.double({ min: 20, max: 84, noNaN: true }), (p, age) => {
        const today = score({ ...p, age }, false, age);
        const tomorrow = score({ ...p, age }, false, age + ONE_DAY);
        today.disease_scores.forEach((d, i) => {
          const next = tomorrow.disease_scores[i]!;
          if (d.status !== 'scored' || next.status !== 'scored') return;
          expect(Math.abs(d.score_percentile! - next.score_percentile!)).toBeLessThanOrEqual(0.5);
          expect(Math.abs(d.health_score! - next.health_score!)).toBeLessThanOrEqual(0.5);
        });
      }),
      { numRuns: 120 },
    );
  });

  it('is invariant to the unit chosen: mg/dL vs mmol/L, % vs mmol/mol (IFCC), g/dL vs g/L, K/uL vs 10*3/uL, IU/L vs U/L', () => {
    fc.assert(
      fc.property(panelArb, (p) => {
        expect(score(p, true)).toEqual(score(p, false));
      }),
      { numRuns: 30 },
    );
  });

  it('makes the attributions plus the stated residual equal the reported difference from peers, in years and in risk', () => {
    fc.assert(
      fc.property(panelArb, (p) => {
        for (const d of score(p).disease_scores) {
          const years = d.predictor_attributions.reduce((s, a) => s + a.disease_age_years, 0) + d.attribution_residual!.disease_age_years;
          expect(years).toBeCloseTo(d.difference_from_peers!.disease_age_years, 1);
          expect(d.difference_from_peers!.disease_age_years).toBeCloseTo(d.disease_age! - d.chronological_age, 1);
          const primary = d.risk_ratios[0]!;
          if (primary.peer_risk === null) {
            expect(d.difference_from_peers!.risk).toBeNull();
            continue;
          }
          const risks = d.predictor_attributions.reduce((s, a) => s + a.risk!, 0) + d.attribution_residual!.risk!;
          expect(risks).toBeCloseTo(primary.risk! - primary.peer_risk, 4);
          const ordered = d.predictor_attributions.map((a) => Math.abs(a.disease_age_years));
          expect(ordered).toEqual([...ordered].sort((x, y) => y - x));
        }
      }),
      RUNS,
    );
  });

  it('returns the chronological age for the median peer and inverts the peer curve inside the peer data', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DOMAINS), fc.constantFrom<Sex>('male', 'female'), fc.double({ min: 0, max: 1, noNaN: true }), (domain, sex, u) => {
        const table = peerTable(domain.code, sex);
        const age = table.ages[0]! + u * (table.ages.at(-1)! - table.ages[0]!);
        const median = table.at(age).median;
        const { age: back, position } = table.ageOf(median);
        expect(position).toBe('interpolated');
        if (new Set(table.medians).size === table.medians.length) expect(back).toBeCloseTo(age, 6);
        expect(table.at(back).median).toBeCloseTo(median, 9);
      }),
      { numRuns: 200 },
    );
  });

  it.each(LEVERS.map(([code, key, step]) => [code, key, step, RISK_RAISING.some(([c, k]) => c === code && k === key) ? 1 : -1] as const))(
    '%s is monotone in %s',
    (code, key, step, direction) => {
      fc.assert(
        fc.property(panelArb, (p) => {
          const value = (panel: Panel) => {
            const d = byCode(score(panel).disease_scores, code);
            return code === 'kidney' ? -d.indices[0]!.value : code === 'liver' ? d.indices[0]!.value : d.risk_ratios[0]!.risk!;
          };
          // PREVENT's SBP terms are J-shaped below 110 mmHg and BMI below 30 (published spline knots): test above them.
          // ARIC reads fasting glucose: 2345-7 stands in for it (data/models/README.md).
          const base = key === 'sbp' ? { ...p, sbp: Math.max(p.sbp, 110) } : key === 'bmi' ? { ...p, bmi: Math.max(p.bmi, 30) } : p;
          const raised = { ...base, [key]: (base[key] as number) + step };
          expect(Math.sign(value(raised) - value(base))).toBe(direction);
        }),
        { numRuns: 25 },
      );
    },
  );
});
