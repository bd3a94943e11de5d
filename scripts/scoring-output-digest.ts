import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { scoreItems } from '../functions/bulk/results';
import { scoreBatch } from '../functions/scoring/batch';
import type { PredictorInput, TimeseriesRequest } from '../functions/scoring/schemas';
import { scoreRequest } from '../functions/scoring/score-request';
import { seededRandom } from './seeded-random';

/**
 * A digest of what scoring answers for 3,000 varied requests, to show that a change made for speed
 * changed no output: run it before and after the change and compare the digests
 * (`npx tsx scripts/scoring-output-digest.ts [--out outputs.txt]`; with --out, every output is
 * written, one per line, to diff). The requests vary what changes the engine's path: sex, age 20–105,
 * one to four events (carry-forward), one to four dates, how complete the panel is, printed units,
 * censored, unparseable, unconvertible and out-of-range values, unknown codes and all three modes.
 * Covered: timeseries responses and their issues, the batch endpoint's responses, and bulk batches
 * (JSONL and CSV) as the bytes of their part files, error lines and tally.
 */

const REQUESTS = 3_000;
const BULK_BATCH = 118;
const DAY_MS = 86_400_000;
const next = seededRandom(20261126);
const pick = <T>(options: readonly T[]): T => options[Math.floor(next() * options.length)]!;
const between = (min: number, max: number, digits = 2) => (min + (max - min) * next()).toFixed(digits);
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Code → a printed value and unit, in one of the spellings a lab report uses. */
const PANEL: readonly [string, () => [string, string]][] = [
  ['1751-7', () => pick([[between(3.2, 5.2), 'g/dL'], [between(32, 52, 0), 'g/L']])],
  ['2160-0', () => pick([[between(0.5, 2.5), 'mg/dL'], [between(50, 200, 0), 'umol/L']])],
  ['2345-7', () => pick([[between(70, 240, 0), 'mg/dL'], [between(4, 12, 1), 'mmol/L']])],
  ['1558-6', () => [between(70, 160, 0), 'mg/dL']],
  ['4548-4', () => pick([[between(4.5, 9, 1), '%'], [between(30, 70, 0), 'mmol/mol']])],
  ['30522-7', () => pick([[between(0.2, 12), 'mg/L'], ['<0.3', 'mg/L'], [between(0.02, 1), 'mg/dL']])],
  ['736-9', () => [between(12, 45, 1), '%']],
  ['731-0', () => [between(0.8, 3.5), '10*3/uL']],
  ['787-2', () => [between(78, 102, 1), 'fL']],
  ['788-0', () => [between(11.5, 17, 1), '%']],
  ['6768-6', () => pick([[between(35, 140, 0), 'U/L'], [between(35, 140, 0), 'IU/L']])],
  ['6690-2', () => pick([[between(3.5, 11), 'x10E3/uL'], [between(3.5, 11), 'K/uL']])],
  ['2093-3', () => pick([[between(130, 300, 0), 'mg/dL'], [between(3.5, 8), 'mmol/L']])],
  ['2085-9', () => pick([[between(28, 95, 0), 'mg/dL'], [between(0.8, 2.4), 'mmol/L']])],
  ['43396-1', () => [between(90, 220, 0), 'mg/dL']],
  ['2571-8', () => pick([[between(50, 400, 0), 'mg/dL'], [between(0.6, 4.5), 'mmol/L']])],
  ['8480-6', () => pick([[between(95, 185, 0), 'mmHg'], [between(95, 185, 0), 'mm[Hg]']])],
  ['39156-5', () => [between(17, 45, 1), 'kg/m2']],
  ['8302-2', () => pick([[between(150, 195, 0), 'cm'], [between(59, 76, 0), 'in']])],
  ['29463-7', () => pick([[between(45, 140, 1), 'kg'], [between(100, 300, 0), 'lb']])],
  ['8280-0', () => [between(65, 130, 0), 'cm']],
  ['98979-8', () => [between(20, 120, 0), 'mL/min/{1.73_m2}']],
  ['9318-7', () => (next() < 0.05 ? [between(0.3, 30, 1), 'mg/mmol'] : [between(2, 400, 1), 'mg/g'])],
  ['1920-8', () => [between(10, 90, 0), 'U/L']],
  ['1742-6', () => [between(8, 110, 0), 'U/L']],
  ['777-3', () => pick([[between(90, 420, 0), 'K/uL'], [between(90, 420, 0), '10*3/uL']])],
  ['72166-2', () => [pick(['yes', 'no', 'no', 'current', 'never', 'former']), '']],
  ['73211009', () => [pick(['yes', 'no', 'no', 'no']), '']],
  ['308116003', () => [pick(['yes', 'no', 'true', 'false', '0', '1']), '']],
  ['96302009', () => [pick(['yes', 'no', 'no']), '']],
  ['160303001', () => [pick(['yes', 'no']), '']],
];

let ids = 0;
function predictors(sex: string | null): PredictorInput[] {
  const out: PredictorInput[] = sex === null ? [] : [{ id: `p${++ids}`, observation_code: '76689-9', value: sex, unit: '' }];
  const completeness = 0.35 + 0.65 * next();
  for (const [code, printed] of PANEL) {
    if (next() > completeness) continue;
    let [value, unit] = printed();
    const fault = next();
    if (fault < 0.003) value = 'abc';
    else if (fault < 0.005) unit = 'furlongs';
    else if (fault < 0.007) value = '99999';
    out.push({ id: `p${++ids}`, observation_code: code, value, unit });
  }
  if (next() < 0.05) out.push({ id: `p${++ids}`, observation_code: '12345-6', value: '1', unit: 'mg/dL' });
  return out;
}

const metadata = (mode: TimeseriesRequest['scoring_event_metadata']['mode']) => ({
  event_id: '5b0c7e4e-2f57-4d3b-9c1e-8a7d6f5e4c3b',
  event_asof_dtutc: '2026-11-22T00:00:00Z',
  mode,
});

function request(i: number): TimeseriesRequest {
  const sex = next() < 0.02 ? null : pick(['male', 'female', 'M', 'f']);
  const birth = Date.parse('1925-01-01') + next() * 80 * 365.25 * DAY_MS;
  const last = Math.min(Date.parse('2026-11-20'), birth + (20 + next() * 85) * 365.25 * DAY_MS);
  const events = next() < 0.6 ? 1 : 1 + Math.floor(next() * 4);
  const health_events = Array.from({ length: events }, (_, k) => ({
    health_event_id: `e${k}`,
    health_event_date: isoDate(last - (events - 1 - k) * (100 + next() * 500) * DAY_MS),
    predictors: predictors(k === 0 || next() < 0.5 ? sex : null),
  }));
  const dates = Array.from({ length: next() < 0.7 ? 1 : 1 + Math.floor(next() * 4) }, () => isoDate(last - Math.floor(next() * 3) * 200 * DAY_MS));
  return {
    scoring_event_metadata: metadata(pick(['validate_and_score', 'validate_and_score', 'score', 'score', 'validate'] as const)),
    uid_ext: `person-${i}`,
    date_of_birth: isoDate(birth),
    dates_to_score: [...new Set(dates)],
    health_events,
  };
}

function outputs(): Record<string, string[]> {
  const requests = Array.from({ length: REQUESTS }, (_, i) => request(i));
  const timeseries = [...requests, null, [], {}, { ...requests[0], dates_to_score: [] }].map((body) => JSON.stringify(scoreRequest(body)));
  const batch: string[] = [];
  for (let start = 0; start < REQUESTS; start += 100) {
    const persons = requests.slice(start, start + 100).map((r, k) => {
      const event = r.health_events.at(-1)!;
      return k === 5 ? 'not a person' : { uid_ext: r.uid_ext, date_of_birth: r.date_of_birth, score_date: event.health_event_date, predictors: event.predictors };
    });
    batch.push(JSON.stringify(scoreBatch({ scoring_event_metadata: metadata(start % 300 === 0 ? 'score' : 'validate_and_score'), persons })));
  }
  const context = { jobId: '5b0c7e4e-2f57-4d3b-9c1e-8a7d6f5e4c3b', createdAt: '2026-11-22T00:00:00.000Z' };
  const part = (items: Parameters<typeof scoreItems>[0], inputType: 'JSONL' | 'CSV') => {
    const scored = scoreItems(items, { ...context, inputType, lineOffset: inputType === 'CSV' ? 2 : 1 });
    return JSON.stringify({ results: scored.results.toBuffer().toString('utf8'), rows: scored.csvRows.toBuffer().toString('utf8'), errors: scored.errors, tally: scored.tally });
  };
  const columns = ['76689-9', ...PANEL.map(([code]) => code)];
  const unitOf = new Map<string, string>();
  for (const r of requests) for (const e of r.health_events) for (const p of e.predictors) if (!unitOf.has(p.observation_code)) unitOf.set(p.observation_code, p.unit);
  const header = new Map(columns.map((code) => [code, unitOf.get(code) ? `${code} [${unitOf.get(code)}]` : code]));
  const bulk: string[] = [];
  for (let start = 0; start < REQUESTS; start += BULK_BATCH) {
    const slice = requests.slice(start, start + BULK_BATCH);
    bulk.push(part(slice.map((value, k) => ({ index: start + k, value: k === 7 ? 'not an object' : value })), 'JSONL'));
    const rows = slice.map((r, k) => {
      const event = r.health_events.at(-1)!;
      const row: Record<string, string> = { uid_ext: r.uid_ext, date_of_birth: r.date_of_birth, score_date: r.dates_to_score.at(-1)!, event_date: k % 3 ? event.health_event_date : '' };
      for (const column of header.values()) row[column] = '';
      // A value printed in another unit than its column's has no cell: the row leaves it out.
      for (const p of event.predictors) if (header.get(p.observation_code) === (p.unit ? `${p.observation_code} [${p.unit}]` : p.observation_code)) row[header.get(p.observation_code)!] = p.value;
      return { index: start + k, value: row };
    });
    bulk.push(part(rows, 'CSV'));
  }
  return { timeseries, batch, bulk };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const all = outputs();
const out = process.argv.indexOf('--out');
if (out > 0) writeFileSync(process.argv[out + 1]!, `${Object.values(all).flat().join('\n')}\n`);
for (const [name, texts] of Object.entries(all)) process.stdout.write(`${name.padEnd(10)} ${texts.length} outputs, sha256 ${sha256(texts.join('\n'))}\n`);
process.stdout.write(`all        sha256 ${sha256(Object.values(all).flat().join('\n'))}\n`);
