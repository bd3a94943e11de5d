import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type OptimalRangeGuidelines, resolveOptimalRanges } from '../functions/reference/build/optimal-ranges';
import { buildPopulationStats, type NhanesStatsFile } from '../functions/reference/build/population';
import { SCORING_PREDICTORS } from '../functions/scoring/catalogue';

/**
 * Rebuilds data/reference/*.json from ../shared/data/ and data/optimal-ranges.json (see data/README.md).
 * Deterministic: the same inputs give the same bytes. Run: `npx tsx scripts/build-reference-data.ts`.
 */

const ROOT = path.resolve(__dirname, '..');
const SHARED = path.resolve(ROOT, '../shared/data');
const OUT = path.join(ROOT, 'data/reference');

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
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
}

main();
