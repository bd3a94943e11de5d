import { reportFonts } from '../functions/report/fonts';
import { renderReport } from '../functions/report/layout/render-report';
import type { ReportDocumentInput } from '../functions/report/layout/types';
import { documentInput } from '../test/unit/report/fixtures';
import { type Bench, type BenchRow, percentile, round } from './types';

/**
 * Report budgets (issue 7): render a full report of 10 events × 6 domains in ≤ 200 ms and ≤ 400 KB,
 * a condensed one in ≤ 80 ms (p95 of RUNS renders after WARMUP, same process, fonts loaded once as in
 * a warm Lambda container).
 */
const WARMUP = 3;
const RUNS = 20;

async function timeRenders(input: ReportDocumentInput): Promise<{ p50: number; p95: number; bytes: number }> {
  const fonts = reportFonts();
  let bytes = 0;
  for (let i = 0; i < WARMUP; i++) await renderReport(input, fonts, new Date());
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const pdf = await renderReport(input, fonts, new Date());
    samples.push(performance.now() - started);
    bytes = pdf.length;
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), bytes };
}

const bench: Bench = async () => {
  const full = await timeRenders(documentInput('full', 10));
  const condensed = await timeRenders(documentInput('condensed', 1));
  const rows: BenchRow[] = [
    { area: 'report', metric: 'render full, 10 events × 6 domains, p50', value: round(full.p50, 1), unit: 'ms', budget: '', pass: null },
    { area: 'report', metric: 'render full, 10 events × 6 domains, p95', value: round(full.p95, 1), unit: 'ms', budget: '≤ 200 ms', pass: full.p95 <= 200 },
    { area: 'report', metric: 'full report size', value: round(full.bytes / 1024, 1), unit: 'KB', budget: '≤ 400 KB', pass: full.bytes <= 400 * 1024 },
    { area: 'report', metric: 'render condensed, p95', value: round(condensed.p95, 1), unit: 'ms', budget: '≤ 80 ms', pass: condensed.p95 <= 80 },
  ];
  return rows;
};

export default bench;
