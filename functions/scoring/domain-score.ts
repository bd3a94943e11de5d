import { optimalRange } from '../reference/optimal-ranges';
import { predictorByKey } from './catalogue';
import type { Domain } from './domains';
import type { Inputs, Sex } from './models/types';
import { type PeerCurve, peerCurve } from './population';
import type { BandPeers } from './population-tables';
import { CARRY_FORWARD_DAYS, isObserved, type Resolved } from './resolve';
import { roundTo, sig6 } from './rounding';
import type { DiseaseScore } from './schemas';
import { percentileOf } from './statistics';

/**
 * One domain's score at one point: the model, compared with same-sex NHANES peers (data/population).
 *
 * - disease_age: the age at which the average peer has the person's value (PhenoAge itself for
 *   all_cause), clamped to the model's published ages with a note.
 * - health_score = 100 × min(1, v_opt / v) (or v / v_opt where higher is better), where v_opt is the
 *   model's value for the optimal profile at the same age and sex: every input with a guideline
 *   optimal range at its peer value moved into that range, other inputs at their peer value, binary
 *   risk factors absent. 100 for that profile or better; monotone in the person's value relative to
 *   peers, since v_opt and the peer value depend only on age and sex.
 * - score_percentile: position among same-sex, same-band peers, higher = healthier.
 * - attributions: each input set to its peer value, one at a time; the interaction residual (total
 *   effect minus the sum) is reported.
 */

interface Context {
  domain: Domain;
  sex: Sex;
  age: number;
  curve: PeerCurve;
  band: BandPeers;
}

const r = roundTo;
const sig = sig6;

/** disease_age (unclamped) of a domain value: the model's own age (PhenoAge) or the peer curve's. */
function ageOfValue(c: Context, value: number): number {
  return c.domain.biologicalAge ? c.domain.biologicalAge(value) : c.curve.ageAt(value);
}

/** What a changed profile gives: value, disease age and (probability models, or KFRE) risk. */
function outcome(c: Context, x: Inputs): { value: number; age: number; risk: number | null } {
  const value = c.domain.value(x, c.age, c.sex);
  const risk = c.domain.noRiskReason === null ? value : c.domain.risk(x, c.age, c.sex);
  return { value, age: ageOfValue(c, value), risk };
}

/** Keyed by the band row, which belongs to one domain and sex. */
const optimalProfiles = new Map<BandPeers, Inputs>();

/** Depends on domain, sex and band only, so it is built once per container and cell. */
function optimalProfile(c: Context): Inputs {
  const cached = optimalProfiles.get(c.band);
  if (cached) return cached;
  const profile: Record<string, number> = {};
  for (const key of c.domain.inputs) {
    const peer = c.band.peer_inputs[key]!;
    if (predictorByKey(key).kind === 'binary') profile[key] = 0;
    else {
      const range = optimalRange(key, c.sex);
      profile[key] = range ? Math.min(range.max, Math.max(range.min, peer)) : peer;
    }
  }
  optimalProfiles.set(c.band, profile);
  return profile;
}

function healthScore(c: Context, value: number): number {
  const optimal = c.domain.value(optimalProfile(c), c.age, c.sex);
  const ratio = c.domain.higherIsWorse ? optimal / value : value / optimal;
  return r(100 * Math.min(1, ratio), 1);
}

/** The domain's outcome with one input replaced; `work` is a scratch copy of the inputs, restored after. */
function withInput(c: Context, work: Record<string, number>, key: string, value: number) {
  const saved = work[key]!;
  work[key] = value;
  const moved = outcome(c, work);
  work[key] = saved;
  return moved;
}

function attributions(c: Context, x: Inputs, diseaseAge: number, risk: number | null) {
  const work = { ...x };
  const rows = c.domain.inputs.map((key) => {
    const predictor = predictorByKey(key);
    const peerValue = c.band.peer_inputs[key]!;
    const moved = withInput(c, work, key, peerValue);
    return {
      predictor: key,
      name: predictor.name,
      observation_codes: predictor.observationCodes,
      value: sig(x[key]!),
      peer_value: sig(peerValue),
      unit: predictor.ucumUnit,
      disease_age_years: diseaseAge - moved.age,
      risk: risk !== null && moved.risk !== null ? risk - moved.risk : null,
    };
  });
  const peer = outcome(c, { ...x, ...c.band.peer_inputs });
  const residual = {
    disease_age_years: r(diseaseAge - peer.age - rows.reduce((s, a) => s + a.disease_age_years, 0), 3),
    risk: risk !== null && peer.risk !== null ? sig(risk - peer.risk - rows.reduce((s, a) => s + (a.risk ?? 0), 0)) : null,
  };
  rows.sort((a, b) => Math.abs(b.disease_age_years) - Math.abs(a.disease_age_years));
  for (const row of rows) {
    row.disease_age_years = r(row.disease_age_years, 3);
    if (row.risk !== null) row.risk = sig(row.risk);
  }
  return { rows, residual };
}

function opportunities(c: Context, x: Inputs, resolved: Resolved, diseaseAge: number, risk: number | null, value: number) {
  const out: DiseaseScore['improvement_opportunities'] = [];
  const work = { ...x };
  for (const key of c.domain.inputs) {
    const predictor = predictorByKey(key);
    const input = resolved.get(key);
    if (!predictor.modifiable || !isObserved(input)) continue;
    const current = input.value;
    let target: number;
    let range: { min: number; max: number } | undefined;
    if (predictor.kind === 'binary') {
      if (current === 0) continue;
      target = 0;
    } else {
      range = optimalRange(key, c.sex);
      if (!range || (current >= range.min && current <= range.max)) continue;
      target = current < range.min ? range.min : range.max;
    }
    const moved = withInput(c, work, key, target);
    const better = c.domain.higherIsWorse ? moved.value < value : moved.value > value;
    if (!better) continue;
    const movedAge = moved.age;
    const movedRisk = moved.risk;
    out.push({
      predictor: key,
      name: predictor.name,
      observation_codes: predictor.observationCodes,
      current_value: sig(current),
      target_value: sig(target),
      unit: predictor.ucumUnit,
      optimal_min: range ? sig(range.min) : null,
      optimal_max: range ? sig(range.max) : null,
      disease_age: r(movedAge, 2),
      risk: movedRisk === null ? null : sig(movedRisk),
      disease_age_change: r(movedAge - diseaseAge, 3),
      risk_change: movedRisk === null || risk === null ? null : sig(movedRisk - risk),
    });
  }
  return out.sort((a, b) => (a.disease_age_change ?? 0) - (b.disease_age_change ?? 0));
}

function completeness(domain: Domain, resolved: Resolved, used: readonly string[]): DiseaseScore['completeness'] {
  const out: DiseaseScore['completeness'] = { measured: [], carried_forward: [], derived: [], imputed: [], fraction_observed: 0 };
  for (const key of used) {
    const code = resolved.get(key)?.imputation;
    if (code === 'population_median' || code === 'default' || code === undefined) out.imputed.push(key);
    else out[code].push(key);
  }
  // Share of the model's own inputs; optional inputs (UACR, the NFS inputs) are never imputed, so they do not count.
  const observed = domain.inputs.filter((key) => isObserved(resolved.get(key))).length;
  out.fraction_observed = r(observed / Math.max(1, domain.inputs.length), 3);
  return out;
}

function notScored(domain: Domain, age: number, resolved: Resolved, used: readonly string[], reason: string): DiseaseScore {
  return {
    disease_code: domain.code,
    disease_name: domain.name,
    status: 'not_scored',
    health_score: null,
    health_score_max: 100,
    disease_age: null,
    chronological_age: r(age, 2),
    risk_ratios: { horizon_years: domain.horizonYears, risk: null, peer_risk: null, ratio: null, reason },
    score_percentile: null,
    indices: [],
    predictor_attributions: [],
    improvement_opportunities: [],
    model: domain.model,
    completeness: completeness(domain, resolved, used),
    notes: [reason],
  };
}

/** The inputs a domain reads at this point: its model inputs plus the optional ones that were observed. */
export function inputsUsed(domain: Domain, resolved: Resolved): string[] {
  return [...domain.inputs, ...domain.optional.filter((k) => isObserved(resolved.get(k)))];
}

export function scoreDomain(domain: Domain, resolved: Resolved, age: number, sex: Sex): DiseaseScore {
  const used = inputsUsed(domain, resolved);
  if (age < domain.ageRange.min || age > domain.ageRange.max) {
    return notScored(domain, age, resolved, used, `age ${r(age, 1)} is outside the ages the model was published for (${domain.ageRange.min}–${domain.ageRange.max})`);
  }
  const missing = domain.required.filter((k) => !isObserved(resolved.get(k)));
  if (missing.length > 0) {
    return notScored(domain, age, resolved, used, `not scored without a measured ${missing.map((k) => predictorByKey(k).name).join(', ')}`);
  }
  if (!domain.inputs.some((k) => predictorByKey(k).kind === 'continuous' && isObserved(resolved.get(k)))) {
    return notScored(domain, age, resolved, used, 'none of the model\'s laboratory or body inputs was measured in the carry-forward window');
  }
  if (domain.exclusion && resolved.get(domain.exclusion.input)?.value === 1) {
    return notScored(domain, age, resolved, used, domain.exclusion.reason);
  }
  // Built by plain stores, not Object.fromEntries, which makes a dictionary-mode object that every model evaluation then pays for.
  const x: Record<string, number> = {};
  for (const key of used) x[key] = resolved.get(key)!.value;
  const curve = peerCurve(domain.code, sex, domain.higherIsWorse);
  const c: Context = { domain, sex, age, curve, band: curve.band(age) };
  const evaluation = domain.evaluate(x, age, sex);
  const notes = [...evaluation.notes];

  const diseaseAge = ageOfValue(c, evaluation.value);
  let reported = diseaseAge;
  if (diseaseAge < domain.ageRange.min || diseaseAge > domain.ageRange.max) {
    reported = Math.min(domain.ageRange.max, Math.max(domain.ageRange.min, diseaseAge));
    notes.push(
      `disease age ${diseaseAge < domain.ageRange.min ? 'below' : 'above'} the model's range ${domain.ageRange.min}–${domain.ageRange.max}; reported as ${reported}`,
    );
  }

  const peerValue = curve.valueAt(age);
  const probabilityModel = domain.noRiskReason === null;
  const risk = evaluation.risk;
  const peerRisk = probabilityModel ? peerValue : null;
  const riskRatios = {
    horizon_years: evaluation.horizonYears ?? domain.horizonYears,
    risk: risk === null ? null : sig(risk),
    peer_risk: peerRisk === null ? null : sig(peerRisk),
    ratio: risk !== null && peerRisk !== null ? sig(risk / peerRisk) : null,
    reason:
      risk === null
        ? domain.noRiskReason
        : peerRisk === null
          ? 'the KFRE risk is defined only for eGFR < 60; there is no general-population peer risk to compare with'
          : null,
  };
  const imputed = used.filter((k) => !isObserved(resolved.get(k)));
  if (imputed.length > 0) {
    notes.push(`imputed (not measured within ${CARRY_FORWARD_DAYS} days): ${imputed.map((k) => predictorByKey(k).name).join(', ')}; binary inputs not given count as absent`);
  }
  if (domain.inputs.includes('sbp')) {
    notes.push('peer values use systolic blood pressure drawn from NHANES 1999–2018 by sex and age band (the 2017–2020 file has none): approximate');
  }
  const percentile = percentileOf(c.band.quantiles, evaluation.value);
  const { rows, residual } = attributions(c, x, diseaseAge, risk);
  return {
    disease_code: domain.code,
    disease_name: domain.name,
    status: 'scored',
    health_score: healthScore(c, evaluation.value),
    health_score_max: 100,
    disease_age: r(reported, 2),
    chronological_age: r(age, 2),
    risk_ratios: riskRatios,
    score_percentile: r(domain.higherIsWorse ? 100 - percentile : percentile, 1),
    indices: evaluation.indices.map((i) => ({ ...i, value: sig(i.value) })),
    predictor_attributions: rows,
    attribution_residual: residual,
    improvement_opportunities: opportunities(c, x, resolved, diseaseAge, risk, evaluation.value),
    model: domain.model,
    completeness: completeness(domain, resolved, used),
    notes,
  };
}
