import type { PredictorDefinition } from '../../scoring/catalogue';
import { NHANES_UNIT_TO_UCUM } from '../nhanes-units';
import type { PopulationStatsFile, PopulationStratum, PredictorPopulation } from '../population-stats';
import { ucum } from './ucum';

/** Shape of `data/sources/nhanes-biomarker-stats.json` (the parts read here). */
export interface NhanesStatsFile {
  source: { datasets: Record<string, { dataset_name: string }> };
  datasets: Record<string, Record<string, NhanesVariable>>;
}
interface NhanesVariable {
  variable: string;
  label?: string;
  unit: string;
  strata: NhanesStratum[];
}
interface NhanesStratum {
  sex: 'male' | 'female';
  age_band: string;
  n: number;
  mean: number;
  p01: number;
  p05: number;
  p50: number;
  p95: number;
  p99: number;
}

/** The stats file keeps 6 significant digits; conversions must not add float noise beyond that. */
export function sixDigits(value: number): number {
  return Number(value.toPrecision(6));
}

/** Converts with UCUM; identical units pass through untouched. */
export function convert(value: number, fromUcum: string, toUcum: string): number {
  if (fromUcum === toUcum) return value;
  const result = ucum.convertUnitTo(fromUcum, value, toUcum);
  if (result.status !== 'succeeded' || typeof result.toVal !== 'number') {
    throw new Error(`cannot convert ${fromUcum} to ${toUcum}: ${result.msg.join('; ')}`);
  }
  return sixDigits(result.toVal);
}

function ucumOf(nhanesUnit: string): string {
  const code = NHANES_UNIT_TO_UCUM[nhanesUnit];
  if (!code) throw new Error(`no UCUM code for NHANES unit "${nhanesUnit}"`);
  return code;
}

/** Parses "25-29", "80+", "18+", "20-24" into an inclusive-lower, exclusive-upper age interval. */
export function bandLimits(band: string): { from: number; to: number | null } {
  const range = /^(\d+)-(\d+)$/.exec(band);
  if (range) return { from: Number(range[1]), to: Number(range[2]) + 1 };
  const open = /^(\d+)\+$/.exec(band);
  if (open) return { from: Number(open[1]), to: null };
  throw new Error(`unexpected age band "${band}"`);
}

/**
 * Per predictor with NHANES statistics (the catalogue names dataset and variable), its sex × age-band
 * strata converted to the unit the scoring engine computes in; predictors the stats file lacks come
 * from `derived` (computed from the participant-level reference population) where it has them.
 */
export function buildPopulationStats(
  stats: NhanesStatsFile,
  predictors: readonly PredictorDefinition[],
  derived: (key: string) => PredictorPopulation | undefined,
): PopulationStatsFile {
  const out: PopulationStatsFile = {};
  for (const predictor of [...predictors].sort((a, b) => a.key.localeCompare(b.key))) {
    if (!predictor.nhanes) {
      const population = derived(predictor.key);
      if (population) {
        if (population.unit !== predictor.ucumUnit) throw new Error(`${predictor.key}: derived in ${population.unit}, scored in ${predictor.ucumUnit}`);
        out[predictor.key] = population;
      }
      continue;
    }
    const { dataset, variable: name } = predictor.nhanes;
    const variable = stats.datasets[dataset]?.[name];
    if (!variable) throw new Error(`${dataset} has no variable ${name}`);
    const from = ucumOf(variable.unit);
    const unit = predictor.ucumUnit;
    const strata: PopulationStratum[] = variable.strata.map((s) => {
      const limits = bandLimits(s.age_band);
      return {
        sex: s.sex,
        age_band: s.age_band,
        age_from: limits.from,
        age_to: limits.to,
        n: s.n,
        mean: convert(s.mean, from, unit),
        p01: convert(s.p01, from, unit),
        p05: convert(s.p05, from, unit),
        p95: convert(s.p95, from, unit),
        p99: convert(s.p99, from, unit),
      };
    });
    out[predictor.key] = {
      unit,
      dataset,
      dataset_name: stats.source.datasets[dataset]?.dataset_name ?? dataset,
      variable: `${name} (${variable.variable})`,
      source_unit: variable.unit,
      strata,
    };
  }
  return out;
}
