import type { DiseaseCode } from '../schemas';

export type Sex = 'male' | 'female';

/** Model inputs by catalogue key, in the catalogue's units; binary inputs are 0/1 (peer prevalences may be fractional). */
export type Inputs = Readonly<Record<string, number>>;

export interface IndexValue {
  name: string;
  value: number;
  unit: string | null;
  category: string | null;
}

/** What one model evaluation yields beyond its severity: index values and notes. */
export interface Evaluation {
  indices: IndexValue[];
  notes: string[];
}

/**
 * One outcome a domain's model publishes a probability for, at one horizon (a `risk_ratios` entry).
 * `link` is the model's own additive scale (log-odds, log cumulative hazard, KFRE's linear predictor),
 * so that probabilities saturating at 0 or 1 never lose their order.
 */
export interface RiskOutcome {
  /** `<outcome>_<horizon>`, the key of its peer medians in data/population/peers.json. */
  key: string;
  outcome: string;
  name: string;
  horizonYears: number | null;
  /** Ages the outcome's equations are published for, when narrower than the domain's. */
  ages?: { min: number; max: number; reason: string };
  /** The model's link value, or null when the model yields no probability for these inputs (KFRE outside its validity). */
  link(inputs: Inputs, age: number, sex: Sex): number | null;
  /** Probability (0–1) of a link value. */
  toRisk(link: number): number;
  /** Why this outcome has no peer risk to compare with (null when peers are tabulated). */
  noPeerReason: string | null;
}

/**
 * One health domain: a published model plus how Hale compares it with peers. Everything numeric
 * comes from data/models/<model>.json.
 */
export interface DomainModel {
  code: DiseaseCode;
  name: string;
  model: { id: string; name: string; citation: string; doi: string | null; version: string };
  /** Catalogue keys the model reads (age and sex are passed separately). */
  inputs: readonly string[];
  /** Inputs without which the domain is not scored (an imputed value would be the whole answer). */
  required: readonly string[];
  /** Ages the model is published for; outside them the domain is not scored. */
  ageRange: { min: number; max: number };
  /**
   * The domain's quantity on the model's additive scale, larger = worse: log-odds (PREVENT, ARIC),
   * log cumulative hazard (PhenoAge), −ln eGFR, ln FIB-4. Peers, percentiles, health_score and
   * disease_age are all computed on it; it is finite for every finite input, where a probability may
   * round to 0 or 1.
   */
  severity(inputs: Inputs, age: number, sex: Sex): number;
  /** The probability of the primary outcome (`outcomes[0]`) from a severity; null for index domains. */
  riskOfSeverity: ((severity: number) => number) | null;
  /** Every outcome and horizon the model publishes, the primary one first (`risk_ratios`). */
  outcomes: readonly RiskOutcome[];
  /** Why risk_ratios are null, for models that never yield a probability. */
  noRiskReason: string | null;
  evaluate(inputs: Inputs, age: number, sex: Sex): Evaluation;
  /** The model's own biological age from a severity (PhenoAge); otherwise disease_age comes from the peer curve. */
  biologicalAge?: { of(severity: number): number; fittedAges: { min: number; max: number } };
}
