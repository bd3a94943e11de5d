import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildConcepts, type CuratedConcepts, type LoincRow, type Release } from '../functions/reference/build/concepts';
import { buildLabRanges, type PrintedRangeRow } from '../functions/reference/build/lab-ranges';
import { type OptimalRangeGuidelines, resolveOptimalRanges } from '../functions/reference/build/optimal-ranges';
import { buildPopulationStats, type NhanesStatsFile } from '../functions/reference/build/population';
import { buildPredictorLabRanges } from '../functions/reference/build/predictor-lab-ranges';
import { LabRangesResponseSchema, ReferenceDataResponseSchema, type ReferenceDataEntry } from '../functions/reference/schemas';
import { SCORING_PREDICTORS } from '../functions/scoring/catalogue';
import { parseCsv } from './build-lab-data';

/**
 * Rebuilds data/reference/*.json from ../shared/data/, data/optimal-ranges.json and the curated inputs
 * in data/reference/ (see data/README.md). Deterministic: the same inputs (and the previous release's
 * concepts.json, whose timestamps carry over) give the same bytes. Run: `npx tsx scripts/build-reference-data.ts`.
 */

const ROOT = path.resolve(__dirname, '..');
const SHARED = path.resolve(ROOT, '../shared/data');
const OUT = path.join(ROOT, 'data/reference');

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

function readCsv<T>(name: string): T[] {
  return parseCsv(readFileSync(path.join(SHARED, name), 'utf8')) as unknown as T[];
}

function writeJson(name: string, value: unknown): void {
  writeFileSync(path.join(OUT, name), `${JSON.stringify(value, null, 1)}\n`);
}

function main(): void {
  const stats = readJson<NhanesStatsFile>(path.join(SHARED, 'nhanes-biomarker-stats.json'));
  const population = buildPopulationStats(stats, SCORING_PREDICTORS);
  writeJson('population-stats.json', population);

  const units = Object.fromEntries(SCORING_PREDICTORS.map((p) => [p.key, p.ucumUnit]));
  const guidelines = readJson<OptimalRangeGuidelines>(path.join(ROOT, 'data/optimal-ranges.json'));
  writeJson('optimal-ranges.json', resolveOptimalRanges(guidelines, population, units));

  const conceptsFile = path.join(OUT, 'concepts.json');
  const previous = existsSync(conceptsFile) ? readJson<ReferenceDataEntry[]>(conceptsFile) : [];
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
  writeJson('concepts.json', ReferenceDataResponseSchema.parse(concepts));

  const labRanges = LabRangesResponseSchema.parse(buildLabRanges(readCsv<PrintedRangeRow>('lab-reference-ranges.csv'), concepts));
  writeJson('lab-ranges.json', labRanges);
  writeJson('predictor-lab-ranges.json', buildPredictorLabRanges(SCORING_PREDICTORS, labRanges));
}

main();
