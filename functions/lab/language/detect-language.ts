import { franc } from 'franc-min';

/**
 * Language of a lab report's text. franc guesses from letter trigrams; lab reports are mostly
 * numbers, units and upper-case test names, on which an unrestricted franc answers odd languages
 * (local-stack.md §9: a table snippet came out as Tiv). So only words are scored, franc chooses among
 * the languages a US lab document could plausibly be written in, and text too short to judge is
 * reported as undetermined rather than guessed.
 */

/** ISO 639-3 codes franc may answer: English and the most spoken other languages in the US and worldwide (all in franc-min). */
export const CANDIDATE_LANGUAGES = ['eng', 'spa', 'por', 'fra', 'deu', 'ita', 'nld', 'pol', 'rus', 'ukr', 'tur', 'vie', 'tgl', 'ind', 'arb', 'cmn', 'jpn', 'kor', 'hin'];

/** Fewer letters than this in words of 3+ letters: franc's guess is not trustworthy. */
export const MIN_LETTERS = 200;

export type LanguageVerdict = { language: string; english: boolean } | { language: 'und'; english: null };

export function detectLanguage(text: string): LanguageVerdict {
  const words = text.match(/\p{L}{3,}/gu) ?? [];
  const sample = words.join(' ');
  if (sample.replace(/ /g, '').length < MIN_LETTERS) return { language: 'und', english: null };
  // Case matters to trigram statistics; lab reports shout test names in capitals.
  const language = franc(sample.toLowerCase(), { only: CANDIDATE_LANGUAGES, minLength: MIN_LETTERS });
  if (language === 'und') return { language, english: null };
  return { language, english: language === 'eng' };
}
