import diabetesDefinition from '../../data/models/diabetes-definition.json';
import { optimalRange } from '../reference/optimal-ranges';
import { predictorByKey } from './catalogue';
import type { Domain } from './domains';
import type { Inputs, RiskOutcome, Sex } from './models/types';
import { type PeersAt, type PeerTable, peerTable } from './population';
import { isObserved, type Resolved } from './resolve';
import { roundTo, sig6 } from './rounding';
import type { DiseaseScore } from './schemas';

/**
 * One domain's score at one point: the model, compared with same-sex NHANES peers of the same age
 * (data/population, interpolated between bands, population.ts). Everything is computed on the
 * domain's severity, the model's own additive scale (log-odds, log hazard, −ln eGFR, ln FIB-4):
 *
 * - health_score = 50 · (1 − z / (1 + |z|)), z = (s − m) / k: m the peers' median severity, k half
 *   their interquartile range. 50 for the median peer, 75 and 25 at the peers' quartiles; continuous
 *   and strictly decreasing in the severity, so it orders people exactly as risk, risk ratio and
 *   percentile do, and, falling off as 1/z rather than exponentially, never flat at 0 or 100 for
 *   any plausible input (issue 13).
 * - score_percentile: 100 − the severity's percentile among peers (higher = healthier).
 * - disease_age: the model's own age (PhenoAge), or the age at which the median peer has the
 *   severity; at the edge of the peer data beyond it, flagged (`disease_age_status`).
 * - risk_ratios: each outcome and horizon the model publishes, against the median peer's risk.
 * - attributions: each observed input set to its peer value, one at a time; they and the residual add
 *   up to the difference from peers (disease_age − age, risk − peer_risk). Inputs not measured are set
 *   to their peer value in the first place, so they have no effect to attribute; `not_measured`
 *   says what measuring them could change.
 */

type Status = NonNullable<DiseaseScore['disease_age_status']>;

interface Context {
  domain: Domain;
  sex: Sex;
  age: number;
  table: PeerTable;
  peers: PeersAt;
  /** Scratch copy of the inputs for one-input-moved evaluations (`withInput` restores each change). */
  work: Record<string, number>;
}

interface Outcome {
  severity: number;
  diseaseAge: number;
  status: Status;
  /** Probability of the primary outcome; null for index domains. */
  risk: number | null;
}

const r = roundTo;
const sig = sig6;
const FASTING_CODES: ReadonlySet<string> = new Set(diabetesDefinition.fasting_glucose_codes.codes);

function diseaseAgeOf(c: Context, severity: number): { age: number; status: Status } {
  const own = c.domain.biologicalAge;
  if (own) {
    const age = own.of(severity);
    return { age, status: age < own.fittedAges.min || age > own.fittedAges.max ? 'extrapolated' : 'model' };
  }
  const { age, position } = c.table.ageOf(severity);
  return { age, status: position };
}

function outcomeOf(c: Context, x: Inputs): Outcome {
  const severity = c.domain.severity(x, c.age, c.sex);
  const { age, status } = diseaseAgeOf(c, severity);
  return { severity, diseaseAge: age, status, risk: c.domain.riskOfSeverity ? c.domain.riskOfSeverity(severity) : null };
}

/** The domain's outcome with one input replaced (in the scratch copy, restored after). */
function withInput(c: Context, key: string, value: number): Outcome {
  const work = c.work;
  const saved = work[key]!;
  work[key] = value;
  const moved = outcomeOf(c, work);
  work[key] = saved;
  return moved;
}

/** 50 · (1 − z / (1 + |z|)): see the module comment. */
function healthScore(c: Context, severity: number): number {
  const z = (severity - c.peers.median) / c.peers.scale;
  return r(50 * (1 - z / (1 + Math.abs(z))), 1);
}

type RiskRatio = DiseaseScore['risk_ratios'][number];

/** Built as one literal each (object spread would make every entry a slower dictionary object). */
function riskEntry(o: RiskOutcome, risk: number | null, peerRisk: number | null, reason: string | null): RiskRatio {
  return {
    outcome: o.outcome,
    outcome_name: o.name,
    horizon_years: o.horizonYears,
    risk: risk === null ? null : sig(risk),
    peer_risk: peerRisk === null ? null : sig(peerRisk),
    ratio: risk === null || peerRisk === null ? null : sig(risk / peerRisk),
    reason,
  };
}

function riskRatio(c: Context, x: Inputs, outcome: RiskOutcome, primary: Outcome | null): RiskRatio {
  if (outcome.ages && (c.age < outcome.ages.min || c.age > outcome.ages.max)) return riskEntry(outcome, null, null, outcome.ages.reason);
  const link = primary ? primary.severity : outcome.link(x, c.age, c.sex);
  if (link === null) return riskEntry(outcome, null, null, c.domain.noRiskReason ?? 'The model gives no probability for these inputs.');
  const peerLink = primary ? c.peers.median : outcome.noPeerReason === null ? c.peers.outcomeMedian(outcome.key) : undefined;
  const risk = outcome.toRisk(link);
  if (peerLink === undefined) return riskEntry(outcome, risk, null, outcome.noPeerReason ?? 'No peers are tabulated for this outcome at this age.');
  return riskEntry(outcome, risk, outcome.toRisk(peerLink), null);
}

function attributions(c: Context, x: Inputs, observed: readonly string[], own: Outcome, peerRisk: number | null) {
  const rows = observed.map((key) => {
    const predictor = predictorByKey(key);
    const peerValue = c.peers.input(key);
    const moved = withInput(c, key, peerValue);
    return {
      predictor: key,
      name: predictor.name,
      observation_codes: predictor.observationCodes,
      value: sig(x[key]!),
      peer_value: sig(peerValue),
      unit: predictor.ucumUnit,
      disease_age_years: own.diseaseAge - moved.diseaseAge,
      risk: own.risk !== null && moved.risk !== null ? own.risk - moved.risk : null,
    };
  });
  const difference = {
    disease_age_years: own.diseaseAge - c.age,
    risk: own.risk !== null && peerRisk !== null ? own.risk - peerRisk : null,
  };
  const residual = {
    disease_age_years: r(difference.disease_age_years - rows.reduce((s, a) => s + a.disease_age_years, 0), 3),
    risk: difference.risk === null ? null : sig(difference.risk - rows.reduce((s, a) => s + (a.risk ?? 0), 0)),
  };
  rows.sort((a, b) => Math.abs(b.disease_age_years) - Math.abs(a.disease_age_years) || Math.abs(b.risk ?? 0) - Math.abs(a.risk ?? 0));
  for (const row of rows) {
    row.disease_age_years = r(row.disease_age_years, 3);
    if (row.risk !== null) row.risk = sig(row.risk);
  }
  return {
    rows,
    residual,
    difference: { disease_age_years: r(difference.disease_age_years, 3), risk: difference.risk === null ? null : sig(difference.risk) },
  };
}

function notMeasured(c: Context, x: Inputs, imputed: readonly string[]): DiseaseScore['not_measured'] {
  return imputed.map((key) => {
    const predictor = predictorByKey(key);
    const [low, high] = predictor.kind === 'binary' ? [0, 1] : c.peers.spread(key);
    const at = (value: number) => {
      const moved = withInput(c, key, value);
      return { value: sig(value), disease_age: r(moved.diseaseAge, 2), risk: moved.risk === null ? null : sig(moved.risk) };
    };
    return {
      predictor: key,
      name: predictor.name,
      observation_codes: predictor.observationCodes,
      unit: predictor.ucumUnit,
      assumed_value: sig(x[key]!),
      if_low: at(low),
      if_high: at(high),
    };
  });
}

function opportunities(c: Context, x: Inputs, observed: readonly string[], own: Outcome): DiseaseScore['improvement_opportunities'] {
  const out: DiseaseScore['improvement_opportunities'] = [];
  for (const key of observed) {
    const predictor = predictorByKey(key);
    if (!predictor.modifiable) continue;
    const current = x[key]!;
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
    const moved = withInput(c, key, target);
    if (moved.severity >= own.severity) continue;
    out.push({
      predictor: key,
      name: predictor.name,
      observation_codes: predictor.observationCodes,
      current_value: sig(current),
      target_value: sig(target),
      unit: predictor.ucumUnit,
      optimal_min: range ? sig(range.min) : null,
      optimal_max: range ? sig(range.max) : null,
      disease_age: r(moved.diseaseAge, 2),
      risk: moved.risk === null ? null : sig(moved.risk),
      disease_age_change: r(moved.diseaseAge - own.diseaseAge, 3),
      risk_change: moved.risk === null || own.risk === null ? null : sig(moved.risk - own.risk),
    });
  }
  return out.sort((a, b) => a.disease_age_change - b.disease_age_change || (a.risk_change ?? 0) - (b.risk_change ?? 0));
}

function completeness(domain: Domain, resolved: Resolved, imputed: readonly string[], used = inputsUsed(domain, resolved)): DiseaseScore['completeness'] {
  const out: DiseaseScore['completeness'] = { measured: [], carried_forward: [], derived: [], imputed: [...imputed], fraction_observed: 0 };
  for (const key of used) {
    const input = resolved.get(key);
    if (input) out[input.imputation].push(key);
  }
  // Share of the model's own inputs; optional inputs (UACR, the NFS inputs) are never imputed, so they do not count.
  const observed = domain.inputs.filter((key) => isObserved(resolved.get(key))).length;
  out.fraction_observed = r(observed / Math.max(1, domain.inputs.length), 3);
  return out;
}

function notScored(domain: Domain, age: number, resolved: Resolved, reason: string): DiseaseScore {
  const imputed = domain.inputs.filter((key) => !isObserved(resolved.get(key)));
  return {
    disease_code: domain.code,
    disease_name: domain.name,
    status: 'not_scored',
    health_score: null,
    health_score_max: 100,
    disease_age: null,
    disease_age_status: null,
    chronological_age: r(age, 2),
    risk_ratios: domain.outcomes.map((o) => riskEntry(o, null, null, reason)),
    score_percentile: null,
    indices: [],
    difference_from_peers: null,
    predictor_attributions: [],
    attribution_residual: null,
    not_measured: [],
    improvement_opportunities: [],
    model: domain.model,
    completeness: completeness(domain, resolved, imputed),
    notes: [reason],
  };
}

/** The inputs a domain reads at this point: its model inputs plus the optional ones that were observed. */
export function inputsUsed(domain: Domain, resolved: Resolved): string[] {
  return [...domain.inputs, ...domain.optional.filter((k) => isObserved(resolved.get(k)))];
}

function statusNote(domain: Domain, own: Outcome): string | null {
  if (own.status === 'model' || own.status === 'interpolated') return null;
  const age = r(own.diseaseAge, 1);
  if (own.status === 'extrapolated') {
    const fitted = domain.biologicalAge!.fittedAges;
    return `The biological age of ${age} lies outside the ages the model was fitted on (${fitted.min}–${fitted.max}): it is extrapolated, not clamped.`;
  }
  return own.status === 'below_peer_data'
    ? `The result is healthier than the median of the youngest peers, so the biological age is given as ${age}, the youngest age of the peer data: read it as at most ${age}.`
    : `The result is worse than the median of the oldest peers, so the biological age is given as ${age}, the oldest age of the peer data: read it as at least ${age}.`;
}

function inputNotes(domain: Domain, resolved: Resolved, imputed: readonly string[]): string[] {
  const notes: string[] = [];
  if (imputed.length > 0) {
    const names = imputed.map((k) => predictorByKey(k).name).join(', ');
    notes.push(`Not measured: ${names}; each is set to the value of same-sex peers of the same age, so it moves no result away from peers.`);
  }
  const fasting = resolved.get('fasting_glucose');
  if (domain.inputs.includes('fasting_glucose') && fasting && !FASTING_CODES.has(fasting.observationCode)) {
    notes.push(`A glucose of unspecified timing (${fasting.observationCode}) stands in for the model's fasting glucose.`);
  }
  if (domain.inputs.includes('sbp')) {
    notes.push('Peer values use systolic blood pressure drawn from NHANES 1999–2018 by sex and age band (the 2017–2020 file has none), so they are approximate.');
  }
  return notes;
}

export function scoreDomain(domain: Domain, resolved: Resolved, age: number, sex: Sex): DiseaseScore {
  if (age < domain.ageRange.min || age > domain.ageRange.max) {
    return notScored(domain, age, resolved, `Age ${r(age, 1)} is outside the ages the model was published for (${domain.ageRange.min}–${domain.ageRange.max}).`);
  }
  const missing = domain.required.filter((k) => !isObserved(resolved.get(k)));
  if (missing.length > 0) {
    return notScored(domain, age, resolved, `Not scored without a measured ${missing.map((k) => predictorByKey(k).name).join(', ')}.`);
  }
  if (!domain.inputs.some((k) => predictorByKey(k).kind === 'continuous' && isObserved(resolved.get(k)))) {
    return notScored(domain, age, resolved, "None of the model's laboratory or body inputs was measured in the carry-forward window.");
  }
  if (domain.exclusion && resolved.get(domain.exclusion.input)?.value === 1) return notScored(domain, age, resolved, domain.exclusion.reason);

  const table = peerTable(domain.code, sex);
  // Built by plain stores, not Object.fromEntries, which makes a dictionary-mode object that every model evaluation then pays for.
  const x: Record<string, number> = {};
  const c: Context = { domain, sex, age, table, peers: table.at(age), work: x };
  const observed: string[] = [];
  const imputed: string[] = [];
  // The model's own inputs come first in `used`, then its observed optional ones.
  const used = inputsUsed(domain, resolved);
  for (const [i, key] of used.entries()) {
    const input = resolved.get(key);
    if (input) {
      x[key] = input.value;
      if (i < domain.inputs.length) observed.push(key);
    } else {
      x[key] = c.peers.input(key);
      imputed.push(key);
    }
  }
  c.work = { ...x };
  const own = outcomeOf(c, x);
  const evaluation = domain.evaluate(x, age, sex);
  const peerRisk = domain.riskOfSeverity ? domain.riskOfSeverity(c.peers.median) : null;
  const { rows, residual, difference } = attributions(c, x, observed, own, peerRisk);
  const notes = [...evaluation.notes, statusNote(domain, own), ...inputNotes(domain, resolved, imputed)].filter((n): n is string => n !== null);
  return {
    disease_code: domain.code,
    disease_name: domain.name,
    status: 'scored',
    health_score: healthScore(c, own.severity),
    health_score_max: 100,
    disease_age: r(own.diseaseAge, 2),
    disease_age_status: own.status,
    chronological_age: r(age, 2),
    risk_ratios: domain.outcomes.map((o, i) => riskRatio(c, x, o, i === 0 && domain.riskOfSeverity ? own : null)),
    score_percentile: r(100 - c.peers.percentile(own.severity), 1),
    indices: evaluation.indices.map((i) => ({ ...i, value: sig(i.value) })),
    difference_from_peers: difference,
    predictor_attributions: rows,
    attribution_residual: residual,
    not_measured: notMeasured(c, x, imputed),
    improvement_opportunities: opportunities(c, x, observed, own),
    model: domain.model,
    completeness: completeness(domain, resolved, imputed, used),
    notes,
  };
}
