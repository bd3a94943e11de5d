/**
 * LOINC check digit (the mod-10 algorithm LOINC publishes, the same as Luhn): from the rightmost digit
 * of the base number, every other digit is doubled, the digits of all results are summed, and the
 * check digit brings the sum to the next multiple of ten.
 */
export function loincCheckDigit(base: string): number {
  let sum = 0;
  for (let i = 0; i < base.length; i++) {
    const digit = Number(base[base.length - 1 - i]);
    const value = i % 2 === 0 ? digit * 2 : digit;
    sum += Math.floor(value / 10) + (value % 10);
  }
  return (10 - (sum % 10)) % 10;
}

/** Whether `code` is `<digits>-<check digit>` with a correct check digit. */
export function isValidLoincCode(code: string): boolean {
  const match = /^(\d{1,7})-(\d)$/.exec(code);
  return match !== null && loincCheckDigit(match[1]!) === Number(match[2]);
}
