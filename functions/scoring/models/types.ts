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

/** What one model evaluation yields for one person at one age. */
export interface Evaluation {
  /** The quantity compared with peers: a probability, or an index (eGFR, FIB-4). */
  value: number;
  /** Model probability over `horizonYears`; null when the model yields none (index models, KFRE outside validity). */
  risk: number | null;
  /** Horizon of `risk` when it differs from the domain's (KFRE's 5 years in the kidney domain). */
  horizonYears?: number;
  indices: IndexValue[];
  notes: string[];
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
  /** Horizon of `risk`, years; null for index models. */
  horizonYears: number | null;
  /** Whether a higher `value` is worse (risks, FIB-4) or better (eGFR). */
  higherIsWorse: boolean;
  /** Why risk_ratios are null, for models that never yield a probability. */
  noRiskReason: string | null;
  evaluate(inputs: Inputs, age: number, sex: Sex): Evaluation;
  /** A cheaper evaluation of `value` alone (used in attributions, optimal profiles, peer builds). */
  value(inputs: Inputs, age: number, sex: Sex): number;
  /** `risk` of `evaluate` alone, for the same reason. */
  risk(inputs: Inputs, age: number, sex: Sex): number | null;
  /** The model's own biological age from its value, when it defines one (PhenoAge); otherwise disease_age comes from the peer curve. */
  biologicalAge?(value: number): number;
}
