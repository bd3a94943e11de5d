/**
 * Reference-range texts OCR read without the spaces or the closing point the print has, put back to
 * the one spelling reports print. Quest prints an inclusive bound as `> OR = 40` and `< OR = 20`
 * (data/sources/lab-reference-ranges.csv, the ranges printed so), which the engine reads as `>OR =40`
 * or `>OR=40`: the marks stand closer than its spaces. Labcorp prints `Not Estab.` for a range it does
 * not give (docs/research/lab-extraction.md §1), whose period is a pixel or two at 150 dpi. The bounds
 * were read from the text already and do not change; only the text given back as printed does.
 */

const INCLUSIVE_BOUND = /^([<>])\s*OR\s*=\s*(\d+(?:\.\d+)?)$/;
const NOT_ESTABLISHED_CUT = /^Not Estab$/;

/** The printed spelling of a range text OCR read with its spacing or closing point lost; any other text as read. */
export function printedRangeText(text: string): string {
  const bound = INCLUSIVE_BOUND.exec(text);
  if (bound) return `${bound[1]} OR = ${bound[2]}`;
  return NOT_ESTABLISHED_CUT.test(text) ? 'Not Estab.' : text;
}
