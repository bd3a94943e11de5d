import { reportFonts } from '../../../functions/report/fonts';
import { WELLNESS_NOTICE } from '../../../functions/report/layout/cover';
import { formatPercentile, formatRatio, formatRisk, formatScore, formatYears } from '../../../functions/report/layout/format';
import { CONDENSED_MAX_PAGES, renderReport } from '../../../functions/report/layout/render-report';
import type { ReportResult } from '../../../functions/report/layout/types';
import { documentInput, predictor, result } from './fixtures';
import { normalise, parsePdf } from './pdf-text';

const renderedAt = new Date('2026-11-21T10:00:00Z');

function expectEveryDomainNumber(text: string, results: ReportResult[]): void {
  for (const r of results) {
    for (const s of r.disease_scores) {
      for (const figure of [
        formatScore(s.health_score),
        formatYears(s.disease_age),
        formatRisk(s.risk_ratios.risk),
        formatRatio(s.risk_ratios.ratio),
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
