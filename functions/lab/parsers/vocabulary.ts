import vocabulary from '../../../data/lab/report-vocabulary.json';
import type { ResultFlag } from '../results-schema';

/**
 * The report wording the reader consults (data/lab/report-vocabulary.json, each section with its
 * source), compiled once. Code reads knowledge from here; no layout has a code path of its own.
 */

export type Vendor = 'quest' | 'labcorp';

/** What a column holds. A range column may carry the unit too (Quest prints `65-99 mg/dL`). */
export type ColumnRole = 'name' | 'value' | 'flag' | 'range' | 'unit' | 'previous' | 'lab';

export interface HeaderPhrase {
  words: string[];
  role: ColumnRole;
}

export interface VendorEntry {
  id: Vendor;
  name: string;
  signatures: RegExp[];
  labCode: RegExp;
  layoutHints: RegExp[];
}

const regex = (source: string, flags = 'i') => new RegExp(source, flags);
const regexes = (sources: readonly string[]) => sources.map((s) => regex(s));

export const VENDORS: readonly VendorEntry[] = vocabulary.vendors.entries.map((v) => ({
  id: v.id as Vendor,
  name: v.name,
  signatures: regexes(v.signatures),
  labCode: regex(v.labCodes, ''),
  layoutHints: regexes(v.layoutHints),
}));

export const VENDOR_NAMES: Record<Vendor, string> = Object.fromEntries(VENDORS.map((v) => [v.id, v.name])) as Record<Vendor, string>;

export const OTHER_LABS: readonly string[] = vocabulary.otherLabs.names;
export const FOREIGN_LAYOUTS: readonly RegExp[] = regexes(vocabulary.foreignLayouts.patterns);
export const NON_LAB_DOCUMENT: readonly RegExp[] = regexes(vocabulary.nonLabDocument.patterns);
/** The furniture patterns as one alternation: asked of every line of every page, one pass instead of one per pattern. */
export const FURNITURE: RegExp = regex(vocabulary.furniture.patterns.map((p) => `(?:${p})`).join('|'));
export const END_OF_RESULTS: readonly RegExp[] = regexes(vocabulary.endOfResults.patterns);
export const COMMENT: readonly RegExp[] = regexes(vocabulary.comments.patterns);

const PROSE_WORDS = new Set(vocabulary.proseWords.words);

/** Whether a text reads as a sentence: two or more lower-case function words (`for`, `without`, `a`). */
export function readsAsProse(text: string): boolean {
  return text.split(/\s+/).filter((w) => PROSE_WORDS.has(w)).length >= 2;
}

/** Longest phrases first, so `Reference Range` wins over `Reference`. */
export const HEADER_PHRASES: readonly HeaderPhrase[] = Object.entries(vocabulary.headerPhrases.roles)
  .flatMap(([role, texts]) => texts.map((text) => ({ words: text.toLowerCase().split(' '), role: role as ColumnRole })))
  .sort((a, b) => b.words.length - a.words.length);

const HEADER_WORDS = new Set(HEADER_PHRASES.flatMap((p) => p.words));

/** Whether a word can be part of a column header. */
export function isHeaderWord(word: string): boolean {
  return HEADER_WORDS.has(word.toLowerCase());
}

/** Fewest letters a header word needs before one misread letter in it is taken back: shorter ones lie too close to other words (`lab`, `of`). */
const MIN_MISREAD_HEADER_WORD = 4;

/** The one header word that `word` spells with one letter changed (`BATE` for `DATE`); null when none or two do. */
export function headerWordMisread(word: string): string | null {
  const read = word.toLowerCase();
  if (read.length < MIN_MISREAD_HEADER_WORD || HEADER_WORDS.has(read)) return null;
  const near = [...HEADER_WORDS].filter((h) => h.length === read.length && [...h].filter((c, i) => c !== read[i]).length === 1);
  return near.length === 1 ? near[0]! : null;
}

/** Text results, matched whole; words may be joined by spaces or hyphens (`NON-REACTIVE`, `Non Reactive`). */
const TEXT_RESULT = regex(
  `^(?:${vocabulary.textResults.phrases
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '[\\s-]+'))
    .sort((a, b) => b.length - a.length)
    .join('|')})$`,
);

export function isTextResult(text: string): boolean {
  return TEXT_RESULT.test(text.trim());
}

const TEXT_RESULT_WORDS = new Set(vocabulary.textResults.phrases.flatMap((p) => p.toLowerCase().split(/[\s-]+/)));

/** Whether a word can be (part of) a result value: it holds a digit, or a word of a text result (`NOT`, `DETECTED`), the abnormal mark `A` against it or not (`TRACEA`, `REACTIVE.A`). */
export function mayHoldValue(word: string): boolean {
  return /\d/.test(word) || word.toLowerCase().split('-').some((part) => TEXT_RESULT_WORDS.has(part) || TEXT_RESULT_WORDS.has(part.replace(/[.,]?a$/, '')));
}

const FLAG_WORDS = vocabulary.flagWords.words as Record<string, ResultFlag>;
const CRITICAL = regex(vocabulary.flagWords.critical);

export function flagOf(token: string): ResultFlag | null {
  return FLAG_WORDS[token.toUpperCase()] ?? null;
}

/** A critical marker (`Critical`, `Alert`, `Critical High`) as the critical flag of its direction. */
export function criticalFlag(text: string): ResultFlag | null {
  if (!CRITICAL.test(text)) return null;
  if (/\bHigh\b/i.test(text)) return 'HH';
  if (/\bLow\b/i.test(text)) return 'LL';
  return 'AA';
}

export const CRITICAL_WORD = CRITICAL;

/** A performing-lab code of any vendor (`NL1`, `EZ`, `01`). */
export function isLabCode(text: string): boolean {
  return VENDORS.some((v) => v.labCode.test(text));
}

function labelPattern(labels: readonly string[]): RegExp {
  const alternatives = [...labels]
    .sort((a, b) => b.length - a.length)
    .map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\//g, '\\s*/\\s*').replace(/ /g, '\\s+'));
  return regex(`\\b(?:${alternatives.join('|')})\\b`, 'gi');
}

/** Labels of the specimen collection date; `OTHER_DATE_LABEL` those of dates that are not it. */
export const COLLECTION_LABEL = labelPattern(vocabulary.dateLabels.collection);
export const OTHER_DATE_LABEL = labelPattern(vocabulary.dateLabels.other);
/** Words that open a collection label (`Date`, `Specimen`) and words that close one (`Collected`, `On`). */
export const COLLECTION_LABEL_ENDS = (() => {
  const words = vocabulary.dateLabels.collection.map((l) => l.toLowerCase().split(/[\s/]+/));
  return { first: new Set(words.map((w) => w[0]!)), last: new Set(words.map((w) => w[w.length - 1]!)) };
})();
