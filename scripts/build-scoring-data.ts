import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SCORING_PREDICTORS } from '../functions/scoring/catalogue';

/**
 * Rebuilds the scoring engine's derived data in data/population/ from ../shared/data/ (see
 * data/population/README.md). Deterministic: same inputs, same bytes. Run: `npx tsx scripts/build-scoring-data.ts`.
 */

const ROOT = path.resolve(__dirname, '..');
const SHARED = path.resolve(ROOT, '../shared/data');
const OUT = path.join(ROOT, 'data/population');

interface Stratum {
  sex: string;
  age_band: string;
  min: number;
  max: number;
}
interface StatsFile {
  datasets: Record<string, Record<string, { unit: string; strata: Stratum[] }>>;
}

/** Widening factor on the observed NHANES range: see data/population/README.md ("Physiological bounds"). */
const BOUNDS_WIDENING = 2;

function round6(value: number): number {
  return Number(value.toPrecision(6));
}

function buildBounds(stats: StatsFile) {
  const bounds: Record<string, { min: number; max: number; source: string }> = {};
  for (const predictor of SCORING_PREDICTORS) {
    if (!predictor.nhanes) continue;
    const variable = stats.datasets[predictor.nhanes.dataset]?.[predictor.nhanes.variable];
    if (!variable) throw new Error(`nhanes-biomarker-stats.json has no ${predictor.nhanes.dataset}.${predictor.nhanes.variable}`);
    const observedMin = Math.min(...variable.strata.map((s) => s.min));
    const observedMax = Math.max(...variable.strata.map((s) => s.max));
    const percent = predictor.ucumUnit === '%';
    bounds[predictor.key] = {
      min: round6(observedMin / BOUNDS_WIDENING),
      max: round6(percent ? Math.min(100, observedMax * BOUNDS_WIDENING) : observedMax * BOUNDS_WIDENING),
      source:
        `NHANES observed range of ${predictor.nhanes.variable} (${observedMin}–${observedMax} ${variable.unit}, ` +
        `${predictor.nhanes.dataset}, nhanes-biomarker-stats.json) widened ×${BOUNDS_WIDENING} each way`,
    };
  }
  return bounds;
}

function writeJson(name: string, value: unknown): void {
  writeFileSync(path.join(OUT, name), `${JSON.stringify(value, null, 1)}\n`);
}

function main(): void {
  const stats = JSON.parse(readFileSync(path.join(SHARED, 'nhanes-biomarker-stats.json'), 'utf8')) as StatsFile;
  writeJson('predictor-bounds.json', {
    source: '../shared/data/nhanes-biomarker-stats.json (NHANES, CDC/NCHS, public domain); built by scripts/build-scoring-data.ts',
    bounds: buildBounds(stats),
  });
}

main();
