import { generateIndependentSet } from '../../../fixtures/labs/independent/generator';
import { scoreSet } from '../../../fixtures/labs/independent/score-set';
import { FIELDS } from '../../../fixtures/labs/score';

/**
 * End to end over PDFs of the independent generator (every layout family in three fonts, five page
 * shapes, three chunkings): every printed result is read with every field right, and nothing else.
 * The benchmark (`npm run bench:extraction`) measures a larger set of the same generator.
 */

describe('the independent fixture set', () => {
  it('is read without a wrong field, a missed result or an invented one', async () => {
    const reports = await generateIndependentSet(3);
    const { score, misclassified } = await scoreSet(reports);
    expect(misclassified).toEqual([]);
    expect(score.mismatches).toEqual([]);
    expect(score.invented).toBe(0);
    expect(score.extractedCount).toBe(score.truthCount);
    for (const field of FIELDS) expect(score.correct[field]).toBe(score.truthCount);
    expect(score.loinc.correct).toBe(score.loinc.expected);
  }, 30_000);
});
