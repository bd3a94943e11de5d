import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseCsv } from './csv';

/**
 * Rebuilds data/lab/*.json (the LOINC and printed-unit tables the lab parsers read) from
 * ../shared/data/loinc-common-labs.csv and ../shared/data/unit-to-ucum.csv; sources in data/lab/README.md.
 * Deterministic: the same inputs give the same bytes. Run: `npx tsx scripts/build-lab-data.ts`.
 */

const ROOT = path.resolve(__dirname, '..');
const SHARED = path.resolve(ROOT, '../shared/data');
const OUT = path.join(ROOT, 'data/lab');

/** The derived files, by name, exactly as written (JSON with a trailing newline). */
export function buildLabData(shared = SHARED): Record<string, string> {
  const loinc = parseCsv(readFileSync(path.join(shared, 'loinc-common-labs.csv'), 'utf8')).map((r) => ({
    code: r.loinc_code!,
    longCommonName: r.long_common_name!,
    component: r.component!,
    property: r.property!,
    system: r.system!,
    scale: r.scale!,
    exampleUcum: r.example_ucum_unit || null,
    synonyms: r.synonyms!.split('|').map((s) => s.trim()).filter(Boolean),
    /** Rows the research could not confirm in public material are used only when nothing verified fits. */
    verified: !r.source!.includes('UNVERIFIED'),
  }));
  const units = parseCsv(readFileSync(path.join(shared, 'unit-to-ucum.csv'), 'utf8')).map((r) => ({
    printed: r.printed_unit!,
    ucum: r.ucum_code || null,
  }));
  const json = (value: unknown) => `${JSON.stringify(value, null, 1)}\n`;
  return { 'loinc-common-labs.json': json(loinc), 'unit-to-ucum.json': json(units) };
}

function main(): void {
  mkdirSync(OUT, { recursive: true });
  for (const [name, text] of Object.entries(buildLabData())) writeFileSync(path.join(OUT, name), text);
}

if (require.main === module) main();
