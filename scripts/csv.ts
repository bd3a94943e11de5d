import { existsSync, readFileSync } from 'node:fs';
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

/** The raw datasets the data builds start from, committed with their provenance (data/sources/README.md). */
export const SOURCES_DIR = path.resolve(__dirname, '../data/sources');

/** Bytes of one source file; a missing file names itself and where sources live instead of a bare ENOENT. */
export function readSource(name: string, dir = SOURCES_DIR): Buffer {
  const file = path.join(dir, name);
  if (!existsSync(file)) {
    throw new Error(`Source dataset ${name} is missing from ${dir}; the data builds read only data/sources/ (see data/sources/README.md)`);
  }
  return readFileSync(file);
}

/** Rows of a CSV source file. */
export function readSourceCsv(name: string, dir = SOURCES_DIR): Record<string, string>[] {
  return parseCsv(readSource(name, dir).toString('utf8'));
}

/** A JSON source file. */
export function readSourceJson<T>(name: string, dir = SOURCES_DIR): T {
  return JSON.parse(readSource(name, dir).toString('utf8')) as T;
}

/** The participant rows of data/sources/nhanes-reference-population.csv.gz, every cell as text. */
export function readReferencePopulation(dir = SOURCES_DIR): Record<string, string>[] {
  return parseCsv(gunzipSync(readSource('nhanes-reference-population.csv.gz', dir)).toString('utf8'));
}
