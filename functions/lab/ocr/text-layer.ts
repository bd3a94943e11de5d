/**
 * Whether a page's text layer can be read as it is. Scanned pages have none; some PDFs have one that
 * decodes to nothing recognisable (fonts with custom encodings and no ToUnicode map give control
 * characters, private-use code points or shuffled letters: `\u0003\u0011`, `!"#$%`, `Xqsbo`). Such a
 * page is recognised by OCR instead. The test is on the shape of the tokens, not on any vendor's words.
 */

/** At least this share of a page's tokens must look like words, numbers or units. */
const MIN_RECOGNISABLE_SHARE = 0.6;
/** Fewer recognisable tokens than this: the page may be a scan with a stamped line of text. */
const SPARSE_TOKENS = 20;

const NUMBER_LIKE = /^[<>≤≥=+-]*[$€£]?\d[\d.,:/-]*%?[A-Za-z]{0,3}$/;
const WORD_LIKE = /^[A-Za-z][A-Za-z'’./&+-]*\d*[A-Za-z]*$/;
const VOWEL = /[aeiouyAEIOUY]/g;
/** Punctuation a token may be wrapped in: `(calc)`, `"High",`, `[REDACTED]`. */
const WRAPPING = /^[([{"'“‘*#]+|[)\]}"'”’,;:.*]+$/g;

/** A whole token that looks like a word (with plausible vowels), a number, a date, a range or a unit. */
export function isRecognisableToken(raw: string): boolean {
  const token = raw.replace(WRAPPING, '');
  if (token === '') return /^[-–—:.,/()]+$/.test(raw);
  if (NUMBER_LIKE.test(token)) return true;
  if (!WORD_LIKE.test(token)) return false;
  const letters = token.replace(/[^A-Za-z]/g, '');
  if (letters.length <= 4) return true;
  // Acronyms and units (`HDL`, `mL/min`) are short; longer words carry vowels in proportion.
  const share = (letters.match(VOWEL)?.length ?? 0) / letters.length;
  return share >= 0.15 && share <= 0.8;
}

/**
 * `usable`: read the text layer. `sparse`: a few recognisable tokens only; a scan carrying a stamped
 * header looks like this, so the caller checks whether an image covers the page. `unusable`: no text,
 * or text that decodes to no recognisable tokens.
 */
export type TextLayerVerdict = 'usable' | 'sparse' | 'unusable';

export function textLayerVerdict(items: readonly { str: string }[]): TextLayerVerdict {
  const tokens = items.flatMap((item) => item.str.split(/\s+/)).filter((t) => t !== '');
  if (tokens.length === 0) return 'unusable';
  const recognisable = tokens.filter(isRecognisableToken).length;
  if (recognisable < MIN_RECOGNISABLE_SHARE * tokens.length) return 'unusable';
  return recognisable < SPARSE_TOKENS ? 'sparse' : 'usable';
}
