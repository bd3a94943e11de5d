import vocabulary from '../../../data/lab/report-vocabulary.json';

/**
 * Reference-range texts OCR read without the spaces or the closing point the print has, put back to
 * the one spelling reports print. Quest prints an inclusive bound as `> OR = 40` and `< OR = 20`
 * (data/sources/lab-reference-ranges.csv, the ranges printed so), which the engine reads as `>OR =40`
 * or `>OR=40`: the marks stand closer than its spaces. Labcorp prints `Not Estab.` for a range it does
 * not give (docs/research/lab-extraction.md §1), whose period is a pixel or two at 150 dpi. The bounds
 * were read from the text already and do not change; only the text given back as printed does. A
 * text range read with a space lost (`NonReactive`, `NotEstab.`) that is one text of the vocabulary's
 * results or `Not Estab.` with spaces and letter case aside takes that text's spaces, its letters as read;
 * of two such texts (`NON REACTIVE`, `NONREACTIVE`), the one whose spaces stand where the reading turns
 * from a small letter to a capital (`NonReactive` is `Non Reactive`; `NONREACTIVE` stays).
 * So does one with a mark a speck left at the end of a word (`Non. Reactive`, `Non Reactive’`): no text
 * result is printed with a point, comma or quote inside it or after it.
 */

const INCLUSIVE_BOUND = /^([<>])\s*OR\s*=\s*(\d+(?:\.\d+)?)$/;
const NOT_ESTABLISHED_CUT = /^Not Estab$/;

const unspaced = (text: string) => text.replace(/\s+/g, '').toLowerCase();

/** Unspaced, lower-case text → the printed text ranges that read so (text results, `Not Estab.`). */
const TEXT_RANGES = new Map<string, string[]>();
for (const text of [...vocabulary.textResults.phrases, 'Not Estab.']) TEXT_RANGES.set(unspaced(text), [...(TEXT_RANGES.get(unspaced(text)) ?? []), text]);

/** Marks a speck leaves at a word's end: a point, a comma, a quote. */
const SPECK_MARKS_AT_WORD_END = /[.,'‘’`]+(?=\s|$)/g;

/** Where, counted in letters, a read text turns from a small letter to a capital: a word's start whose space was lost (`NonReactive`: 3). */
function capitalStarts(read: string): number[] {
  const letters = read.replace(/\s+/g, '');
  return [...letters].flatMap((c, i) => (i > 0 && /\p{Lu}/u.test(c) && /\p{Ll}/u.test(letters[i - 1]!) ? [i] : []));
}

/** Where, counted in letters, a printed text has its spaces. */
function spaceStarts(printed: string): number[] {
  let letters = 0;
  return printed
    .split(/\s+/)
    .slice(0, -1)
    .map((word) => {
      letters += word.length;
      return letters;
    });
}

/** Of texts that read alike with spaces aside, the one whose spaces stand where the reading turns to capitals, if one does. */
function byCapitals(read: string, printed: readonly string[]): string | undefined {
  const starts = capitalStarts(read).join();
  const fitting = printed.filter((text) => spaceStarts(text).join() === starts);
  return fitting.length === 1 ? fitting[0] : undefined;
}

/** `read` with the spaces of `printed` (the same letters, spaces aside), its letters as read. */
function withSpacesOf(read: string, printed: string): string {
  const letters = read.replace(/\s+/g, '');
  let at = 0;
  let out = '';
  for (const c of printed) out += /\s/.test(c) ? ' ' : letters[at++];
  return out;
}

/** An inclusive bound whose `=` a scan lost (`< OR 39`, `>OR 40`): no report prints a bound so. */
const EQUALS_LOST = /^([<>])\s*OR\s*(?=\d)/;

/** A range cell read from a scan with an inclusive bound's lost `=` put back (`< OR 39 pg/mL` is `< OR = 39 pg/mL`); any other text as read. */
export function withLostEqualsSign(text: string): string {
  return text.replace(EQUALS_LOST, '$1 OR = ');
}

/** The printed spelling of a range text OCR read with its spacing or closing point lost; any other text as read. */
export function printedRangeText(text: string): string {
  const bound = INCLUSIVE_BOUND.exec(text);
  if (bound) return `${bound[1]} OR = ${bound[2]}`;
  const cut = NOT_ESTABLISHED_CUT.test(text) ? 'Not Estab.' : text;
  const printed = TEXT_RANGES.get(unspaced(cut));
  if (printed !== undefined) {
    const spelling = printed.length === 1 ? printed[0] : byCapitals(cut, printed);
    return spelling === undefined ? cut : withSpacesOf(cut, spelling);
  }
  const markless = cut.replace(SPECK_MARKS_AT_WORD_END, '');
  const spelt = TEXT_RANGES.get(unspaced(markless));
  if (spelt === undefined) return cut;
  // Spelt as read, spaces and all, or with the spaces of the one text that reads so.
  if (spelt.some((text) => text.toLowerCase() === markless.toLowerCase())) return markless;
  return spelt.length === 1 ? withSpacesOf(markless, spelt[0]!) : cut;
}
