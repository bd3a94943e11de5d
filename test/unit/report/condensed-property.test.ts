import fc from 'fast-check';
import { reportFonts } from '../../../functions/report/fonts';
import { CONDENSED_MAX_PAGES, renderReport } from '../../../functions/report/layout/render-report';
import { diseaseScore, documentInput, predictor } from './fixtures';
import { parsePdf } from './pdf-text';

/**
 * Whatever one event holds (up to 6 domains with missing figures, hundreds of biomarkers, long or
 * non-Latin names), the condensed report renders, stays within two pages and still cites its models.
 */
describe('condensed report over arbitrary results', () => {
  it('never exceeds two pages', async () => {
    const name = fc.string({ unit: fc.constantFrom('a', 'Z', 'µ', 'é', 'Д', '≥', '–', ' ', '9'), minLength: 1, maxLength: 60 });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(name, fc.double({ min: 0.001, max: 5000, noNaN: true })), { maxLength: 300 }),
        fc.boolean(),
        async (domains, biomarkers, missingFigures) => {
          const scores = Array.from({ length: domains }, (_, i) => {
            const score = diseaseScore(i, 50, i);
            return missingFigures ? { ...score, disease_age: null, score_percentile: null, risk_ratios: { ...score.risk_ratios, risk: null, ratio: null } } : score;
          });
          const predictors = biomarkers.map(([label, value], i) => predictor(`p${i}`, label, value, 'mg/dL'));
          const input = documentInput('condensed', 1, {
            results: [{ scoring_event_date: null, scoring_event_age: 50, disease_scores: scores, scoring_predictors: predictors }],
          });
          const pdf = await parsePdf(await renderReport(input, reportFonts(), new Date()));
          expect(pdf.pages).toBeLessThanOrEqual(CONDENSED_MAX_PAGES);
          for (const score of scores) expect(pdf.text).toContain(`doi:${score.model.doi}`);
        },
      ),
      { numRuns: 15 },
    );
  });
});
