import { ckdEpi2021 } from '../../scoring/models/ckd-epi';
import type { Sex } from '../../scoring/models/types';
import { weightedMean, weightedQuantiles } from '../../scoring/statistics';
import { DERIVED_DATASET, type PredictorPopulation, type PopulationStratum } from '../population-stats';
import { bandLimits, sixDigits } from './population';

/** One participant of data/sources/nhanes-reference-population.csv.gz (columns read here). */
export interface Participant {
  age: number;
  sex: Sex;
  weight: number;
  columns: Record<string, number | null>;
}

interface Derivation {
  unit: string;
  formula: string;
  value(p: Participant): number | null;
}

const col = (p: Participant, name: string) => p.columns[name] ?? null;

/**
 * Scoring predictors the stats file does not hold, computed per participant of the NHANES 2017–2020
 * reference population, the way the scoring engine derives them from a person's labs.
 */
export const DERIVATIONS: Readonly<Record<string, Derivation>> = {
  egfr: {
    unit: 'mL/min/{1.73_m2}',
    formula: 'CKD-EPI 2021 creatinine equation (functions/scoring/models/ckd-epi.ts) of creatinine_mg_dL, age, sex',
    value: (p) => {
      const creatinine = col(p, 'creatinine_mg_dL');
      return creatinine === null ? null : ckdEpi2021(creatinine, p.age, p.sex);
    },
  },
  lymphocyte_count: {
    unit: '10*3/uL',
    formula: 'wbc_1000_uL × lymphocyte_pct / 100',
    value: (p) => {
      const wbc = col(p, 'wbc_1000_uL');
      const pct = col(p, 'lymphocyte_pct');
      return wbc === null || pct === null ? null : (wbc * pct) / 100;
    },
  },
  non_hdl: {
    unit: 'mg/dL',
    formula: 'total_chol_mg_dL − hdl_mg_dL',
    value: (p) => {
      const total = col(p, 'total_chol_mg_dL');
      const hdl = col(p, 'hdl_mg_dL');
      return total === null || hdl === null ? null : total - hdl;
    },
  },
};

/** The age bands of the stats file's 1999–2018 set, which also starts at 20, plus the all-adult row. */
const BANDS = [...Array.from({ length: 12 }, (_, i) => `${20 + 5 * i}-${24 + 5 * i}`), '80+', '20+'];

function stratumOf(sex: Sex, band: string, values: number[], weights: number[]): PopulationStratum {
  const limits = bandLimits(band);
  const [p01, p05, p95, p99] = weightedQuantiles(values, weights, [0.01, 0.05, 0.95, 0.99]).map(sixDigits);
  return { sex, age_band: band, age_from: limits.from, age_to: limits.to, n: values.length, mean: sixDigits(weightedMean(values, weights)), p01: p01!, p05: p05!, p95: p95!, p99: p99! };
}

/** Survey-weighted (wt_mec) statistics of a derived predictor by sex × age band, as the stats file computes them. */
export function derivedPopulation(key: string, participants: readonly Participant[]): PredictorPopulation {
  const derivation = DERIVATIONS[key];
  if (!derivation) throw new Error(`no derivation for ${key}`);
  const strata: PopulationStratum[] = [];
  for (const sex of ['male', 'female'] as const) {
    for (const band of BANDS) {
      const { from, to } = bandLimits(band);
      const values: number[] = [];
      const weights: number[] = [];
      for (const p of participants) {
        if (p.sex !== sex || p.age < from || (to !== null && p.age >= to)) continue;
        const value = derivation.value(p);
        if (value === null) continue;
        values.push(value);
        weights.push(p.weight);
      }
      if (values.length > 0) strata.push(stratumOf(sex, band, values, weights));
    }
  }
  return {
    unit: derivation.unit,
    dataset: DERIVED_DATASET,
    dataset_name: 'NHANES 2017-March 2020 Pre-Pandemic reference population (participant level, survey-weighted by wt_mec)',
    variable: `${key} = ${derivation.formula}`,
    source_unit: derivation.unit,
    strata,
  };
}

/** Typed participants from the reference population's rows (scripts/csv.ts reads them). */
export function parseParticipants(rows: readonly Record<string, string>[]): Participant[] {
  return rows.map((row) => {
    const columns: Record<string, number | null> = {};
    for (const [name, cell] of Object.entries(row)) {
      const value = Number(cell);
      columns[name] = cell === '' || !Number.isFinite(value) ? null : value;
    }
    return { age: columns.age_years!, sex: row.sex as Sex, weight: columns.wt_mec!, columns };
  });
}
