import { writeFileSync } from 'node:fs';
import path from 'node:path';
import ckdEpiModel from '../data/models/ckd-epi-2021.json';
import diabetesDefinition from '../data/models/diabetes-definition.json';
import { SCORING_PREDICTORS } from '../functions/scoring/catalogue';
import { DOMAINS, type Domain } from '../functions/scoring/domains';
import { ckdEpi2021 } from '../functions/scoring/models/ckd-epi';
import { KFRE_EGFR_LIMIT, kfreLinearPredictor } from '../functions/scoring/models/kfre';
import type { Sex } from '../functions/scoring/models/types';
import { AGE_BANDS, type BandPeers, bandIndex, type DomainPeers, type PeerTablesFile, type TopPredictorsFile } from '../functions/scoring/population-tables';
import type { DiseaseCode } from '../functions/scoring/schemas';
import { interpolate, isotonicIncreasing, weightedMean, weightedQuantiles, weightedSd } from '../functions/scoring/statistics';
import { readReferencePopulation, readSourceCsv, readSourceJson } from './csv';
import { seededRandom } from './seeded-random';

/**
 * Rebuilds data/population/ and docs/accepted-ranges.md from data/sources/ (method and sources:
 * data/population/README.md). Deterministic: the same inputs give the same bytes.
 * Run: `npx tsx scripts/build-scoring-data.ts`.
 */

const ROOT = path.resolve(__dirname, '..');
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
// Accepted ranges (physiological bounds)

/** Widening factor on the observed NHANES range: see data/population/README.md ("Accepted ranges"). */
const BOUNDS_WIDENING = 2;

function sig(value: number, digits = 6): number {
  return Number(value.toPrecision(digits));
}

type Bounds = Record<string, { min: number; max: number; source: string }>;

/** Observed range widened ×2 each way (percentages capped at 100). */
function widened(min: number, max: number, percent: boolean): { min: number; max: number } {
  return { min: sig(min / BOUNDS_WIDENING), max: sig(percent ? Math.min(100, max * BOUNDS_WIDENING) : max * BOUNDS_WIDENING) };
}

/** Ages over which the eGFR range is taken: CKD-EPI 2021's published ages (data/models/ckd-epi-2021.json). */
const EGFR_AGES = [ckdEpiModel.validity.age_min, ckdEpiModel.validity.age_max];

function buildBounds(stats: StatsFile, people: Person[]): Bounds {
  const bounds: Bounds = {};
  for (const predictor of SCORING_PREDICTORS) {
    if (!predictor.nhanes || predictor.sameAnalyteAs) continue;
    const variable = stats.datasets[predictor.nhanes.dataset]?.[predictor.nhanes.variable];
    if (!variable) throw new Error(`nhanes-biomarker-stats.json has no ${predictor.nhanes.dataset}.${predictor.nhanes.variable}`);
    const observedMin = Math.min(...variable.strata.map((s) => s.min));
    const observedMax = Math.max(...variable.strata.map((s) => s.max));
    bounds[predictor.key] = {
      ...widened(observedMin, observedMax, predictor.ucumUnit === '%'),
      source:
        `NHANES observed range of ${predictor.nhanes.variable} (${observedMin}–${observedMax} ${variable.unit}, ` +
        `${predictor.nhanes.dataset}, nhanes-biomarker-stats.json) widened ×${BOUNDS_WIDENING} each way`,
    };
  }
  // Derived predictors a caller may also send: their observed range in the participant-level file.
  for (const [key, formula] of [
    ['lymphocyte_count', 'wbc × lymphocyte % / 100'],
    ['non_hdl', 'total cholesterol − HDL'],
  ] as const) {
    const values = people.map((p) => p.values[key]).filter((v): v is number => v !== undefined);
    const observedMin = sig(Math.min(...values));
    const observedMax = sig(Math.max(...values));
    bounds[key] = {
      ...widened(observedMin, observedMax, false),
      source: `NHANES 2017-2020 observed range of ${formula} (${observedMin}–${observedMax}, nhanes-reference-population.csv.gz) widened ×${BOUNDS_WIDENING} each way`,
    };
  }
  const creatinine = bounds.creatinine!;
  const egfrs = SEXES.flatMap((sex) => EGFR_AGES.flatMap((age) => [creatinine.min, creatinine.max].map((c) => ckdEpi2021(c, age, sex))));
  bounds.egfr = {
    min: sig(Math.min(...egfrs)),
    max: sig(Math.max(...egfrs)),
    source: `CKD-EPI 2021 eGFR over the creatinine range (${creatinine.min}–${creatinine.max} mg/dL), both sexes and ages ${EGFR_AGES.join('–')}: the eGFRs the engine itself can derive`,
  };
  // Same analyte, same range: a fasting glucose is a glucose (one accepted range per measurement).
  for (const predictor of SCORING_PREDICTORS) {
    if (predictor.sameAnalyteAs) {
      const shared = bounds[predictor.sameAnalyteAs]!;
      bounds[predictor.key] = { ...shared, source: `the range of ${predictor.sameAnalyteAs} (the same analyte): ${shared.source}` };
    }
  }
  return bounds;
}

/** docs/accepted-ranges.md: the one table of what validation accepts, generated from the bounds. */
function acceptedRangesDoc(bounds: Bounds): string {
  const rows = SCORING_PREDICTORS.filter((p) => p.kind === 'continuous' && p.key !== 'age').map((p) => {
    const b = bounds[p.key];
    if (!b) throw new Error(`no accepted range for ${p.key}`);
    return `| ${p.name} | ${p.observationCodes.join(', ')} | ${b.min} | ${b.max} | \`${p.ucumUnit}\` | ${b.source} |`;
  });
  return [
    '<!-- Generated by scripts/build-scoring-data.ts from data/population/predictor-bounds.json; do not edit. -->',
    '',
    '# Accepted ranges of scoring inputs',
    '',
    'POST /health-score/timeseries and the report routes accept a numeric value when, converted to the unit',
    'below (UCUM), it lies within this range; a value outside is answered with 422 naming the field (mode',
    '`score`: dropped with a warning), because it is almost always a unit or entry error. The ranges are wide on',
    'purpose: the range observed in NHANES widened by a factor of 2 each way, so that values of people sicker',
    'than a community survey still score. Every accepted value gives a finite result; values far outside a',
    "model's own validation range are scored with a note saying so. Yes/no inputs accept `true`/`false`,",
    '`yes`/`no`, `1`/`0`; sex (76689-9) accepts `male`/`female`. The lab-report extractor flags values outside the',
    'same ranges (`value_outside_physiological_bounds`); a value read by OCR outside them is a misreading and',
    'is left unread.',
    '',
    '| input | codes | min | max | unit | source of the range |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Reference population rows, mapped to catalogue keys

export interface Person {
  /** Age as NHANES records it: whole years, 80 meaning 80 and over. */
  age: number;
  /** Age the models are evaluated at: `age`, except the top-coded 80, which is the sex's mean age of the US population aged 80+. */
  modelAge: number;
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

/** NHANES codes every participant aged 80 or over as 80 (nhanes-reference-population.md section 2). */
const NHANES_TOP_CODED_AGE = 80;
/** The Census year nearest the middle of NHANES 2017–March 2020. */
const CENSUS_YEAR_COLUMN = 'POPESTIMATE2018';

/**
 * Mean age of the US resident population aged 80 and over, by sex (Census single-year estimates,
 * data/sources/us-census-population-80plus.csv): completed years + 0.5; the open 100+ row counts as 100.5.
 */
export function meanAgeOver80(): Record<Sex, number> {
  const rows = readSourceCsv('us-census-population-80plus.csv');
  const mean = (code: string) => {
    const cells = rows.filter((r) => r.SEX === code);
    const total = cells.reduce((sum, r) => sum + Number(r[CENSUS_YEAR_COLUMN]), 0);
    return sig(cells.reduce((sum, r) => sum + (Number(r.AGE) + 0.5) * Number(r[CENSUS_YEAR_COLUMN]), 0) / total, 4);
  };
  return { male: mean('1'), female: mean('2') };
}

function toPeople(rows: Record<string, string>[], stats: StatsFile): Person[] {
  const random = seededRandom(SBP_SEED);
  const over80 = meanAgeOver80();
  return rows.map((row) => {
    const age = num(row, 'age_years')!;
    const sex = row.sex as Sex;
    const modelAge = age >= NHANES_TOP_CODED_AGE ? over80[sex] : age;
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
    if (values.creatinine !== undefined) values.egfr = ckdEpi2021(values.creatinine, modelAge, sex);
    const dx = num(row, 'diabetes_dx');
    // The engine's ADA rule (resolve.ts); the serum glucose of the biochemistry profile is a random glucose.
    const labDiabetes =
      (values.hba1c ?? 0) >= diabetesDefinition.hba1c_pct_at_least ||
      (values.fasting_glucose ?? 0) >= diabetesDefinition.fasting_glucose_mg_dL_at_least ||
      (values.glucose ?? 0) >= diabetesDefinition.random_glucose_mg_dL_at_least;
    if (dx !== null || labDiabetes) values.diabetes = dx === 1 || labDiabetes ? 1 : 0;
    // Every row draws, in file order, so one row's draw never depends on another row's missing values.
    values.sbp = drawFromStratum(sbpStratum(stats, sex, age), random());
    return {
      age,
      modelAge,
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
    description: 'fasting subsample (wt_fasting > 0) aged 45-64 without diabetes (self-report, HbA1c, fasting or random glucose), SBP drawn',
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
    // By recorded age: the top-coded 80 stands for 80 and over, which a model published to 84 or beyond covers.
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

const isBinary = (key: string) => SCORING_PREDICTORS.find((d) => d.key === key)?.kind === 'binary';

/** Weighted median, 10th and 90th percentile of each input; prevalence of yes/no inputs. */
function peerInputs(domain: Domain, cell: readonly Peer[], weights: readonly number[]) {
  const values: Record<string, number> = {};
  const spread: Record<string, [number, number]> = {};
  for (const key of domain.inputs) {
    const column = cell.map((p) => p.inputs[key]!);
    if (isBinary(key)) {
      values[key] = sig(weightedMean(column, weights));
      continue;
    }
    const [p10, p50, p90] = weightedQuantiles(column, weights, [0.1, 0.5, 0.9]);
    values[key] = sig(p50!);
    spread[key] = [sig(p10!), sig(p90!)];
  }
  return { values, spread };
}

/** Weighted median link value of each further outcome with peers, over the band's peers of the outcome's ages. */
function outcomeMedians(domain: Domain, sex: Sex, cell: readonly Peer[]): Record<string, number> {
  const medians: Record<string, number> = {};
  for (const outcome of domain.outcomes.slice(1)) {
    if (outcome.noPeerReason !== null) continue;
    const within = cell.filter((p) => !outcome.ages || (p.person.age >= outcome.ages.min && p.person.age <= outcome.ages.max));
    if (within.length === 0) continue;
    const links = within.map((p) => outcome.link(p.inputs, p.person.modelAge, sex)!);
    medians[outcome.key] = sig(weightedQuantiles(links, within.map((p) => p.weight), [0.5])[0]!, 5);
  }
  return medians;
}

function bandPeers(domain: Domain, sex: Sex, peers: Peer[]): BandPeers[] {
  const bands: BandPeers[] = [];
  AGE_BANDS.forEach((band, b) => {
    const cell = peers.filter((p) => p.person.sex === sex && bandIndex(p.person.age) === b);
    if (cell.length === 0) return;
    const weights = cell.map((p) => p.weight);
    const severities = cell.map((p) => domain.severity(p.inputs, p.person.modelAge, sex));
    const inputs = peerInputs(domain, cell, weights);
    bands.push({
      band: band.label,
      n: cell.length,
      sum_weight: Math.round(weights.reduce((a, w) => a + w, 0)),
      mean_age: sig(weightedMean(cell.map((p) => p.person.modelAge), weights)),
      quantiles: weightedQuantiles(severities, weights, PERCENT_STEPS),
      monotone_shift: 0,
      peer_inputs: inputs.values,
      input_spread: inputs.spread,
      outcome_medians: outcomeMedians(domain, sex, cell),
    });
  });
  // The peer curve (the bands' medians) must rise with age to be inverted: pool-adjacent-violators
  // gives the closest rising sequence; each band's distribution moves by what its median moved.
  const monotone = isotonicIncreasing(
    bands.map((b) => b.quantiles[50]!),
    bands.map((b) => b.sum_weight),
  );
  bands.forEach((b, i) => {
    const shift = monotone[i]! - b.quantiles[50]!;
    b.monotone_shift = sig(shift, 5);
    b.quantiles = b.quantiles.map((q) => sig(q + shift, 5));
    // Rounding must not undo the pooling: pooled bands share one median exactly.
    b.quantiles[50] = sig(monotone[i]!, 5);
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

/**
 * The scale on which each model is additive in its inputs (what a coefficient multiplies): the
 * domain's severity, except the kidney domain, whose eGFR is one input, so its ranking uses KFRE.
 */
function linkOf(domain: Domain): (inputs: Record<string, number>, age: number, sex: Sex) => number {
  if (domain.code === 'kidney') return (x, age, sex) => kfreLinearPredictor(age, sex, x.egfr!, x.uacr!);
  return (x, age, sex) => domain.severity(x, age, sex);
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
        contributions.push(link(p.inputs, p.person.modelAge, sex) - link({ ...p.inputs, [key]: mean }, p.person.modelAge, sex));
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

/** Every file the build writes, by path from the repository root, as the text written to disk. */
export function buildScoringData(): Record<string, string> {
  const stats = readSourceJson<StatsFile>('nhanes-biomarker-stats.json');
  const people = toPeople(readReferencePopulation(), stats);
  const bounds = buildBounds(stats, people);
  const boundsFile = {
    source:
      'data/sources/nhanes-biomarker-stats.json and nhanes-reference-population.csv.gz (NHANES, CDC/NCHS, public domain); built by scripts/build-scoring-data.ts; shown in docs/accepted-ranges.md',
    bounds,
  };
  return {
    'data/population/predictor-bounds.json': `${JSON.stringify(boundsFile, null, 1)}\n`,
    'data/population/peers.json': `${JSON.stringify(buildPeers(people))}\n`,
    'data/population/top-predictors.json': `${JSON.stringify(buildTopPredictors(people))}\n`,
    'docs/accepted-ranges.md': acceptedRangesDoc(bounds),
  };
}

export const REPOSITORY_ROOT = ROOT;

function main(): void {
  for (const [name, text] of Object.entries(buildScoringData())) writeFileSync(path.join(ROOT, name), text);
}

if (require.main === module) main();
