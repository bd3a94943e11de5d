/**
 * OCR confusions repaired only where the reading cannot be anything else, before the reader sees the
 * word. Everything else is left as recognised, and doubt is carried by the word's confidence: a value
 * missed is better than a value guessed.
 *
 * - Quote marks and backticks that open a word are specks or the shadow of a rule: no value, unit,
 *   range, date or test name of a lab table starts with one.
 * - A period, comma or quote that closes a word holding a digit or a slash (a value, range, date or
 *   unit) is a speck at the baseline: none of these ends in one. Words of prose keep theirs.
 * - Inside a number, `O`/`o` read for `0` and `l`/`I` for `1`: a word of digits, number punctuation
 *   and these letters only, with at least one true digit, is a number.
 */

const OPENING_MARKS = /^[‘’“”"'`~]+(?=.)/u;
const CLOSING_MARKS = /(?<=.)[.,‘’“”"'`]+$/u;
const NUMBER_LIKE = /^[<>=]?[\dOolI]+(?:[.,:/-][\dOolI]+)*%?$/;
const DIGIT_FOR = { O: '0', o: '0', l: '1', I: '1' } as const;

export function normaliseWord(text: string): string {
  let word = text.trim().replace(OPENING_MARKS, '');
  if (/[\d/]/.test(word)) word = word.replace(CLOSING_MARKS, '');
  if (/\d/.test(word) && NUMBER_LIKE.test(word)) word = word.replace(/[OolI]/g, (c) => DIGIT_FOR[c as keyof typeof DIGIT_FOR]);
  return word;
}
