import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildConcepts, type CuratedConcepts, type LoincRow, type Release } from '../functions/reference/build/concepts';
import { DERIVATIONS, derivedPopulation, parseParticipants } from '../functions/reference/build/derived-population';
import { buildLabRanges, type PrintedRangeRow } from '../functions/reference/build/lab-ranges';
import { type OptimalRangeGuidelines, resolveOptimalRanges } from '../functions/reference/build/optimal-ranges';
import { buildPopulationStats, type NhanesStatsFile } from '../functions/reference/build/population';
import { buildPredictorLabRanges } from '../functions/reference/build/predictor-lab-ranges';
import { LabRangesResponseSchema, ReferenceDataResponseSchema, type ReferenceDataEntry } from '../functions/reference/schemas';
import { SCORING_PREDICTORS } from '../functions/scoring/catalogue';
import { readReferencePopulation, readSourceCsv, readSourceJson } from './csv';

/**
 * Rebuilds data/reference/*.json from data/sources/, data/optimal-ranges.json and the curated inputs
 * in data/reference/ (see data/README.md). Deterministic: the same inputs (and the previous release's
 * concepts.json, whose timestamps carry over) give the same bytes. Run: `npx tsx scripts/build-reference-data.ts`.
 */

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'data/reference');

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

function readCsv<T>(name: string): T[] {
  return readSourceCsv(name) as unknown as T[];
}

/** Every derived file, by name; `previous` is the last release's concepts.json (timestamps carry over). */
export function buildReferenceData(previous: readonly ReferenceDataEntry[]): Record<string, unknown> {
  const stats = readSourceJson<NhanesStatsFile>('nhanes-biomarker-stats.json');
  const participants = parseParticipants(readReferencePopulation());
  const population = buildPopulationStats(stats, SCORING_PREDICTORS, (key) =>
    DERIVATIONS[key] ? derivedPopulation(key, participants) : undefined,
  );
  const unexplained = SCORING_PREDICTORS.filter((p) => p.kind === 'continuous' && p.key !== 'age' && !population[p.key]);
  if (unexplained.length > 0) throw new Error(`continuous predictors without population statistics: ${unexplained.map((p) => p.key).join(', ')}`);
  const units = Object.fromEntries(SCORING_PREDICTORS.map((p) => [p.key, p.ucumUnit]));
  const guidelines = readJson<OptimalRangeGuidelines>(path.join(ROOT, 'data/optimal-ranges.json'));

  const concepts = buildConcepts(
    readCsv<LoincRow>('loinc-common-labs.csv'),
    readCsv<LoincRow>('loinc-scoring-inputs.csv'),
    readJson<CuratedConcepts>(path.join(OUT, 'curated-concepts.json')),
    readJson<Release>(path.join(OUT, 'release.json')),
    previous,
  );
  const known = new Set(concepts.map((c) => c.concept_code));
  const missing = SCORING_PREDICTORS.flatMap((p) => p.observationCodes).filter((code) => !known.has(code));
  if (missing.length > 0) throw new Error(`scoring codes without a reference concept: ${missing.join(', ')}`);

  const labRanges = LabRangesResponseSchema.parse(buildLabRanges(readCsv<PrintedRangeRow>('lab-reference-ranges.csv'), concepts));
  return {
    'population-stats.json': population,
    'optimal-ranges.json': resolveOptimalRanges(guidelines, population, units),
    'concepts.json': ReferenceDataResponseSchema.parse(concepts),
    'lab-ranges.json': labRanges,
    'predictor-lab-ranges.json': buildPredictorLabRanges(SCORING_PREDICTORS, labRanges),
  };
}

export const CONCEPTS_FILE = path.join(OUT, 'concepts.json');

function main(): void {
  const previous = existsSync(CONCEPTS_FILE) ? readJson<ReferenceDataEntry[]>(CONCEPTS_FILE) : [];
  for (const [name, value] of Object.entries(buildReferenceData(previous))) {
    writeFileSync(path.join(OUT, name), `${JSON.stringify(value, null, 1)}\n`);
  }
}

if (require.main === module) main();
