import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Rebuilds data/lab/*.json (the LOINC and printed-unit tables the lab parsers read) from
 * ../shared/data/loinc-common-labs.csv and ../shared/data/unit-to-ucum.csv; sources in data/lab/README.md.
 * Deterministic: the same inputs give the same bytes. Run: `npx tsx scripts/build-lab-data.ts`.
 */

const ROOT = path.resolve(__dirname, '..');
const SHARED = path.resolve(ROOT, '../shared/data');
const OUT = path.join(ROOT, 'data/lab');

/** RFC 4180 CSV (quoted fields, doubled quotes), first row = header. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  const [header, ...body] = rows.filter((r) => r.some((cell) => cell !== ''));
  return body.map((r) => Object.fromEntries(header!.map((name, i) => [name, r[i] ?? ''])));
}

function writeJson(name: string, value: unknown): void {
  writeFileSync(path.join(OUT, name), `${JSON.stringify(value, null, 1)}\n`);
}

function main(): void {
  mkdirSync(OUT, { recursive: true });
  const loinc = parseCsv(readFileSync(path.join(SHARED, 'loinc-common-labs.csv'), 'utf8')).map((r) => ({
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
  writeJson('loinc-common-labs.json', loinc);

  const units = parseCsv(readFileSync(path.join(SHARED, 'unit-to-ucum.csv'), 'utf8')).map((r) => ({
    printed: r.printed_unit!,
    ucum: r.ucum_code || null,
  }));
  writeJson('unit-to-ucum.json', units);
  writeJson('observed-extremes.json', observedExtremes());
}

/**
 * NHANES variables of shared/data/nhanes-biomarker-stats.json (2017–March 2020, primary dataset) and
 * the LOINC codes and UCUM unit they measure. NHANES prints enzyme activities in IU/L, i.e. U/L.
 */
const NHANES_TO_LOINC: Record<string, { loinc: string[]; ucum: string }> = {
  albumin: { loinc: ['1751-7'], ucum: 'g/dL' },
  creatinine: { loinc: ['2160-0'], ucum: 'mg/dL' },
  glucose_serum_nonfasting: { loinc: ['2345-7'], ucum: 'mg/dL' },
  glucose_fasting_plasma: { loinc: ['1558-6'], ucum: 'mg/dL' },
  hba1c: { loinc: ['4548-4', '17856-6'], ucum: '%' },
  crp_hs: { loinc: ['30522-7'], ucum: 'mg/L' },
  lymphocyte_pct: { loinc: ['736-9'], ucum: '%' },
  neutrophil_pct: { loinc: ['770-8'], ucum: '%' },
  mcv: { loinc: ['787-2'], ucum: 'fL' },
  rdw: { loinc: ['788-0'], ucum: '%' },
  alkaline_phosphatase: { loinc: ['6768-6'], ucum: 'U/L' },
  wbc: { loinc: ['6690-2', '26464-8'], ucum: '10*3/uL' },
  rbc: { loinc: ['789-8'], ucum: '10*6/uL' },
  hemoglobin: { loinc: ['718-7'], ucum: 'g/dL' },
  hematocrit: { loinc: ['4544-3'], ucum: '%' },
  platelets: { loinc: ['777-3', '26515-7'], ucum: '10*3/uL' },
  total_cholesterol: { loinc: ['2093-3'], ucum: 'mg/dL' },
  hdl: { loinc: ['2085-9'], ucum: 'mg/dL' },
  triglycerides_serum_nonfasting: { loinc: ['2571-8'], ucum: 'mg/dL' },
  alt: { loinc: ['1742-6'], ucum: 'U/L' },
  ast: { loinc: ['1920-8'], ucum: 'U/L' },
  ggt: { loinc: ['2324-2'], ucum: 'U/L' },
  bun: { loinc: ['3094-0'], ucum: 'mg/dL' },
  uric_acid: { loinc: ['3084-1'], ucum: 'mg/dL' },
  total_bilirubin: { loinc: ['1975-2'], ucum: 'mg/dL' },
  total_protein: { loinc: ['2885-2'], ucum: 'g/dL' },
  globulin: { loinc: ['10834-0'], ucum: 'g/dL' },
};

interface NhanesStratum {
  min: number | null;
  max: number | null;
}

/** Lowest and highest value measured in any sex/age stratum: values beyond them are worth a second look. */
function observedExtremes() {
  const stats = JSON.parse(readFileSync(path.join(SHARED, 'nhanes-biomarker-stats.json'), 'utf8')) as {
    source: { primary_dataset: string };
    datasets: Record<string, Record<string, { variable?: string; strata?: NhanesStratum[] }>>;
  };
  const primary = stats.source.primary_dataset;
  const dataset = stats.datasets[primary]!;
  return Object.entries(NHANES_TO_LOINC).map(([key, target]) => {
    const strata = dataset[key]!.strata!;
    return {
      ...target,
      min: Math.min(...strata.map((s) => s.min ?? Number.POSITIVE_INFINITY)),
      max: Math.max(...strata.map((s) => s.max ?? Number.NEGATIVE_INFINITY)),
      variable: `${primary}.${key} (${dataset[key]!.variable})`,
    };
  });
}

if (require.main === module) main();
