import { francAll } from 'franc-min';

/**
 * Language of a lab report's text. franc guesses from letter trigrams; lab reports are mostly
 * numbers, units, abbreviations and test names, on which franc wavers (local-stack.md §9: a table
 * snippet came out as Tiv; an older Labcorp layout scores French a hair above English). So only
 * words are scored, franc chooses among the languages a US lab document could plausibly be in,
 * text too short to judge is undetermined, and English keeps the benefit of the doubt: a document
 * is non-English only when another language clearly outscores English.
 */

/** ISO 639-3 codes franc may answer: English and widely spoken languages in the US and worldwide (all in franc-min). */
const CANDIDATE_LANGUAGES = ['eng', 'spa', 'por', 'fra', 'deu', 'ita', 'nld', 'pol', 'rus', 'ukr', 'tur', 'vie', 'tgl', 'ind', 'arb', 'cmn', 'jpn', 'kor', 'hin'];

/** Fewer letters than this in words of 3+ letters: franc's guess is not trustworthy. */
const MIN_LETTERS = 200;

/**
 * English's score relative to the best language (franc scores the best as 1) below which a document
 * counts as non-English. Measured on generated fixtures (100 English reports, 25 seeds × 4 layouts):
 * English scored ≥ 0.985 even when another language came first; a Spanish report scores English
 * below 0.87.
 */
const ENGLISH_MARGIN = 0.95;

export type LanguageVerdict = { language: string; english: boolean } | { language: 'und'; english: null };

export function detectLanguage(text: string): LanguageVerdict {
  const sample = (text.match(/\p{L}{3,}/gu) ?? []).join(' ');
  if (sample.replace(/ /g, '').length < MIN_LETTERS) return { language: 'und', english: null };
  // Case matters to trigram statistics; lab reports shout test names in capitals.
  const scores = francAll(sample.toLowerCase(), { only: CANDIDATE_LANGUAGES, minLength: MIN_LETTERS });
  const [best] = scores;
  if (!best || best[0] === 'und') return { language: 'und', english: null };
  const english = scores.find(([code]) => code === 'eng')?.[1] ?? 0;
  if (english >= ENGLISH_MARGIN) return { language: 'eng', english: true };
  return { language: best[0], english: false };
}
