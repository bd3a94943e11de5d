import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

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

/** The participant rows of ../shared/data/nhanes-reference-population.csv.gz, every cell as text. */
export function readReferencePopulation(sharedDataDir: string): Record<string, string>[] {
  return parseCsv(gunzipSync(readFileSync(path.join(sharedDataDir, 'nhanes-reference-population.csv.gz'))).toString('utf8'));
}
