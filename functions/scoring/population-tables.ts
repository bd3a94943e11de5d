import type { DiseaseCode } from './schemas';

/**
 * Shapes of the precomputed population tables in data/population/ (written by
 * scripts/build-scoring-data.ts, read once per container by population.ts), and the age bands.
 */

export interface AgeBand {
  label: string;
  from: number;
  /** Exclusive; null for the open top band (NHANES top-codes age at 80). */
  to: number | null;
}

export const AGE_BANDS: readonly AgeBand[] = [
  ...Array.from({ length: 12 }, (_, i) => ({ label: `${20 + 5 * i}-${24 + 5 * i}`, from: 20 + 5 * i, to: 25 + 5 * i })),
  { label: '80+', from: 80, to: null },
];

/** Index of the 5-year band holding `age`; ages under 20 use the youngest band, 80 and over the top one. */
export function bandIndex(age: number): number {
  if (age < 20) return 0;
  return Math.min(AGE_BANDS.length - 1, Math.floor((age - 20) / 5));
}

/** One sex × age band of a domain's peers. Severity is the domain's additive scale (see `DomainModel.severity`). */
export interface BandPeers {
  band: string;
  n: number;
  sum_weight: number;
  /** Weighted mean age of the band's peers (80+: the mean age of the US population aged 80 and over): where the band sits on the age axis. */
  mean_age: number;
  /**
   * Weighted quantiles of the severity at 0, 1, …, 100 %, shifted by `monotone_shift` so that the
   * medians rise with age (the peer curve that disease_age inverts).
   */
  quantiles: number[];
  /** What pool-adjacent-violators added to this band's quantiles to make the medians monotone (0 for most bands). */
  monotone_shift: number;
  /** Peer value of each model input: weighted median (continuous) or weighted prevalence (binary). */
  peer_inputs: Record<string, number>;
  /** Weighted 10th and 90th percentile of each continuous model input. */
  input_spread: Record<string, [number, number]>;
  /** Weighted median link value of each further outcome of the domain (`risk_ratios` after the first), by outcome key. */
  outcome_medians: Record<string, number>;
}

export interface DomainPeers {
  population: string;
  weight: string;
  male: BandPeers[];
  female: BandPeers[];
}

export interface PeerTablesFile {
  source: string;
  method: string;
  domains: Record<DiseaseCode, DomainPeers>;
}

export interface TopPredictorsFile {
  source: string;
  method: string;
  domains: { disease: DiseaseCode; population: string; predictors: { key: string; strength: number }[] }[];
}
