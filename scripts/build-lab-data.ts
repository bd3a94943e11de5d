import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readSourceCsv, SOURCES_DIR } from './csv';

/**
 * Rebuilds data/lab/*.json (the LOINC and printed-unit tables the lab parsers read) from
 * data/sources/loinc-common-labs.csv and data/sources/unit-to-ucum.csv; sources in data/lab/README.md.
 * Deterministic: the same inputs give the same bytes. Run: `npx tsx scripts/build-lab-data.ts`.
 */

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'data/lab');

/** The unit table's `vendor` column → the labs (classify-document.ts's ids) that print a spelling. */
const PRINTED_BY: Record<string, string[]> = { Quest: ['quest'], Labcorp: ['labcorp'], both: ['quest', 'labcorp'] };

/** The derived files, by name, exactly as written (JSON with a trailing newline). */
export function buildLabData(sources = SOURCES_DIR): Record<string, string> {
  const loinc = readSourceCsv('loinc-common-labs.csv', sources).map((r) => ({
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
  const units = readSourceCsv('unit-to-ucum.csv', sources).map((r) => ({
    printed: r.printed_unit!,
    ucum: r.ucum_code || null,
    /** Labs that print this spelling (`vendor` column: Quest, Labcorp or both); none for generic, copy-paste and OCR spellings. */
    printedBy: PRINTED_BY[r.vendor!] ?? [],
  }));
  const json = (value: unknown) => `${JSON.stringify(value, null, 1)}\n`;
  return { 'loinc-common-labs.json': json(loinc), 'unit-to-ucum.json': json(units) };
}

function main(): void {
  mkdirSync(OUT, { recursive: true });
  for (const [name, text] of Object.entries(buildLabData())) writeFileSync(path.join(OUT, name), text);
}

if (require.main === module) main();
