import { predictorByKey } from '../../../functions/scoring/catalogue';
import { analyseTimeline, scoreTimeline, scoreTimeseries } from '../../../functions/scoring/engine';
import { phenoAgeLinearPredictor } from '../../../functions/scoring/models/phenoage';
import { peerTable } from '../../../functions/scoring/population';
import type { DiseaseScore, PredictorInput } from '../../../functions/scoring/schemas';
import { toCatalogueUnit } from '../../../functions/scoring/units';
import { SCORING_VERSION } from '../../../functions/scoring/version';
import { fullPanel, predictor, timeseriesRequest } from './fixtures';

function domain(scores: DiseaseScore[], code: DiseaseScore['disease_code']): DiseaseScore {
  return scores.find((d) => d.disease_code === code)!;
}

function scoreAt(predictors: PredictorInput[], age: number) {
  return scoreTimeline({ events: [{ eventId: 'e', age, date: null, predictors }], points: [{ age, date: null }] })[0]!;
}

const risk = (score: DiseaseScore, outcome: string, horizon: number) => score.risk_ratios.find((r) => r.outcome === outcome && r.horizon_years === horizon)!;

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
    expect(allCause.disease_age_status).toBe('model');
    expect(allCause.model.doi).toBe('10.18632/aging.101414');
    expect(domain(result!.disease_scores, 'type2_diabetes').risk_ratios.map((r) => [r.outcome, r.horizon_years])).toEqual([['type2_diabetes', 9]]);
    expect(domain(result!.disease_scores, 'liver').risk_ratios).toEqual([
      expect.objectContaining({ outcome: 'liver_fibrosis', risk: null, ratio: null, reason: expect.stringMatching(/not probabilities/) }),
    ]);
    expect(domain(result!.disease_scores, 'liver').indices.map((i) => i.name)).toEqual(['FIB-4', 'NAFLD fibrosis score']);
  });

  it('labels inputs measured, carried forward (with age in days), derived and imputed (no value of its own)', () => {
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
    expect(by.albumin).toEqual(expect.objectContaining({ imputation_code: 'imputed', value: null, source_date: null, age_days: null }));
    expect(by.smoking).toEqual(expect.objectContaining({ imputation_code: 'imputed', value: null }));
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
      ['imputed', null],
      ['measured', 240],
    ]);
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
    const young = scoreAt(fullPanel(), 25);
    expect(domain(young.disease_scores, 'cardiovascular')).toEqual(
      expect.objectContaining({ status: 'not_scored', health_score: null, disease_age_status: null, notes: [expect.stringMatching(/outside the ages .* \(30–79\)\.$/)] }),
    );
    expect(domain(young.disease_scores, 'all_cause').status).toBe('scored');
    const result = scoreAt(
      fullPanel().filter((p) => p.observation_code !== '1920-8'),
      50,
    );
    expect(domain(result.disease_scores, 'liver')).toEqual(expect.objectContaining({ status: 'not_scored', notes: [expect.stringMatching(/Aspartate aminotransferase/)] }));
  });

  it('adds the KFRE 2- and 5-year risks only when eGFR < 60 and a UACR is measured', () => {
    const ckd = fullPanel({ '2160-0': ['1.9', 'mg/dL'] });
    const kidney = domain(scoreAt([...ckd, predictor('9318-7', '300', 'mg/g')], 65).disease_scores, 'kidney');
    expect(kidney.indices[0]!.category).toBe('G3b');
    expect(kidney.risk_ratios.map((r) => [r.outcome, r.horizon_years, r.peer_risk, r.ratio])).toEqual([
      ['kidney_failure', 5, null, null],
      ['kidney_failure', 2, null, null],
    ]);
    expect(kidney.risk_ratios[0]!.risk!).toBeGreaterThan(kidney.risk_ratios[1]!.risk!);
    expect(kidney.indices.map((i) => i.name)).toEqual(['eGFR (CKD-EPI 2021)', 'KFRE 5-year kidney failure risk', 'KFRE 2-year kidney failure risk']);
    const withoutUacr = scoreAt(ckd, 65);
    expect(domain(withoutUacr.disease_scores, 'kidney').risk_ratios.map((r) => r.risk)).toEqual([null, null]);
    expect(withoutUacr.scoring_predictors.map((p) => p.predictor)).not.toContain('uacr');
  });

  it('offers the levers that move a domain, each better than now', () => {
    const bad = fullPanel({ '8480-6': ['178', 'mmHg'], '72166-2': ['yes', ''], '2085-9': ['30', 'mg/dL'], '2093-3': ['300', 'mg/dL'] });
    const cvd = domain(scoreAt(bad, 60).disease_scores, 'cardiovascular');
    expect(cvd.improvement_opportunities.map((o) => o.predictor).sort()).toEqual(['hdl', 'sbp', 'smoking', 'total_cholesterol']);
    for (const o of cvd.improvement_opportunities) expect(o.risk_change!).toBeLessThan(0);
    const sbp = cvd.improvement_opportunities.find((o) => o.predictor === 'sbp')!;
    expect(sbp).toEqual(expect.objectContaining({ current_value: 178, target_value: 120, optimal_max: 120 }));
  });

  it('reports warnings alongside results', () => {
    const { warnings } = analyseTimeline({ events: [{ eventId: 'e', age: 50, date: null, predictors: [...fullPanel(), predictor('1234-5', '1')] }], points: [{ age: 50, date: null }] });
    expect(warnings).toHaveLength(1);
  });
});

/** Regression tests from the inputs of issue 13 (items 1–9). */
describe('issue 13 regressions', () => {
  const nonDiabetic = (overrides: Record<string, [string, string]> = {}) => fullPanel(overrides).filter((p) => p.observation_code !== '73211009');

  it('1: reads HbA1c in IFCC mmol/mol through the master equation (48 mmol/mol = 6.54 %, diabetic)', () => {
    const ifcc = scoreAt(nonDiabetic({ '4548-4': ['48', 'mmol/mol'] }), 55);
    const ngsp = scoreAt(nonDiabetic({ '4548-4': ['6.5', '%'] }), 55);
    expect(ifcc.scoring_predictors.find((p) => p.predictor === 'diabetes')).toEqual(expect.objectContaining({ imputation_code: 'derived', value: 1 }));
    expect(toCatalogueUnit(predictorByKey('hba1c'), 48, 'mmol/mol')).toEqual({ ok: true, value: 0.09148 * 48 + 2.152 });
    expect(toCatalogueUnit(predictorByKey('hba1c'), 6.5, '%')).toEqual({ ok: true, value: 6.5 });
    // The 55-year-old man's 10-year ASCVD risk is the diabetic one (0.061), not half of it (0.031).
    const ascvd = risk(domain(ifcc.disease_scores, 'cardiovascular'), 'ascvd', 10).risk!;
    expect(ascvd).toBeCloseTo(risk(domain(ngsp.disease_scores, 'cardiovascular'), 'ascvd', 10).risk!, 6);
    expect(ascvd).toBeGreaterThan(0.055);
    expect(domain(ifcc.disease_scores, 'type2_diabetes').status).toBe('not_scored');
  });

  it('2: derives diabetes only by the ADA criteria: a random glucose of 130 mg/dL is no diagnosis, 200 is', () => {
    const randomOnly = (mgdl: string) => nonDiabetic({ '2345-7': [mgdl, 'mg/dL'] }).filter((p) => p.observation_code !== '1558-6');
    const diabetes = (predictors: PredictorInput[]) => scoreAt(predictors, 55).scoring_predictors.find((p) => p.predictor === 'diabetes')!;
    expect(diabetes(randomOnly('130'))).toEqual(expect.objectContaining({ imputation_code: 'imputed', value: null }));
    expect(diabetes(randomOnly('210'))).toEqual(expect.objectContaining({ imputation_code: 'derived', value: 1 }));
    // A fasting glucose (LOINC 1558-6) of 130 is diabetes; of 98, a negative test.
    expect(diabetes(nonDiabetic({ '1558-6': ['130', 'mg/dL'] }))).toEqual(expect.objectContaining({ imputation_code: 'derived', value: 1 }));
    expect(diabetes(nonDiabetic())).toEqual(expect.objectContaining({ imputation_code: 'derived', value: 0 }));
    // ARIC reads a glucose of unspecified timing as its fasting glucose, and says so.
    const aric = domain(scoreAt(randomOnly('98'), 55).disease_scores, 'type2_diabetes');
    expect(aric.notes).toContainEqual(expect.stringMatching(/unspecified timing \(2345-7\)/));
  });

  it('3: reports PhenoAge as computed where 1 − M rounds to 0 (creatinine 8 mg/dL at 60), flagged extrapolated, never clamped', () => {
    const allCause = domain(scoreAt(fullPanel({ '2160-0': ['8', 'mg/dL'] }), 60).disease_scores, 'all_cause');
    expect(allCause.risk_ratios[0]!.risk).toBe(1);
    expect(allCause.disease_age).toBeGreaterThan(110);
    expect(allCause.disease_age).toBeCloseTo(allCause.indices[0]!.value, 1);
    expect(allCause.disease_age_status).toBe('extrapolated');
    expect(allCause.notes).toContainEqual(expect.stringMatching(/outside the ages the model was fitted on \(20–84\): it is extrapolated, not clamped\./));
    for (const value of [allCause.health_score, allCause.score_percentile, allCause.risk_ratios[0]!.ratio, ...allCause.predictor_attributions.map((a) => a.disease_age_years)]) {
      expect(Number.isFinite(value)).toBe(true);
    }
    // A very poor but plausible profile at 65: the published formula's 92.1 is reported, not 84.
    const poor = fullPanel({ '1751-7': ['3.2', 'g/dL'], '2160-0': ['2.0', 'mg/dL'], '2345-7': ['180', 'mg/dL'], '30522-7': ['20', 'mg/L'], '736-9': ['15', '%'], '787-2': ['100', 'fL'], '788-0': ['16', '%'], '6768-6': ['130', 'U/L'], '6690-2': ['11', 'x10E3/uL'] });
    const phenoAge = domain(scoreAt(poor, 65).disease_scores, 'all_cause');
    expect(phenoAge.disease_age!).toBeGreaterThan(84);
    expect(phenoAge.disease_age_status).toBe('extrapolated');
  });

  it('4: one rule for disease ages beyond the peer data: the edge age, flagged, for every domain (kidney, liver, diabetes)', () => {
    const kidney = domain(scoreAt(fullPanel({ '2160-0': ['2.5', 'mg/dL'] }), 60).disease_scores, 'kidney');
    const liver = domain(scoreAt(fullPanel({ '1920-8': ['150', 'U/L'] }), 60).disease_scores, 'liver');
    const lastAge = (code: DiseaseScore['disease_code']) => peerTable(code, 'male').ages.at(-1)!;
    for (const [score, code] of [
      [kidney, 'kidney'],
      [liver, 'liver'],
    ] as const) {
      expect(score.disease_age).toBeCloseTo(lastAge(code), 2);
      expect(score.disease_age!).toBeLessThan(90);
      expect(score.disease_age_status).toBe('above_peer_data');
      expect(score.notes).toContainEqual(expect.stringMatching(/worse than the median of the oldest peers.*read it as at least/));
    }
    const diabetes = domain(scoreAt(fullPanel({ '1558-6': ['80', 'mg/dL'] }), 57).disease_scores, 'type2_diabetes');
    expect(diabetes.disease_age).toBeCloseTo(peerTable('type2_diabetes', 'male').ages[0]!, 2);
    expect(diabetes.disease_age_status).toBe('below_peer_data');
    // Attributions are computed with the same (edge) rule, so they and the residual add up to the reported difference.
    const total = diabetes.predictor_attributions.reduce((s, a) => s + a.disease_age_years, 0) + diabetes.attribution_residual!.disease_age_years;
    expect(total).toBeCloseTo(diabetes.disease_age! - diabetes.chronological_age, 1);
  });

  it('5: no jump at a 5-year band edge: 49.99 vs 50.00 years moves no percentile, score or peer risk by more than 0.5', () => {
    const [before, after] = [49.99, 50].map((age) => scoreAt(fullPanel(), age));
    for (const code of ['all_cause', 'cardiovascular', 'heart_failure', 'kidney', 'liver'] as const) {
      const a = domain(before!.disease_scores, code);
      const b = domain(after!.disease_scores, code);
      expect(Math.abs(a.score_percentile! - b.score_percentile!)).toBeLessThanOrEqual(0.5);
      expect(Math.abs(a.health_score! - b.health_score!)).toBeLessThanOrEqual(0.5);
      expect(Math.abs((a.risk_ratios[0]!.peer_risk ?? 0) - (b.risk_ratios[0]!.peer_risk ?? 0))).toBeLessThan(0.001);
    }
  });

  it('6: places the top-coded 80+ band at the mean age of the US population aged 80 and over, not at 80', () => {
    for (const sex of ['male', 'female'] as const) {
      const ages = peerTable('kidney', sex).ages;
      expect(ages.at(-1)!).toBeGreaterThan(85);
      expect(ages.at(-1)!).toBeLessThan(87);
    }
    // An 82-year-old's peers lie between the 75–79 band and the 80+ band, not past the last one.
    const kidney82 = domain(scoreAt(fullPanel(), 82).disease_scores, 'kidney');
    const kidney80 = domain(scoreAt(fullPanel(), 80).disease_scores, 'kidney');
    expect(kidney82.score_percentile).not.toBe(kidney80.score_percentile);
  });

  it('7: attributes nothing to inputs the caller never sent, lists them as not measured with what measuring them would add', () => {
    const noFamilyHistory = fullPanel().filter((p) => p.observation_code !== '160303001');
    const diabetes = domain(scoreAt(noFamilyHistory, 57).disease_scores, 'type2_diabetes');
    expect(diabetes.predictor_attributions.map((a) => a.predictor)).not.toContain('parental_diabetes');
    expect(diabetes.completeness.imputed).toEqual(['parental_diabetes']);
    const entry = diabetes.not_measured.find((n) => n.predictor === 'parental_diabetes')!;
    expect(entry.if_low.value).toBe(0);
    expect(entry.if_high.value).toBe(1);
    expect(entry.if_high.risk!).toBeGreaterThan(entry.if_low.risk!);
    expect(entry.assumed_value).toBeGreaterThan(0);
    expect(entry.assumed_value).toBeLessThan(1);
    expect(diabetes.notes).toContainEqual(expect.stringMatching(/^Not measured: Parental history of diabetes; each is set to the value of same-sex peers/));
    // The imputed value is the peers' own value: scoring with it measured at that value changes nothing.
    const sent = domain(scoreAt([...noFamilyHistory, predictor('160303001', 'no')], 57).disease_scores, 'type2_diabetes');
    expect(sent.predictor_attributions.map((a) => a.predictor)).toContain('parental_diabetes');
    // Attributions plus the residual equal the reported difference from peers, in years and in risk.
    for (const score of [diabetes, sent]) {
      const years = score.predictor_attributions.reduce((s, a) => s + a.disease_age_years, 0) + score.attribution_residual!.disease_age_years;
      const risks = score.predictor_attributions.reduce((s, a) => s + a.risk!, 0) + score.attribution_residual!.risk!;
      expect(years).toBeCloseTo(score.difference_from_peers!.disease_age_years, 2);
      expect(years).toBeCloseTo(score.disease_age! - score.chronological_age, 1);
      expect(risks).toBeCloseTo(score.difference_from_peers!.risk!, 5);
      expect(score.difference_from_peers!.risk!).toBeCloseTo(score.risk_ratios[0]!.risk! - score.risk_ratios[0]!.peer_risk!, 5);
    }
  });

  it('8: health_score, percentile and risk ratio agree for one person: below-median risk is above 50 on both and a ratio below 1', () => {
    for (const age of [45, 55, 65]) {
      for (const score of scoreAt(fullPanel(), age).disease_scores.filter((s) => s.status === 'scored')) {
        const ratio = score.risk_ratios[0]!.ratio;
        if (ratio !== null && Math.abs(ratio - 1) > 0.01) {
          expect(Math.sign(score.health_score! - 50)).toBe(-Math.sign(ratio - 1));
          expect(Math.sign(score.score_percentile! - 50)).toBe(-Math.sign(ratio - 1));
          if (score.disease_age_status === 'interpolated') expect(Math.sign(score.disease_age! - score.chronological_age)).toBe(Math.sign(ratio - 1));
        }
      }
    }
    // No plateau at 100 for a profile better than the optimal one (CRP 3 mg/L at 50 scores below CRP 1).
    const crp = (mgl: string) => domain(scoreAt(fullPanel({ '30522-7': [mgl, 'mg/L'] }), 50).disease_scores, 'all_cause').health_score!;
    expect(crp('3')).toBeLessThan(crp('1'));
    expect(crp('1')).toBeLessThan(crp('0.3'));
    expect(crp('0.3')).toBeLessThan(100);
  });

  it('9: carries every PREVENT outcome and horizon: total CVD and ASCVD, 10 and 30 years (30-year only for ages 30–59)', () => {
    const at55 = scoreAt(fullPanel(), 55);
    const cvd = domain(at55.disease_scores, 'cardiovascular');
    expect(cvd.risk_ratios.map((r) => [r.outcome, r.horizon_years])).toEqual([
      ['total_cvd', 10],
      ['ascvd', 10],
      ['total_cvd', 30],
      ['ascvd', 30],
    ]);
    for (const entry of cvd.risk_ratios) {
      expect(entry.risk!).toBeGreaterThan(0);
      expect(entry.peer_risk!).toBeGreaterThan(0);
      expect(entry.ratio).toBeCloseTo(entry.risk! / entry.peer_risk!, 4);
    }
    expect(risk(cvd, 'total_cvd', 30).risk!).toBeGreaterThan(risk(cvd, 'total_cvd', 10).risk!);
    expect(risk(cvd, 'total_cvd', 10).risk!).toBeGreaterThan(risk(cvd, 'ascvd', 10).risk!);
    const hf = domain(at55.disease_scores, 'heart_failure');
    expect(hf.risk_ratios.map((r) => [r.outcome, r.horizon_years])).toEqual([
      ['heart_failure', 10],
      ['heart_failure', 30],
    ]);
    const at65 = domain(scoreAt(fullPanel(), 65).disease_scores, 'cardiovascular');
    expect(risk(at65, 'total_cvd', 30)).toEqual(expect.objectContaining({ risk: null, peer_risk: null, ratio: null, reason: expect.stringMatching(/developed for ages 30–59/) }));
    expect(risk(at65, 'total_cvd', 10).risk!).toBeGreaterThan(0);
  });

  it('keeps PhenoAge linear in its predictor: one unit of xb is 1/0.090165 years, with no saturation', () => {
    const base = { albuminGdl: 4, creatinineMgdl: 1, glucoseMgdl: 90, crpMgl: 1, lymphocytePct: 30, mcvFl: 90, rdwPct: 13, alpUl: 70, wbcThousandPerUl: 6, age: 60 };
    const ages = [0.5, 8, 20].map((creatinine) => domain(scoreAt(fullPanel({ '2160-0': [String(creatinine), 'mg/dL'] }), 60).disease_scores, 'all_cause').disease_age!);
    const xb = (creatinineMgdl: number) => phenoAgeLinearPredictor({ ...base, creatinineMgdl });
    expect(ages[2]! - ages[1]!).toBeCloseTo((xb(20) - xb(8)) / 0.090165, 1);
  });
});
