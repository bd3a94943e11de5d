import { LOINC_ROWS, normaliseTestName } from '../loinc/map-to-loinc';
import { confusionFold, foldedDistance, nearestInCase } from './test-name-repair';

/**
 * A scanned name a table does not know, where the engine doubted a word of it, may be a name the table
 * knows read wrong: `HIV Screen 4th2eneration wRfx`, `Immature Gransbs)` (Grans (Abs)), `Alkaline
 * amtace` (Phosphatase), `uisc` (UIBC). It is one where the doubted words stand in for words of a name
 * the table prints and every word read surely is that name's (`Alkaline` `*`), or where every word of
 * it was doubted (nothing in it can be checked).
 * - When each doubted word is spelt within a quarter of the printed words it stands for (folded as OCR
 *   confuses glyphs, a lookalike costing half), and they are one name's words, it is that name
 *   misread near enough to read back: `4th2eneration` is `4th Generation`, one glyph from it.
 * - Otherwise it is misread beyond repair (`amtace` is no near spelling of `Phosphatase`), and given as
 *   read it would be a result under a name no one printed, and no code.
 * A name whose sure words fit no name of the table is a test the table lacks, read as printed
 * (`NEISSERIA GONORRHOEAE RNA, TMA, UROGENITAL`, `TMA,` doubted), and stays: a result under its printed
 * name, flagged to check. A near spelling is never enough on its own: a doubted `B1` is no `B12`.
 */

export interface NameWord {
  text: string;
  /** Read with a confidence under which a value is flagged to check (parsers/layout.ts LOW_OCR_CONFIDENCE). */
  doubted: boolean;
}

/** What a reading is to the table: the name it misreads near enough to read back, a name misread beyond repair, or no misreading. */
export type MisreadName = { printed: string } | 'beyond_repair' | null;

/** Most words of a printed name one doubted word may stand for: a misread word swallows a gap (`Gransbs)`, `4th2eneration`). */
const WORDS_PER_DOUBTED = 3;

/** Share of the printed words' folded letters a doubted word may differ by and still be read back as them. */
const NEAR_SPELLING = 0.25;

interface ReadWord {
  fold: string;
  doubted: boolean;
}

interface PrintedName {
  spelling: string;
  /** Words in folded spelling (no marks or case; OCR's confusions as one). */
  words: string[];
}

function foldedWords(name: string): string[] {
  return name
    .split(/\s+/)
    .map(confusionFold)
    .filter((word) => word !== '');
}

/** Whether a doubted word is spelt near enough to the printed words it stands for to be read back as them. */
function spelledNear(fold: string, printed: readonly string[]): boolean {
  const letters = printed.join('');
  return foldedDistance(fold, letters) <= NEAR_SPELLING * letters.length;
}

/**
 * Whether the read words, each doubted one standing for one to three printed words (and, when `near`,
 * spelt near them), spell `printed` from `i` and `j` on.
 */
function fits(read: readonly ReadWord[], printed: readonly string[], near: boolean, i = 0, j = 0): boolean {
  if (i === read.length) return j === printed.length;
  const word = read[i]!;
  if (!word.doubted) return word.fold === printed[j] && fits(read, printed, near, i + 1, j + 1);
  for (let span = 1; span <= WORDS_PER_DOUBTED && j + span <= printed.length; span++) {
    if (near && !spelledNear(word.fold, printed.slice(j, j + span))) continue;
    if (fits(read, printed, near, i + 1, j + span)) return true;
  }
  return false;
}

/** The printed names of a table (LOINC test names, panel titles), as a misread scanned name is judged against them (above). */
export class MisreadNames {
  private readonly printed: PrintedName[];

  /** `sameName` tells spellings of one name apart from other names (`LIPID PANEL` and `Lipid Panel` are one). */
  constructor(
    spellings: Iterable<string>,
    private readonly sameName: (a: string, b: string) => boolean,
  ) {
    this.printed = [...new Set(spellings)].map((spelling) => ({ spelling, words: foldedWords(spelling) }));
  }

  /** What a name the table does not know, read with the words given, is (above). */
  reading(words: readonly NameWord[]): MisreadName {
    if (words.length === 0 || !words.some((w) => w.doubted)) return null;
    const read = foldedReading(words);
    const near = this.printed.filter((p) => fits(read, p.words, true));
    if (near.length > 0 && near.every((p) => this.sameName(p.spelling, near[0]!.spelling))) {
      // Of the name's spellings (`HEMOGLOBIN A1c`, `Hemoglobin A1c`), the one in the case it was read in.
      const text = words.map((w) => w.text).join(' ');
      return { printed: nearestInCase(text, near.map((p) => p.spelling)) };
    }
    if (near.length > 0 || words.every((w) => w.doubted) || this.printed.some((p) => fits(read, p.words, false))) return 'beyond_repair';
    return null;
  }

  /**
   * A scanned title misread beyond a near spelling, read back word for word: the one name of the table
   * (its spellings aside) whose words the reading spells, each word read surely as printed and each
   * doubted word standing for one printed word however misread, the sure words outnumbering the doubted
   * (`coin. Metabolic Panel (14)`, `coin.` doubted, is `Comp. Metabolic Panel (14)`). For a panel title,
   * which is given either way, the table's title is surer than the garble; a test name misread so is
   * left unread instead (`reading`'s 'beyond_repair'), for its value would go under it.
   */
  wordForWord(words: readonly NameWord[]): string | null {
    const doubted = words.filter((w) => w.doubted).length;
    if (doubted === 0 || doubted >= words.length - doubted) return null;
    const read = foldedReading(words);
    const fitting = this.printed.filter((p) => p.words.length === read.length && read.every((w, i) => w.doubted || w.fold === p.words[i]));
    if (fitting.length === 0 || !fitting.every((p) => this.sameName(p.spelling, fitting[0]!.spelling))) return null;
    return nearestInCase(words.map((w) => w.text).join(' '), fitting.map((p) => p.spelling));
  }
}

/** The words as judged: each in its confusion fold, with its doubt; a sure word that folds to nothing (a mark) left out. */
function foldedReading(words: readonly NameWord[]): ReadWord[] {
  return words.map((w) => ({ fold: confusionFold(w.text), doubted: w.doubted })).filter((w) => w.doubted || w.fold !== '');
}

/** Whether two spellings are one name: alike but for case, spacing and marks (normaliseTestName), as the tables' spellings of one name are. */
export function sameNormalisedName(a: string, b: string): boolean {
  return normaliseTestName(a) === normaliseTestName(b);
}

/** The LOINC table's printed test names. */
export const MISREAD_TEST_NAMES = new MisreadNames(
  LOINC_ROWS.flatMap((row) => row.synonyms),
  sameNormalisedName,
);
