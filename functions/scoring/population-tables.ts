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

export interface BandPeers {
  band: string;
  n: number;
  sum_weight: number;
  /** Weighted mean age of the band's peers: where the band sits on the peer curve. */
  mean_age: number;
  /** Weighted mean of the domain value (risk or index). */
  mean_value: number;
  /** mean_value made monotone across bands (pool-adjacent-violators) so that disease_age can be inverted. */
  curve_value: number;
  /** Weighted mean model risk (probability models), else null. */
  mean_risk: number | null;
  /** Weighted quantiles of the domain value at 0, 1, …, 100 %. */
  quantiles: number[];
  /** Peer value of each model input: weighted median (continuous) or weighted prevalence (binary). */
  peer_inputs: Record<string, number>;
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

export interface MediansFile {
  source: string;
  bands: string[];
  /** Weighted median by predictor key, sex and band (AGE_BANDS order), in catalogue units. */
  medians: Record<string, { male: number[]; female: number[]; source: string }>;
}

export interface TopPredictorsFile {
  source: string;
  method: string;
  domains: { disease: DiseaseCode; population: string; predictors: { key: string; strength: number }[] }[];
}
