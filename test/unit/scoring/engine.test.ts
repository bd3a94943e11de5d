import { analyseTimeline, scoreTimeline, scoreTimeseries } from '../../../functions/scoring/engine';
import type { DiseaseScore } from '../../../functions/scoring/schemas';
import { SCORING_VERSION } from '../../../functions/scoring/version';
import { fullPanel, predictor, timeseriesRequest } from './fixtures';

function domain(scores: DiseaseScore[], code: DiseaseScore['disease_code']): DiseaseScore {
  return scores.find((d) => d.disease_code === code)!;
}

describe('scoring engine', () => {
  it('scores all six domains from a full panel, with versions, models and sourced outputs', () => {
    const response = scoreTimeseries(timeseriesRequest());
    expect(response.scoring_version).toBe(SCORING_VERSION);
    const [result] = response.scoring_results;
    expect(result!.scoring_event_date).toBe('2025-03-01');
    expect(result!.scoring_event_age).toBeCloseTo(55.12, 2);
    expect(result!.disease_scores.map((d) => [d.disease_code, d.status])).toEqual([
      ['all_cause', 'scored'],
      ['cardiovascular', 'scored'],
      ['heart_failure', 'scored'],
      ['type2_diabetes', 'scored'],
      ['kidney', 'scored'],
      ['liver', 'scored'],
    ]);
    const allCause = domain(result!.disease_scores, 'all_cause');
    expect(allCause.disease_age).toBeCloseTo(allCause.indices[0]!.value, 1);
    expect(allCause.model.doi).toBe('10.18632/aging.101414');
    expect(domain(result!.disease_scores, 'type2_diabetes').risk_ratios.horizon_years).toBe(9);
    expect(domain(result!.disease_scores, 'liver').risk_ratios).toEqual(expect.objectContaining({ risk: null, ratio: null, reason: expect.stringMatching(/not probabilities/) }));
    expect(domain(result!.disease_scores, 'liver').indices.map((i) => i.name)).toEqual(['FIB-4', 'NAFLD fibrosis score']);
  });

  it('labels inputs measured, carried forward (with age in days), derived, population median and default', () => {
    const [result] = scoreTimeline({
      events: [
        { eventId: 'old', age: 54, date: '2024-03-01', predictors: [predictor('76689-9', 'male'), predictor('8480-6', '130', 'mmHg'), predictor('8302-2', '180', 'cm')] },
        {
          eventId: 'new',
          age: 54.5,
          date: '2024-09-01',
          predictors: [predictor('2160-0', '0.9', 'mg/dL'), predictor('29463-7', '81', 'kg'), predictor('731-0', '2.0', '10*3/uL'), predictor('6690-2', '8.0', '10*3/uL'), predictor('4548-4', '6.8', '%')],
        },
      ],
      points: [{ age: 54.5, date: '2024-09-01' }],
    });
    const by = Object.fromEntries(result!.scoring_predictors.map((p) => [p.predictor, p]));
    expect(by.sbp).toEqual(expect.objectContaining({ imputation_code: 'carried_forward', age_days: 184, source_date: '2024-03-01', value: 130 }));
    expect(by.creatinine).toEqual(expect.objectContaining({ imputation_code: 'measured', age_days: 0 }));
    expect(by.egfr).toEqual(expect.objectContaining({ imputation_code: 'derived', observation_code: '98979-8' }));
    expect(by.bmi).toEqual(expect.objectContaining({ imputation_code: 'derived', value: 25, age_days: 184 }));
    expect(by.lymphocyte_pct).toEqual(expect.objectContaining({ imputation_code: 'derived', value: 25 }));
    expect(by.diabetes).toEqual(expect.objectContaining({ imputation_code: 'derived', value: 1 }));
    expect(by.albumin).toEqual(expect.objectContaining({ imputation_code: 'population_median', source_date: null }));
    expect(by.smoking).toEqual(expect.objectContaining({ imputation_code: 'default', value: 0 }));
    // Diabetes is present, so ARIC (incident diabetes) does not apply.
    expect(domain(result!.disease_scores, 'type2_diabetes')).toEqual(expect.objectContaining({ status: 'not_scored', notes: [expect.stringMatching(/already present/)] }));
  });

  it('never uses later events and stops carrying values forward after 365 days', () => {
    const events = [
      { eventId: 'a', age: 50, date: '2020-01-01', predictors: [predictor('76689-9', 'female'), predictor('2093-3', '180', 'mg/dL')] },
      { eventId: 'b', age: 52, date: '2022-01-01', predictors: [predictor('2093-3', '240', 'mg/dL')] },
    ];
    const results = scoreTimeline({ events, points: [{ age: 50.5, date: '2020-07-01' }, { age: 51.5, date: '2021-07-01' }, { age: 52, date: '2022-01-01' }] });
    const tc = results.map((r) => r.scoring_predictors.find((p) => p.predictor === 'total_cholesterol')!);
    expect(tc.map((p) => [p.imputation_code, p.value])).toEqual([
      ['carried_forward', 180],
      ['population_median', tc[1]!.value],
      ['measured', 240],
    ]);
    expect(tc[1]!.value).not.toBe(180);
  });

  it('scores age-only timelines (no dates), as the PDF report does', () => {
    const results = scoreTimeline({
      sex: 'male',
      events: [{ eventId: 'e1', age: 60, date: null, predictors: fullPanel() }],
      points: [{ age: 60, date: null }, { age: 60.5, date: null }],
    });
    expect(results.map((r) => r.scoring_event_date)).toEqual([null, null]);
    expect(results[1]!.scoring_predictors.find((p) => p.predictor === 'hdl')).toEqual(expect.objectContaining({ imputation_code: 'carried_forward', age_days: 183, source_date: null }));
  });

  it('does not score a domain outside its published ages or without its required inputs', () => {
    const young = scoreTimeline({ events: [{ eventId: 'e', age: 25, date: null, predictors: fullPanel() }], points: [{ age: 25, date: null }] })[0]!;
    expect(domain(young.disease_scores, 'cardiovascular')).toEqual(expect.objectContaining({ status: 'not_scored', health_score: null, notes: [expect.stringMatching(/outside the ages .* \(30–79\)/)] }));
    expect(domain(young.disease_scores, 'all_cause').status).toBe('scored');
    const noLiver = fullPanel().filter((p) => p.observation_code !== '1920-8');
    const result = scoreTimeline({ events: [{ eventId: 'e', age: 50, date: null, predictors: noLiver }], points: [{ age: 50, date: null }] })[0]!;
    expect(domain(result.disease_scores, 'liver')).toEqual(expect.objectContaining({ status: 'not_scored', notes: [expect.stringMatching(/Aspartate aminotransferase/)] }));
  });

  it('adds the KFRE 5-year risk only when eGFR < 60 and a UACR is measured', () => {
    const ckd = fullPanel({ '2160-0': ['1.9', 'mg/dL'] });
    const withUacr = scoreTimeline({ events: [{ eventId: 'e', age: 65, date: null, predictors: [...ckd, predictor('9318-7', '300', 'mg/g')] }], points: [{ age: 65, date: null }] })[0]!;
    const kidney = domain(withUacr.disease_scores, 'kidney');
    expect(kidney.indices[0]!.category).toBe('G3b');
    expect(kidney.risk_ratios).toEqual(expect.objectContaining({ horizon_years: 5, peer_risk: null, ratio: null }));
    expect(kidney.risk_ratios.risk).toBeGreaterThan(0);
    expect(kidney.indices.map((i) => i.name)).toContain('KFRE 5-year kidney failure risk');
    const withoutUacr = scoreTimeline({ events: [{ eventId: 'e', age: 65, date: null, predictors: ckd }], points: [{ age: 65, date: null }] })[0]!;
    expect(domain(withoutUacr.disease_scores, 'kidney').risk_ratios.risk).toBeNull();
    expect(withoutUacr.scoring_predictors.map((p) => p.predictor)).not.toContain('uacr');
  });

  it('clamps disease age to the model range with a note and offers the levers that move it', () => {
    const bad = fullPanel({ '8480-6': ['178', 'mmHg'], '72166-2': ['yes', ''], '2085-9': ['30', 'mg/dL'], '2093-3': ['300', 'mg/dL'] });
    const result = scoreTimeline({ events: [{ eventId: 'e', age: 75, date: null, predictors: bad }], points: [{ age: 75, date: null }] })[0]!;
    const cvd = domain(result.disease_scores, 'cardiovascular');
    expect(cvd.disease_age).toBe(79);
    expect(cvd.notes.join(' ')).toMatch(/above the model's range 30–79; reported as 79/);
    expect(cvd.improvement_opportunities.map((o) => o.predictor).sort()).toEqual(['hdl', 'sbp', 'smoking', 'total_cholesterol']);
    for (const o of cvd.improvement_opportunities) expect(o.risk_change!).toBeLessThan(0);
    const sbp = cvd.improvement_opportunities.find((o) => o.predictor === 'sbp')!;
    expect(sbp).toEqual(expect.objectContaining({ current_value: 178, target_value: 120, optimal_max: 120 }));
  });

  it('gives 100 to the optimal profile and less to a worse one', () => {
    const good = fullPanel({ '8480-6': ['112', 'mmHg'], '2085-9': ['65', 'mg/dL'], '2093-3': ['170', 'mg/dL'] });
    const worse = fullPanel({ '8480-6': ['150', 'mmHg'] });
    const [g, w] = [good, worse].map((p) => domain(scoreTimeline({ events: [{ eventId: 'e', age: 55, date: null, predictors: p }], points: [{ age: 55, date: null }] })[0]!.disease_scores, 'cardiovascular'));
    expect(g!.health_score).toBe(100);
    expect(w!.health_score!).toBeLessThan(100);
  });

  it('reports warnings alongside results', () => {
    const { warnings } = analyseTimeline({ events: [{ eventId: 'e', age: 50, date: null, predictors: [...fullPanel(), predictor('1234-5', '1')] }], points: [{ age: 50, date: null }] });
    expect(warnings).toHaveLength(1);
  });
});
