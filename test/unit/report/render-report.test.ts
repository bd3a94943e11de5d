import { referenceRangeLookup } from '../../../functions/report/biomarker-ranges';
import { reportFonts } from '../../../functions/report/fonts';
import { WELLNESS_NOTICE } from '../../../functions/report/layout/cover';
import { formatBiologicalAge, formatPercentile, formatRatio, formatRisk, formatScore, formatValue } from '../../../functions/report/layout/format';
import { CONDENSED_MAX_PAGES, renderReport } from '../../../functions/report/layout/render-report';
import type { ReportResult } from '../../../functions/report/layout/types';
import { scoreReport } from '../../../functions/report/score-report';
import { notMeasuredSentence } from '../../../widget/explain';
import { fullPanel } from '../scoring/fixtures';
import { documentInput, predictor, result } from './fixtures';
import { normalise, parsePdf } from './pdf-text';

const renderedAt = new Date('2026-11-21T10:00:00Z');

function expectEveryDomainNumber(text: string, results: ReportResult[]): void {
  for (const r of results) {
    for (const s of r.disease_scores) {
      for (const figure of [
        formatScore(s.health_score),
        formatBiologicalAge(s),
        formatRisk(s.risk_ratios[0]?.risk ?? null),
        formatRatio(s.risk_ratios[0]?.ratio ?? null),
        formatPercentile(s.score_percentile),
      ]) {
        expect(text).toContain(normalise(figure));
      }
    }
  }
}

describe('full report rendering', () => {
  it('prints every domain figure of every event, the notice, the models and the metadata', async () => {
    const input = documentInput('full', 4);
    const pdf = await parsePdf(await renderReport(input, reportFonts(), renderedAt));

    expectEveryDomainNumber(pdf.text, input.results);
    expect(pdf.pageText[0]).toContain(normalise(WELLNESS_NOTICE.slice(0, 60)));
    for (const model of input.results[0]!.disease_scores.map((s) => s.model)) {
      expect(pdf.text).toContain(model.name);
      expect(pdf.text).toContain(`doi:${model.doi}`);
    }
    expect(pdf.info.Title).toBe('Hale Health Report');
    expect(pdf.info.Language).toBe('en-US');
    // Cover and summary, one page per domain, biomarkers, methods; every page numbered.
    expect(pdf.pages).toBe(1 + 6 + 1 + 1);
    for (const [i, text] of pdf.pageText.entries()) expect(text).toContain(`Page ${i + 1} of ${pdf.pages}`);
    for (const label of ['Biological age', 'Actual age', 'Age at event (years)']) expect(pdf.text).toContain(label);
  });

  it('prints text outside WinAnsi (≥ ≤ µ – and non-Latin names) through the embedded Unicode font', async () => {
    const input = documentInput('full', 2, { uidExt: 'Zoë Ødegård – Дарья ≥ ≤ µ' });
    const pdf = await parsePdf(await renderReport(input, reportFonts(), renderedAt));
    expect(pdf.pageText[0]).toContain(normalise('Prepared for: Zoë Ødegård – Дарья ≥ ≤ µ'));
    // A lab range prints with an en dash; a one-sided range with ≥.
    expect(pdf.text).toContain('70–99');
    expect(pdf.text).toContain('≥ 1');
    expect(pdf.text).toContain(normalise('µmol/L'));
  });
});

describe('condensed report rendering', () => {
  it('fits one event into at most two pages and still prints every domain figure and model', async () => {
    const many = Array.from({ length: 140 }, (_, i) => predictor(`p${i}`, `Biomarker number ${i}`, 10 + i, 'mg/dL'));
    const input = documentInput('condensed', 1, { results: [result(52.5, 3, 6, many)] });
    const pdf = await parsePdf(await renderReport(input, reportFonts(), renderedAt));

    expect(pdf.pages).toBeLessThanOrEqual(CONDENSED_MAX_PAGES);
    expectEveryDomainNumber(pdf.text, input.results);
    expect(pdf.text).toMatch(/\d+ more biomarkers not shown in the condensed report/);
    for (const score of input.results[0]!.disease_scores) expect(pdf.text).toContain(`doi:${score.model.doi}`);
    expect(pdf.text).not.toContain('Age at event (years)');
    expect(pdf.info.Title).toBe('Hale Health Report — Snapshot');
  });
});

describe('report of a real scoring result (what the widget shows too)', () => {
  // A 60-year-old man with kidney function beyond the oldest peers, a few inputs never sent.
  const predictors = fullPanel({ '2160-0': ['2.5', 'mg/dL'] }).filter((p) => !['8280-0', '160303001', '96302009'].includes(p.observation_code));
  const scored = scoreReport({ variant: 'full', uid_ext: 'u', event_asof_dtutc: '2026-01-01T00:00:00Z', health_events: [{ health_event_id: 'e1', event_age: 60, predictors }] });
  let pdf: Awaited<ReturnType<typeof parsePdf>>;

  beforeAll(async () => {
    const input = { variant: 'full' as const, uidExt: 'u', asOf: '2026-01-01T00:00:00Z', results: scored.results, ranges: referenceRangeLookup(scored.sex), scoringVersion: 'test' };
    pdf = await parsePdf(await renderReport(input, reportFonts(), renderedAt));
  });

  it('cuts no text: long units and names print whole, wrapped rather than ended with an ellipsis', () => {
    expect(pdf.text).not.toContain('…');
    expect(pdf.text).toContain(normalise('mL/min/1.73'));
  });

  it('never prints an unmeasured input as the person’s value, and says what measuring it would add, in the widget’s words', () => {
    const scores = scored.results[0]!.disease_scores;
    const unmeasured = scores.flatMap((s) => s.not_measured);
    expect(unmeasured.map((n) => n.predictor)).toEqual(expect.arrayContaining(['waist', 'parental_diabetes', 'statin']));
    for (const entry of unmeasured) {
      // An attribution row would print the name followed by a value; the not-measured sentence has a colon.
      expect(pdf.text).not.toContain(normalise(`${entry.name} ${formatValue(entry.assumed_value, entry.unit)}`));
      expect(pdf.text).toContain(normalise(notMeasuredSentence(entry)).slice(0, 80));
    }
  });

  it('prints each domain’s notes as sentences, including where a disease age is the edge of the peer data', () => {
    const kidney = scored.results[0]!.disease_scores.find((s) => s.disease_code === 'kidney')!;
    expect(kidney.disease_age_status).toBe('above_peer_data');
    expect(pdf.text).toContain(normalise(formatBiologicalAge(kidney)));
    for (const score of scored.results[0]!.disease_scores) {
      for (const note of score.notes) {
        expect(note).toMatch(/^[A-Z].*[.)]$/);
        expect(pdf.text).toContain(normalise(note).slice(0, 60));
      }
    }
  });

  it('reads yes/no inputs as yes/no and the peers’ share as a percentage of peers', () => {
    expect(pdf.text).toMatch(/Current smoking: no/);
    expect(pdf.text).toMatch(/\d+% of peers/);
  });
});
