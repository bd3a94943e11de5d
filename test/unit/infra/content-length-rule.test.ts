import fc from 'fast-check';
import { MAX_REQUEST_BODY_BYTES } from '../../../functions/http/request-limits';
import { integerGreaterThan } from '../../../infra/content-length-rule';

describe('the WAF Content-Length rule', () => {
  it('matches exactly the integers above the limit, with or without leading zeros', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1e12 }), fc.nat({ max: 1e12 }), fc.nat({ max: 3 }), (limit, value, zeros) => {
        const pattern = new RegExp(integerGreaterThan(limit));
        expect(pattern.test('0'.repeat(zeros) + String(value))).toBe(value > limit);
      }),
      { numRuns: 2000 },
    );
  });

  it('decides the boundary of the request body limit, and never matches what is not a number', () => {
    const pattern = new RegExp(integerGreaterThan(MAX_REQUEST_BODY_BYTES));
    expect(pattern.test(String(MAX_REQUEST_BODY_BYTES))).toBe(false);
    expect(pattern.test(String(MAX_REQUEST_BODY_BYTES + 1))).toBe(true);
    expect(pattern.test(String(MAX_REQUEST_BODY_BYTES - 1))).toBe(false);
    for (const text of ['', ' ', '1e9', '-1', '99999999 ', 'abc', '10000000x']) expect(pattern.test(text)).toBe(false);
    // WAF regex strings are at most 512 characters.
    expect(integerGreaterThan(MAX_REQUEST_BODY_BYTES).length).toBeLessThan(512);
  });
});
