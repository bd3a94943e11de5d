import { LOINC_ROWS } from '../loinc/map-to-loinc';
import { confusionFold } from './test-name-repair';

/**
 * A scanned test name the LOINC table does not know, where the engine doubted a word of it, may be a
 * name the table knows read wrong beyond repair: `Alkaline amtace` (Phosphatase), `Immature Gransbs)`
 * (Grans (Abs)), `HIV Screen 4th2eneration wRfx`, `uisc` (UIBC). Given as read it is a result under
 * a name no one printed, and no code. It is one where the doubted words stand in for words of a name
 * the table prints and every word read surely is that name's (`Alkaline` `*`), or where every word of
 * it was doubted (nothing in it can be checked). A name whose sure words fit no name of the table is a
 * test the table lacks, read as printed (`NEISSERIA GONORRHOEAE RNA, TMA, UROGENITAL`, `TMA,`
 * doubted), and stays: a result under its printed name, flagged to check.
 */

export interface NameWord {
  text: string;
  /** Read with a confidence under which a value is flagged to check (parsers/layout.ts LOW_OCR_CONFIDENCE). */
  doubted: boolean;
}

/** Most words of a printed name one doubted word may stand for: a misread word swallows a gap (`Gransbs)`, `4th2eneration`). */
const WORDS_PER_DOUBTED = 3;

/** The table's printed names, word by word in folded spelling (no marks or case; OCR's confusions as one). */
const PRINTED = [...new Set(LOINC_ROWS.flatMap((row) => row.synonyms))].map(foldedWords);

function foldedWords(name: string): string[] {
  return name
    .split(/\s+/)
    .map(confusionFold)
    .filter((word) => word !== '');
}

interface ReadWord {
  fold: string;
  doubted: boolean;
}

/** Whether the read words, each doubted one standing for one to three printed words, spell `printed` from `i` and `j` on. */
function fits(read: readonly ReadWord[], printed: readonly string[], i = 0, j = 0): boolean {
  if (i === read.length) return j === printed.length;
  const word = read[i]!;
  if (!word.doubted) return word.fold === printed[j] && fits(read, printed, i + 1, j + 1);
  for (let span = 1; span <= WORDS_PER_DOUBTED && j + span <= printed.length; span++) {
    if (fits(read, printed, i + 1, j + span)) return true;
  }
  return false;
}

/** Whether a name the table does not know, read with the words given, is a misreading of one it does (above). */
export function isMisreadKnownName(words: readonly NameWord[]): boolean {
  if (words.length === 0 || !words.some((w) => w.doubted)) return false;
  if (words.every((w) => w.doubted)) return true;
  const read = words.map((w) => ({ fold: confusionFold(w.text), doubted: w.doubted })).filter((w) => w.doubted || w.fold !== '');
  return PRINTED.some((printed) => fits(read, printed));
}
