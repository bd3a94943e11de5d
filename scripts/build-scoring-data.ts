import { writeFileSync } from 'node:fs';
import path from 'node:path';
import diabetesDefinition from '../data/models/diabetes-definition.json';
import { SCORING_PREDICTORS } from '../functions/scoring/catalogue';
import { DOMAINS, type Domain, phenoAgeXb } from '../functions/scoring/domains';
import { ckdEpi2021 } from '../functions/scoring/models/ckd-epi';
import { KFRE_EGFR_LIMIT, kfreLinearPredictor } from '../functions/scoring/models/kfre';
import type { Sex } from '../functions/scoring/models/types';
import {
  AGE_BANDS,
  type BandPeers,
  bandIndex,
  type DomainPeers,
  type MediansFile,
  type PeerTablesFile,
  type TopPredictorsFile,
} from '../functions/scoring/population-tables';
import type { DiseaseCode } from '../functions/scoring/schemas';
import { interpolate, isotonicIncreasing, weightedMean, weightedQuantiles, weightedSd } from '../functions/scoring/statistics';
import { readReferencePopulation, readSourceJson } from './csv';
import { seededRandom } from './seeded-random';

/**
 * Rebuilds data/population/ from data/sources/ (method and sources: data/population/README.md).
 * Deterministic: the same inputs give the same bytes. Run: `npx tsx scripts/build-scoring-data.ts`.
 */

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'data/population');
const SEXES: Sex[] = ['male', 'female'];
const PERCENT_STEPS = Array.from({ length: 101 }, (_, i) => i / 100);

interface Stratum {
  sex: string;
  age_band: string;
  min: number;
  max: number;
  p01: number;
  p05: number;
  p25: number;
  p50: number;
  p75: number;
  p95: number;
  p99: number;
}
interface StatsFile {
  datasets: Record<string, Record<string, { unit: string; strata: Stratum[] }>>;
}

// ---------------------------------------------------------------------------------------------
// Physiological bounds

/** Widening factor on the observed NHANES range: see data/population/README.md ("Physiological bounds"). */
const BOUNDS_WIDENING = 2;

function sig(value: number, digits = 6): number {
  return Number(value.toPrecision(digits));
}

function buildBounds(stats: StatsFile) {
  const bounds: Record<string, { min: number; max: number; source: string }> = {};
  for (const predictor of SCORING_PREDICTORS) {
    if (!predictor.nhanes) continue;
    const variable = stats.datasets[predictor.nhanes.dataset]?.[predictor.nhanes.variable];
    if (!variable) throw new Error(`nhanes-biomarker-stats.json has no ${predictor.nhanes.dataset}.${predictor.nhanes.variable}`);
    const observedMin = Math.min(...variable.strata.map((s) => s.min));
    const observedMax = Math.max(...variable.strata.map((s) => s.max));
    const percent = predictor.ucumUnit === '%';
    bounds[predictor.key] = {
      min: sig(observedMin / BOUNDS_WIDENING),
      max: sig(percent ? Math.min(100, observedMax * BOUNDS_WIDENING) : observedMax * BOUNDS_WIDENING),
      source:
        `NHANES observed range of ${predictor.nhanes.variable} (${observedMin}–${observedMax} ${variable.unit}, ` +
        `${predictor.nhanes.dataset}, nhanes-biomarker-stats.json) widened ×${BOUNDS_WIDENING} each way`,
    };
  }
  return bounds;
}

// ---------------------------------------------------------------------------------------------
// Reference population rows, mapped to catalogue keys

export interface Person {
  age: number;
  sex: Sex;
  wtMec: number;
  wtFasting: number | null;
  prevalentCvd: number | null;
  dialysis: number | null;
  values: Record<string, number>;
}


function num(row: Record<string, string>, column: string): number | null {
  const text = row[column];
  if (text === undefined || text === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

const SBP_SEED = 20261122;

/** Inverse CDF of a stratum through its published quantiles (min, p01 … p99, max). */
function drawFromStratum(stratum: Stratum, u: number): number {
  const ps = [0, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1];
  const qs = [stratum.min, stratum.p01, stratum.p05, stratum.p25, stratum.p50, stratum.p75, stratum.p95, stratum.p99, stratum.max];
  return interpolate(ps, qs, u);
}

function sbpStratum(stats: StatsFile, sex: Sex, age: number): Stratum {
  const label = AGE_BANDS[bandIndex(age)]!.label;
  const stratum = stats.datasets.nhanes_1999_2018_bioage_unweighted?.systolic_bp?.strata.find((s) => s.sex === sex && s.age_band === label);
  if (!stratum) throw new Error(`no SBP stratum for ${sex} ${label}`);
  return stratum;
}

function toPeople(rows: Record<string, string>[], stats: StatsFile): Person[] {
  const random = seededRandom(SBP_SEED);
  return rows.map((row) => {
    const age = num(row, 'age_years')!;
    const sex = row.sex as Sex;
    const wtFasting = num(row, 'wt_fasting');
    const fasting = wtFasting !== null && wtFasting > 0;
    const values: Record<string, number> = {};
    const put = (key: string, value: number | null) => {
      if (value !== null) values[key] = value;
    };
    put('albumin', num(row, 'albumin_g_dL'));
    put('creatinine', num(row, 'creatinine_mg_dL'));
    put('glucose', num(row, 'glucose_serum_mg_dL'));
    put('fasting_glucose', fasting ? num(row, 'glucose_fasting_mg_dL') : null);
    put('hba1c', num(row, 'hba1c_pct'));
    put('crp', num(row, 'hscrp_mg_L'));
    put('lymphocyte_pct', num(row, 'lymphocyte_pct'));
    put('mcv', num(row, 'mcv_fL'));
    put('rdw', num(row, 'rdw_pct'));
    put('alp', num(row, 'alp_IU_L'));
    put('wbc', num(row, 'wbc_1000_uL'));
    put('platelets', num(row, 'platelets_1000_uL'));
    put('ast', num(row, 'ast_IU_L'));
    put('alt', num(row, 'alt_IU_L'));
    put('total_cholesterol', num(row, 'total_chol_mg_dL'));
    put('hdl', num(row, 'hdl_mg_dL'));
    put('triglycerides', num(row, 'trig_serum_mg_dL'));
    put('bmi', num(row, 'bmi_kg_m2'));
    put('height', num(row, 'height_cm'));
    put('weight', num(row, 'weight_kg'));
    put('waist', num(row, 'waist_cm'));
    put('uacr', num(row, 'uacr_mg_g'));
    put('smoking', num(row, 'smoking_current'));
    put('bp_treatment', num(row, 'bp_med'));
    put('statin', num(row, 'lipid_med'));
    put('parental_diabetes', num(row, 'family_history_diabetes'));
    if (values.wbc !== undefined && values.lymphocyte_pct !== undefined) {
      values.lymphocyte_count = (values.wbc * values.lymphocyte_pct) / 100;
    }
    if (values.total_cholesterol !== undefined && values.hdl !== undefined) values.non_hdl = values.total_cholesterol - values.hdl;
    if (values.creatinine !== undefined) values.egfr = ckdEpi2021(values.creatinine, age, sex);
    const dx = num(row, 'diabetes_dx');
    const labDiabetes =
      (values.hba1c ?? 0) >= diabetesDefinition.hba1c_pct_at_least ||
      (values.fasting_glucose ?? 0) >= diabetesDefinition.fasting_glucose_mg_dL_at_least;
    if (dx !== null || labDiabetes) values.diabetes = dx === 1 || labDiabetes ? 1 : 0;
    // Every row draws, in file order, so one row's draw never depends on another row's missing values.
    values.sbp = drawFromStratum(sbpStratum(stats, sex, age), random());
    return {
      age,
      sex,
      wtMec: num(row, 'wt_mec')!,
      wtFasting,
      prevalentCvd: num(row, 'prevalent_cvd'),
      dialysis: num(row, 'dialysis_past_12mo'),
      values,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Medians for imputation

function buildMedians(people: Person[], stats: StatsFile): MediansFile {
  const medians: MediansFile['medians'] = {};
  for (const predictor of SCORING_PREDICTORS) {
    if (predictor.kind !== 'continuous' || predictor.key === 'age') continue;
    const entry = { male: [] as number[], female: [] as number[], source: '' };
    if (predictor.key === 'sbp') {
      for (const sex of SEXES) entry[sex] = AGE_BANDS.map((band) => sbpStratum(stats, sex, band.from).p50);
      entry.source = 'p50 of systolic_bp, nhanes_1999_2018_bioage_unweighted (nhanes-biomarker-stats.json); SBP is not in the 2017-2020 file';
    } else {
      const fasting = predictor.key === 'fasting_glucose';
      for (const sex of SEXES) {
        entry[sex] = AGE_BANDS.map((_, b) => {
          const cell = people.filter((p) => p.sex === sex && bandIndex(p.age) === b && p.values[predictor.key] !== undefined);
          const weights = cell.map((p) => (fasting ? p.wtFasting! : p.wtMec));
          return sig(weightedQuantiles(cell.map((p) => p.values[predictor.key]!), weights, [0.5])[0]!);
        });
      }
      entry.source = `weighted median (${fasting ? 'wt_fasting > 0' : 'wt_mec'}) in nhanes-reference-population.csv.gz`;
    }
    medians[predictor.key] = entry;
  }
  return { source: 'NHANES 2017-March 2020 pre-pandemic (CDC/NCHS, public domain) via data/sources', bands: AGE_BANDS.map((b) => b.label), medians };
}

// ---------------------------------------------------------------------------------------------
// Domain peers

interface DomainPopulation {
  description: string;
  weight: (p: Person) => number | null;
  include: (p: Person) => boolean;
}

const POPULATIONS: Record<DiseaseCode, DomainPopulation> = {
  all_cause: { description: 'adults 20+ with all nine PhenoAge markers', weight: (p) => p.wtMec, include: () => true },
  cardiovascular: {
    description: 'adults 30-79 without self-reported CVD (prevalent_cvd = 0), complete PREVENT inputs, SBP drawn',
    weight: (p) => p.wtMec,
    include: (p) => p.prevalentCvd === 0,
  },
  heart_failure: {
    description: 'adults 30-79 without self-reported CVD (prevalent_cvd = 0), complete PREVENT inputs, SBP drawn',
    weight: (p) => p.wtMec,
    include: (p) => p.prevalentCvd === 0,
  },
  type2_diabetes: {
    description: 'fasting subsample (wt_fasting > 0) aged 45-64 without diabetes (self-report, HbA1c or fasting glucose), SBP drawn',
    weight: (p) => (p.wtFasting !== null && p.wtFasting > 0 ? p.wtFasting : null),
    include: (p) => p.values.diabetes === 0,
  },
  kidney: { description: 'adults 20+ not on dialysis in the past 12 months, with serum creatinine', weight: (p) => p.wtMec, include: (p) => p.dialysis !== 1 },
  liver: { description: 'adults 20+ with AST, ALT and platelets', weight: (p) => p.wtMec, include: () => true },
};

export interface Peer {
  person: Person;
  weight: number;
  inputs: Record<string, number>;
}

function domainPeers(domain: Domain, people: Person[]): Peer[] {
  const population = POPULATIONS[domain.code];
  const peers: Peer[] = [];
  for (const person of people) {
    const weight = population.weight(person);
    if (weight === null || !population.include(person)) continue;
    if (person.age < domain.ageRange.min || person.age > domain.ageRange.max) continue;
    const inputs: Record<string, number> = {};
    let complete = true;
    for (const key of domain.inputs) {
      const value = person.values[key];
      if (value === undefined) complete = false;
      else inputs[key] = value;
    }
    if (complete) peers.push({ person, weight, inputs });
  }
  return peers;
}

function bandPeers(domain: Domain, sex: Sex, peers: Peer[]): BandPeers[] {
  const bands: BandPeers[] = [];
  AGE_BANDS.forEach((band, b) => {
    const cell = peers.filter((p) => p.person.sex === sex && bandIndex(p.person.age) === b);
    if (cell.length === 0) return;
    const weights = cell.map((p) => p.weight);
    const values = cell.map((p) => domain.value(p.inputs, p.person.age, sex));
    const risks = cell.map((p) => domain.evaluate(p.inputs, p.person.age, sex).risk);
    const peerInputs: Record<string, number> = {};
    for (const key of domain.inputs) {
      const column = cell.map((p) => p.inputs[key]!);
      const binary = SCORING_PREDICTORS.find((d) => d.key === key)?.kind === 'binary';
      peerInputs[key] = sig(binary ? weightedMean(column, weights) : weightedQuantiles(column, weights, [0.5])[0]!);
    }
    bands.push({
      band: band.label,
      n: cell.length,
      sum_weight: Math.round(weights.reduce((a, w) => a + w, 0)),
      mean_age: sig(weightedMean(cell.map((p) => p.person.age), weights)),
      mean_value: sig(weightedMean(values, weights)),
      curve_value: 0,
      mean_risk: risks.every((r) => r !== null) ? sig(weightedMean(risks as number[], weights)) : null,
      quantiles: weightedQuantiles(values, weights, PERCENT_STEPS).map((q) => sig(q, 5)),
      peer_inputs: peerInputs,
    });
  });
  // The peer curve must be monotone in age to invert; worse-is-higher values rise with age, eGFR falls.
  const direction = domain.higherIsWorse ? 1 : -1;
  const monotone = isotonicIncreasing(
    bands.map((b) => direction * Math.log(b.mean_value)),
    bands.map((b) => b.sum_weight),
  );
  bands.forEach((b, i) => {
    b.curve_value = sig(Math.exp(direction * monotone[i]!));
  });
  return bands;
}

function buildPeers(people: Person[]): PeerTablesFile {
  const domains = {} as Record<DiseaseCode, DomainPeers>;
  for (const domain of DOMAINS) {
    const peers = domainPeers(domain, people);
    const population = POPULATIONS[domain.code];
    domains[domain.code] = {
      population: `${population.description}; n = ${peers.length}`,
      weight: domain.code === 'type2_diabetes' ? 'wt_fasting' : 'wt_mec',
      male: bandPeers(domain, 'male', peers),
      female: bandPeers(domain, 'female', peers),
    };
  }
  return {
    source: 'nhanes-reference-population.csv.gz (NHANES 2017-March 2020 pre-pandemic, CDC/NCHS, public domain); SBP from nhanes-biomarker-stats.json',
    method: 'see data/population/README.md',
    domains,
  };
}

// ---------------------------------------------------------------------------------------------
// Top disease predictors: |effect| × population SD, from the models themselves

/** The scale on which each model is additive in its inputs (what a coefficient multiplies). */
function linkOf(domain: Domain): (inputs: Record<string, number>, age: number, sex: Sex) => number {
  switch (domain.code) {
    case 'all_cause':
      return (x, age) => phenoAgeXb(x, age);
    case 'cardiovascular':
    case 'heart_failure':
    case 'type2_diabetes':
      return (x, age, sex) => {
        const p = domain.value(x, age, sex);
        return Math.log(p / (1 - p));
      };
    case 'kidney':
      return (x, age, sex) => kfreLinearPredictor(age, sex, x.egfr!, x.uacr!);
    case 'liver':
      return (x, age, sex) => Math.log(domain.value(x, age, sex));
  }
}

/**
 * Strength of each input: the weighted SD, over the population, of the change in the model's additive
 * scale (`link`) when that input is set to its same-sex weighted mean; for a linear term exactly
 * |β| × SD(term). Normalised to sum to 1.
 */
export function predictorStrengths(
  link: (inputs: Record<string, number>, age: number, sex: Sex) => number,
  peers: readonly Peer[],
  keys: readonly string[],
): { key: string; strength: number }[] {
  const raw = keys.map((key) => {
    const contributions: number[] = [];
    const weights: number[] = [];
    for (const sex of SEXES) {
      const group = peers.filter((p) => p.person.sex === sex);
      if (group.length === 0) continue;
      const mean = weightedMean(
        group.map((p) => p.inputs[key]!),
        group.map((p) => p.weight),
      );
      for (const p of group) {
        contributions.push(link(p.inputs, p.person.age, sex) - link({ ...p.inputs, [key]: mean }, p.person.age, sex));
        weights.push(p.weight);
      }
    }
    return { key, raw: weightedSd(contributions, weights) };
  });
  const total = raw.reduce((sum, s) => sum + s.raw, 0);
  return raw.map((s) => ({ key: s.key, strength: sig(s.raw / total, 4) })).sort((a, b) => b.strength - a.strength);
}

function buildTopPredictors(people: Person[]): TopPredictorsFile {
  const domains: TopPredictorsFile['domains'] = [];
  for (const domain of DOMAINS) {
    const kidney = domain.code === 'kidney';
    const peers = kidney
      ? people
          .filter((p) => p.dialysis !== 1 && (p.values.egfr ?? Number.POSITIVE_INFINITY) < KFRE_EGFR_LIMIT && (p.values.uacr ?? 0) > 0)
          .map((p): Peer => ({ person: p, weight: p.wtMec, inputs: { egfr: p.values.egfr!, uacr: p.values.uacr! } }))
      : domainPeers(domain, people);
    domains.push({
      disease: domain.code,
      population: kidney
        ? `NHANES adults with eGFR < ${KFRE_EGFR_LIMIT} and a urine albumin/creatinine ratio (KFRE's population); n = ${peers.length}`
        : `${POPULATIONS[domain.code].description}; n = ${peers.length}`,
      predictors: predictorStrengths(linkOf(domain), peers, kidney ? ['egfr', 'uacr'] : domain.inputs),
    });
  }
  return {
    source: 'scripts/build-scoring-data.ts from the models in data/models/ and nhanes-reference-population.csv.gz',
    method:
      "strength = survey-weighted SD, over the domain population, of the change in the model's linear predictor when the input is set to its same-sex population mean (= |β| × SD of the term for a linear term); normalised to sum to 1 per domain. Age and sex are stratifiers and are not ranked",
    domains,
  };
}

// ---------------------------------------------------------------------------------------------

/** Every file of data/population/, as the text written to disk, from data/sources. */
export function buildScoringData(): Record<string, string> {
  const stats = readSourceJson<StatsFile>('nhanes-biomarker-stats.json');
  const people = toPeople(readReferencePopulation(), stats);
  const bounds = {
    source: 'data/sources/nhanes-biomarker-stats.json (NHANES, CDC/NCHS, public domain); built by scripts/build-scoring-data.ts',
    bounds: buildBounds(stats),
  };
  return {
    'predictor-bounds.json': `${JSON.stringify(bounds, null, 1)}\n`,
    'medians.json': `${JSON.stringify(buildMedians(people, stats))}\n`,
    'peers.json': `${JSON.stringify(buildPeers(people))}\n`,
    'top-predictors.json': `${JSON.stringify(buildTopPredictors(people))}\n`,
  };
}

export const POPULATION_DIR = OUT;

function main(): void {
  for (const [name, text] of Object.entries(buildScoringData())) writeFileSync(path.join(OUT, name), text);
}

if (require.main === module) main();
