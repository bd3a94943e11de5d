import { estimatedCompletionSeconds } from '../../../functions/report/estimate';

describe('estimated completion', () => {
  it('grows with the events a full report scores and renders, not with a condensed one', () => {
    expect(estimatedCompletionSeconds('full', 200)).toBeGreaterThan(estimatedCompletionSeconds('full', 1));
    expect(estimatedCompletionSeconds('condensed', 1)).toBe(estimatedCompletionSeconds('full', 1));
    expect(Number.isInteger(estimatedCompletionSeconds('full', 10))).toBe(true);
    expect(estimatedCompletionSeconds('full', 10)).toBeGreaterThanOrEqual(8);
  });
});
