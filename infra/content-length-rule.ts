/**
 * A regular expression that matches a decimal Content-Length strictly greater than `limit`, for a WAF
 * regex match (WAF has no numeric comparison of a header's value, and its size constraints measure the
 * header's length in characters). Leading zeros are allowed; anything that is not digits never
 * matches. Built digit by digit: a longer number, or an equally long one that is greater at the first
 * digit where they differ.
 */
export function integerGreaterThan(limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`limit must be a non-negative integer: ${limit}`);
  const digits = String(limit);
  const alternatives = [`[1-9][0-9]{${digits.length},}`];
  for (let index = 0; index < digits.length; index += 1) {
    const digit = Number(digits[index]);
    if (digit === 9) continue;
    const rest = digits.length - index - 1;
    alternatives.push(`${digits.slice(0, index)}[${digit + 1}-9]${rest > 0 ? `[0-9]{${rest}}` : ''}`);
  }
  return `^0*(${alternatives.join('|')})$`;
}
