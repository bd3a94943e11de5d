import resolved from '../../data/reference/optimal-ranges.json';
import type { ResolvedOptimalRanges, ResolvedRange } from './build/optimal-ranges';

const RANGES = resolved as ResolvedOptimalRanges;

/**
 * The optimal range of a scoring predictor for a sex, in the catalogue's unit, with its citation
 * (data/optimal-ranges.json, sides a guideline leaves open closed by the rule in data/README.md).
 * Undefined when no guideline gives one: callers must not invent a target.
 */
export function optimalRange(predictorKey: string, sex: 'male' | 'female'): ResolvedRange | undefined {
  return RANGES[predictorKey]?.[sex];
}
