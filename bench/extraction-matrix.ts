import type { ExpectedOutcome } from '../test/fixtures/labs/report-types';
import { emptyScore, FIELDS, mergeScore, precisionRecall, type Score } from '../test/fixtures/labs/score';
import { round } from './types';

/**
 * The extraction quality matrix: one row per value of each rendering dimension (chunking=glyph,
 * font=courier, date form=M/D/YY, generator=independent, …), one column per budget of issue 11, so a
 * weak spot shows by name. Each document counts in every row of a value it has.
 */

/** How reading one document ended, and what it cost. */
export interface DocumentMeasure {
  dimensions: Record<string, string>;
  expected: ExpectedOutcome;
  /** The reader's outcome; an accepted document without results ends `no_results_found`, as the pipeline ends it. */
  outcome: { status: 'completed' } | { status: 'failed'; errorType: string; detectedLab: string | null };
  /** Accepted, yet no result: a document the pipeline would have completed empty before issue 11. */
  empty: boolean;
  /** Field scores against the truth (documents expected to complete only). */
  score: Score;
  pages: number;
  /** CPU microseconds of the reader and of the bare pdf.js text extraction of the same bytes. */
  readerCpu: number;
  bareCpu: number;
}

export const BUDGET = { field: 0.995, loinc: 0.98 } as const;

/** Totals of the documents of one matrix row. */
export interface Group {
  label: string;
  docs: number;
  score: Score;
  refusalsExpected: number;
  refusalsRight: number;
  reportsRefused: number;
  empty: number;
  readerCpu: number;
  bareCpu: number;
  pages: number;
}

function letters(name: string | null | undefined): string {
  return (name ?? '').toLowerCase().replace(/[^a-z]/g, '');
}

const SUPPORTED = ['questdiagnostics', 'quest', 'labcorp', 'laboratorycorporationofamerica'];

/** The other laboratory is named, and not as Quest or Labcorp (`Sonora Quest` is not Quest). */
function sameLab(detected: string | null, expected: string | undefined): boolean {
  const a = letters(detected);
  const b = letters(expected);
  return a !== '' && !SUPPORTED.includes(a) && (b.includes(a) || a.includes(b));
}

export function outcomeRight(m: Pick<DocumentMeasure, 'expected' | 'outcome'>): boolean {
  const { expected, outcome } = m;
  if (expected.status === 'completed') return outcome.status === 'completed';
  if (outcome.status !== 'failed' || outcome.errorType !== expected.errorType) return false;
  return expected.errorType !== 'non_supported_lab' || sameLab(outcome.detectedLab, expected.detectedLab);
}

export function group(label: string, measures: readonly DocumentMeasure[]): Group {
  const g: Group = { label, docs: 0, score: emptyScore(), refusalsExpected: 0, refusalsRight: 0, reportsRefused: 0, empty: 0, readerCpu: 0, bareCpu: 0, pages: 0 };
  for (const m of measures) {
    g.docs++;
    mergeScore(g.score, m.score);
    if (m.expected.status === 'failed') {
      g.refusalsExpected++;
      if (outcomeRight(m)) g.refusalsRight++;
    } else if (m.outcome.status === 'failed') g.reportsRefused++;
    if (m.empty) g.empty++;
    g.readerCpu += m.readerCpu;
    g.bareCpu += m.bareCpu;
    g.pages += m.pages;
  }
  return g;
}

function ratio(correct: number, expected: number): number | null {
  return expected === 0 ? null : correct / expected;
}

/** Every budget of issue 11 the group's documents are measured against, and whether each is met. */
export function budgets(g: Group): Array<{ name: string; value: number | null; pass: boolean }> {
  const s = g.score;
  const checks: Array<{ name: string; value: number | null; pass: boolean }> = [];
  for (const field of FIELDS) {
    const { precision, recall } = precisionRecall(s, field);
    if (s.truthCount > 0) checks.push({ name: `${field} recall`, value: recall, pass: recall >= BUDGET.field });
    if (s.extractedCount > 0) checks.push({ name: `${field} precision`, value: precision, pass: precision >= BUDGET.field });
  }
  const loinc = ratio(s.loinc.correct, s.loinc.expected);
  if (loinc !== null) checks.push({ name: 'LOINC exact', value: loinc, pass: loinc >= BUDGET.loinc });
  const ucum = ratio(s.printedUnits.correct, s.printedUnits.expected);
  if (ucum !== null) checks.push({ name: 'UCUM of printed units', value: ucum, pass: ucum === 1 });
  const refusals = ratio(g.refusalsRight, g.refusalsExpected);
  if (refusals !== null) checks.push({ name: 'refusal reasons right', value: refusals, pass: refusals === 1 });
  checks.push({ name: 'invented results', value: null, pass: s.invented === 0 });
  checks.push({ name: 'reports refused', value: null, pass: g.reportsRefused === 0 });
  checks.push({ name: 'accepted with no results', value: null, pass: g.empty === 0 });
  if (g.bareCpu > 0) checks.push({ name: 'parse time', value: null, pass: g.readerCpu / g.bareCpu <= 1.5 });
  return checks;
}

/** One decimal, rounded down, so that only a full score prints as 100. */
function percent(value: number | null): string {
  return value === null ? '–' : `${Math.floor(value * 1000) / 10}`;
}

function pr(s: Score, field: (typeof FIELDS)[number]): string {
  if (s.truthCount === 0) return '–';
  const { precision, recall } = precisionRecall(s, field);
  return `${s.extractedCount === 0 ? '–' : percent(precision)}/${percent(recall)}`;
}

const HEADER = [
  'dimension = value',
  'docs',
  'results',
  ...FIELDS.map((f) => `${f} P/R %`),
  'LOINC %',
  'UCUM %',
  'invented',
  'refusals right',
  'reports refused',
  'accepted, no results',
  'parse × pdf.js',
  'meets',
];

export function matrixRow(g: Group): string {
  const s = g.score;
  const cells = [
    g.label,
    String(g.docs),
    String(s.truthCount),
    ...FIELDS.map((f) => pr(s, f)),
    percent(ratio(s.loinc.correct, s.loinc.expected)),
    percent(ratio(s.printedUnits.correct, s.printedUnits.expected)),
    String(s.invented),
    g.refusalsExpected === 0 ? '–' : `${g.refusalsRight}/${g.refusalsExpected}`,
    String(g.reportsRefused),
    String(g.empty),
    g.bareCpu === 0 ? '–' : `${round(g.readerCpu / g.bareCpu, 2)}`,
    budgets(g).every((b) => b.pass) ? 'yes' : '**no**',
  ];
  return `| ${cells.join(' | ')} |`;
}

/** Dimensions in the order the matrix lists them; any others follow alphabetically. */
const ORDER = ['all documents', 'generator', 'document kind', 'failure kind', 'layout', 'chunking', 'font', 'size', 'page', 'row spacing', 'pages'];

/** One group per value of each dimension, plus all documents. */
export function matrixGroups(measures: readonly DocumentMeasure[]): Group[] {
  const values = new Map<string, Map<string, DocumentMeasure[]>>();
  for (const m of measures) {
    for (const [dimension, value] of Object.entries(m.dimensions)) {
      const byValue = values.get(dimension) ?? new Map<string, DocumentMeasure[]>();
      byValue.set(value, [...(byValue.get(value) ?? []), m]);
      values.set(dimension, byValue);
    }
  }
  const rank = (d: string) => (ORDER.includes(d) ? ORDER.indexOf(d) : ORDER.length);
  const dimensions = [...values.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return [
    group('all documents', measures),
    ...dimensions.flatMap((d) => [...values.get(d)!.entries()].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })).map(([value, ms]) => group(`${d} = ${value}`, ms))),
  ];
}

export function matrixMarkdown(groups: readonly Group[]): string {
  const lines = [
    '### Lab extraction quality per rendering dimension',
    '',
    `Budgets (issue 11): field precision/recall ≥ ${BUDGET.field * 100} %, LOINC exact ≥ ${BUDGET.loinc * 100} %, a UCUM code for every printed unit, 0 invented, every refusal for the right reason, no report refused, none accepted without results, parse CPU time ≤ 1.5 × bare pdf.js.`,
    'P/R: precision/recall of a field over the documents expected to complete (a refused report counts as every result missed). LOINC and UCUM: of the results read.',
    '',
    `| ${HEADER.join(' | ')} |`,
    `|${HEADER.map(() => '---').join('|')}|`,
    ...groups.map(matrixRow),
  ];
  return lines.join('\n');
}
