import { LOINC_ROWS, normaliseTestName } from '../loinc/map-to-loinc';

/**
 * Test names OCR misspelled in the ways it usually does, put back to the printed spelling the LOINC
 * table knows (data/lab/loinc-common-labs.json, every layout's spellings): `Hemoglobin Alc` and
 * `Hemoglobin A lc` are `Hemoglobin A1c`, `TRIGLY CERIDES` is `TRIGLYCERIDES`, `uiBC` is `UIBC`.
 *
 * A name the table knows (letter case and the spaces around brackets and commas aside) but spelt
 * otherwise takes the table's spelling where OCR misjudged what it misjudges: the width of a gap
 * before a bracket (`Monocytes (Absolute)` for `Monocytes(Absolute)`), the case of letters whose
 * capital is only a larger small letter (`CBC with Differential` for `CBC With Differential`: c, o, s,
 * u, v, w, x, z), or the case of letters alike in both (`uiBC`: a capital after a small letter within
 * a word, a case OCR makes and printers do not). A
 * name in a plain case of its own (`Hepatitis C Antibody`, where the table has only capitals) is as
 * printed, and stays. Any other name is repaired only when, with spaces and the marks a speck makes or
 * hides (`,` `;` `.` `-`, accents) ignored, letter case ignored and the usual confusions taken as one character (l,
 * L, 1, I, i, | and !; O, 0 and Q; S and 5; B and 8), it spells exactly one of the table's names; or,
 * spelling none, it does with one character misread: a letter put into one of its gaps (`Carbon
 * Dioxide, To al`: a glyph too faint to read leaves a gap where the engine cuts the word), a glyph of
 * like shape put back (`TRON, TOTAL`, `AST (SGOTi`, `LDL €hol Calc`), or a speck's mark at a word's
 * edge or a stroke mark inside it taken out (`Iron Saturation |`, `Comp!lete`). A name that is the
 * table's but for its spaces, read in a plain case of its own, keeps the case it was read in
 * (`Hepatitis CAntibody` → `Hepatitis C Antibody`). Two candidates, or none, leave the name as read: a
 * wrong name is worse than an uncoded one.
 */

/** Upper-case characters OCR confuses, each class written as one of them (`l` is `L` once case is folded). */
const CONFUSED: Record<string, string> = { L: '1', I: '1', '|': '1', '!': '1', O: '0', Q: '0', S: '5', B: '8' };

/** Marks OCR adds (a speck) or drops (too faint) between the words of a name, or reads for a comma (`;`): `ALT-(SGPT)`, `Bilirubin Total`, `RNA; TMA`. */
const SPECK_MARKS = /[\s,;.-]+/g;

/** Accents the engine puts on a letter from a speck over it (`Phosphatasé`), and ligatures (`ﬁ`): no lab prints them in a name, unit or column header. */
const MARKS = /\p{M}/gu;

/** The text without accents, its ligatures as letters. */
export function withoutAccents(text: string): string {
  return text.normalize('NFKD').replace(MARKS, '');
}

/** The spelling OCR cannot tell apart from others: no spaces, speck marks or accents, upper case, one character per confusion class. */
export function confusionFold(name: string): string {
  let folded = '';
  for (const c of withoutAccents(name).replace(SPECK_MARKS, '').toUpperCase()) folded += CONFUSED[c] ?? c;
  return folded;
}

/**
 * Glyphs of like shape that OCR takes one for the other, in folded spelling (`1` stands for l, I, |):
 * a serif I for T (`TRON`), l for f or t, a bracket or slash for l (`(SGOTi`, `Abip24`), c for e or
 * o, a for g (`ma/dL`), u for v, n for h, a C a speck crossed for the euro sign (`LDL €hol Calc`), a
 * brace for a bracket (`UREA NITROGEN {BUN)`), and a D whose straight side blur rounded off for an O
 * (`LOL Chol Calc`, `HOL CHOLESTEROL`, `CHLORIOE` on noisy scans and faxes).
 */
const LOOKALIKE_PAIRS = ['1T', '1F', 'TF', '1)', '1(', '1/', '1J', 'CE', 'C0', 'CG', 'AG', 'UV', 'NH', 'C€', '({', ')}', 'D0'];
const LOOKALIKES = new Map<string, string[]>();
for (const [a, b] of LOOKALIKE_PAIRS.map((pair) => [...pair] as [string, string])) {
  LOOKALIKES.set(a, [...(LOOKALIKES.get(a) ?? []), b]);
  LOOKALIKES.set(b, [...(LOOKALIKES.get(b) ?? []), a]);
}

/** Whether OCR takes the one folded character for the other. */
function areLookalikes(a: string, b: string): boolean {
  return LOOKALIKES.get(a)?.includes(b) ?? false;
}

/** Half the cost of any other change: the glyph is there, the engine took it for its lookalike. */
const LOOKALIKE_COST = 0.5;

/** Edit distance between two folded spellings, a lookalike substitution costing half (names in misread-name.ts, units in unit-repair.ts). */
export function foldedDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const [x, y] = [a[i - 1]!, b[j - 1]!];
      const change = x === y ? 0 : areLookalikes(x, y) ? LOOKALIKE_COST : 1;
      row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + change));
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** Two glyphs the engine reads as one, or one it reads as two, in folded spelling: rn and m, ri and n, cl and d, vv and w. */
const MERGED_GLYPHS: ReadonlyArray<readonly [string, string]> = [
  ['RN', 'M'],
  ['R1', 'N'],
  ['C1', 'D'],
  ['VV', 'W'],
];

/** What a speck beside a word reads as: a stroke, a tick or a curve (`HEPATITIS (C ANTIBODY`). */
const SPECK_READINGS = /^[|!lIi1'`‘’~()]$/;
/** Of those, the marks no name prints inside a word: a speck there reads as one (`Comp!lete`). */
const SPECK_MARKS_INSIDE = /^[|!`‘’~]$/;

/** Fewest characters (folded) a name needs before one misread character may be repaired: shorter names lie too close together (`HDL`, `LDL`). */
const MIN_MISREAD_FOLD = 5;

/** A small letter followed by a capital in one word: a case OCR made (`uiBC`), or a name the table spells so (`pH`). */
const MIXED_CASE_WORD = /\p{Ll}\p{Lu}/u;

/** A word in one plain case: capitals, small letters, or a capital and small letters (marks and digits aside). */
const PLAIN_CASE_WORD = /^[^\p{L}]*(?:\p{Lu}+|\p{Ll}+|\p{Lu}\p{Ll}+)[^\p{L}]*$/u;

/**
 * A reading that is the table's spelling but for its spaces and the case of its letters, re-spaced as
 * the table spaces it with the letters as read, when every word then stands in a plain case of its own:
 * `Hepatitis CAntibody` is `Hepatitis C Antibody`, as the lab printed it, where the table spells the
 * name only in capitals. Null for any other reading.
 */
function respacedInReadCase(read: string, spelling: string): string | null {
  const letters = read.replace(/\s+/g, '');
  if (letters.toLowerCase() !== spelling.replace(/\s+/g, '').toLowerCase() || read.split(/\s+/).length === spelling.split(/\s+/).length) return null;
  let next = 0;
  const respaced = [...spelling].map((c) => (/\s/.test(c) ? c : letters[next++]!)).join('');
  return respaced.split(/\s+/).every((word) => PLAIN_CASE_WORD.test(word)) ? respaced : null;
}

/** Letters whose capital is the small letter drawn larger: OCR tells their case by height alone, and misjudges it. */
const SIZE_ONLY_CASE = /^[cosuvwxz]$/i;

/** Whether two spellings differ only in the case of such letters (`CBC with` for `CBC With` in a monospaced font). */
function differsInSizeOnly(read: string, spelling: string): boolean {
  if (read.length !== spelling.length || read === spelling) return false;
  for (let i = 0; i < read.length; i++) {
    const [a, b] = [read[i]!, spelling[i]!];
    if (a !== b && (a.toLowerCase() !== b.toLowerCase() || !SIZE_ONLY_CASE.test(a))) return false;
  }
  return true;
}

/**
 * Whether a reading is the spelling but for its first letter, read small where the spelling has a
 * capital (`iron Bind.Cap.(TIBC)`: a serif `I` taken for an `i` by a speck above it). No lab starts a
 * name with a small letter but where the table spells it so (`eGFR`, `pH`), and such a reading stays.
 */
function capitalLostAtStart(read: string, spelling: string): boolean {
  const first = read[0] ?? '';
  return /\p{Ll}/u.test(first) && spelling[0] === first.toUpperCase() && read.slice(1) === spelling.slice(1);
}

/**
 * A table's printed spellings, and the repair of a reading of one of them (the rules above): test
 * names from the LOINC table here, panel titles from the panel table (panel-name-repair.ts).
 */
export class PrintedNames {
  /** Folded spelling → the table's printed spellings (by name, then as printed) that fold to it. */
  private readonly byFold = new Map<string, Map<string, string[]>>();
  /** Name (normaliseTestName) → the table's printed spellings of it. */
  private readonly byName = new Map<string, string[]>();

  constructor(spellings: Iterable<string>) {
    for (const spelling of spellings) {
      const fold = confusionFold(spelling);
      const names = this.byFold.get(fold) ?? new Map<string, string[]>();
      const name = normaliseTestName(spelling);
      const printed = names.get(name) ?? [];
      if (!printed.includes(spelling)) printed.push(spelling);
      this.byFold.set(fold, names.set(name, printed));
      this.byName.set(name, printed);
    }
  }

  /** Whether the name is one of the table's, as printed (case and spacing aside) or misread so that it reads as no other. */
  knows(read: string): boolean {
    return this.byName.has(normaliseTestName(read)) || this.repaired(read) !== null;
  }

  /** The table's spelling of an OCR-misread name; null when it is spelt as the table prints it, or reads as no one certain name. */
  repaired(read: string): string | null {
    const known = this.byName.get(normaliseTestName(read));
    if (known) {
      if (known.includes(read)) return null;
      const unspaced = (spelling: string) => spelling.replace(/\s+/g, '');
      const respaced = known.find((spelling) => unspaced(spelling) === unspaced(read));
      const resized = known.filter((spelling) => differsInSizeOnly(read, spelling) || capitalLostAtStart(read, spelling));
      return respaced ?? (resized.length === 1 ? resized[0]! : MIXED_CASE_WORD.test(read) ? nearestInCase(read, known) : null);
    }
    const fold = confusionFold(read);
    const names = this.byFold.get(fold) ?? this.withOneCharacterMisread(read, fold);
    if (names?.size !== 1) return null;
    const [spellings] = [...names.values()];
    const spelling = nearestInCase(read, spellings!);
    return respacedInReadCase(read, spelling) ?? spelling;
  }

  /**
   * The names a reading spells with one character misread: lost at one of its gaps, taken for a
   * glyph of like shape, two glyphs run into one or one parted in two (`Chlonde`), or a speck at a
   * word's edge or inside it read as a mark; only when all such readings give one name. Any other character changed
   * is not repaired, however long the name: a test the table lacks may be one letter from one it has
   * (`Apolipoprotein C`, `Apolipoprotein B`).
   */
  private withOneCharacterMisread(read: string, fold: string): Map<string, string[]> | undefined {
    const folds = new Set([
      ...this.withLostLetter(read, fold),
      ...this.withLookalike(fold),
      ...this.withMergedGlyphs(fold),
      ...this.withSpeckMark(read),
    ]);
    return folds.size === 1 ? this.byFold.get([...folds][0]!) : undefined;
  }

  /** The folds a reading gives with one character taken for a glyph of like shape (`TRON` for `IRON`, `(SGOTi` for `(SGOT)`). */
  private withLookalike(fold: string): Set<string> {
    const folds = new Set<string>();
    if (fold.length < MIN_MISREAD_FOLD) return folds;
    [...fold].forEach((c, at) => {
      for (const other of LOOKALIKES.get(c) ?? []) {
        const candidate = `${fold.slice(0, at)}${other}${fold.slice(at + 1)}`;
        if (this.byFold.has(candidate)) folds.add(candidate);
      }
    });
    return folds;
  }

  /** The folds a reading gives with two glyphs the engine ran into one parted again, or one it parted in two joined (`Chlonde` for `Chloride`). */
  private withMergedGlyphs(fold: string): Set<string> {
    const folds = new Set<string>();
    if (fold.length < MIN_MISREAD_FOLD) return folds;
    for (const [two, one] of MERGED_GLYPHS) {
      for (const [from, to] of [[one, two], [two, one]] as const) {
        for (let at = fold.indexOf(from); at >= 0; at = fold.indexOf(from, at + 1)) {
          const candidate = `${fold.slice(0, at)}${to}${fold.slice(at + from.length)}`;
          if (this.byFold.has(candidate)) folds.add(candidate);
        }
      }
    }
    return folds;
  }

  /**
   * The folds a reading gives without a mark a speck made at the edge of one of its words (`Iron
   * Saturation |`), or a stroke mark no name prints inside a word (`Urinalysis, Comp!lete`).
   */
  private withSpeckMark(read: string): Set<string> {
    const folds = new Set<string>();
    for (const word of read.matchAll(/\S+/g)) {
      const inside = [...word[0]].flatMap((c, k) => (k > 0 && k < word[0].length - 1 && SPECK_MARKS_INSIDE.test(c) ? [word.index + k] : []));
      for (const at of new Set([word.index, word.index + word[0].length - 1, ...inside])) {
        if (!SPECK_READINGS.test(read[at]!)) continue;
        const candidate = confusionFold(`${read.slice(0, at)}${read.slice(at + 1)}`);
        if (candidate.length >= MIN_MISREAD_FOLD && this.byFold.has(candidate)) folds.add(candidate);
      }
    }
    return folds;
  }

  /** `${position}|${fold without its character there}` → the folds of the table's spellings that give it. */
  private lostLetters: Map<string, Set<string>> | undefined;

  /**
   * The folds a reading gives with one letter lost at one of its gaps (`Carbon Dioxide, To al`: a
   * glyph too faint to read leaves a gap, and the engine cuts the word there).
   */
  private withLostLetter(read: string, fold: string): Set<string> {
    this.lostLetters ??= this.lostLetterIndex();
    const folds = new Set<string>();
    for (const gap of read.matchAll(/\s+/g)) {
      const at = confusionFold(read.slice(0, gap.index)).length;
      for (const found of this.lostLetters.get(`${at}|${fold}`) ?? []) folds.add(found);
    }
    return folds;
  }

  private lostLetterIndex(): Map<string, Set<string>> {
    const index = new Map<string, Set<string>>();
    for (const fold of this.byFold.keys()) {
      for (let at = 0; at < fold.length; at++) {
        if (!/[\p{L}\d]/u.test(fold[at]!)) continue;
        const key = `${at}|${fold.slice(0, at)}${fold.slice(at + 1)}`;
        index.set(key, (index.get(key) ?? new Set()).add(fold));
      }
    }
    return index;
  }
}

const TEST_NAMES = new PrintedNames(LOINC_ROWS.flatMap((row) => row.synonyms));

/** How many letters of `a` and `b` (spaces aside) agree in case: the spelling nearest to what was printed. */
export function caseAgreement(a: string, b: string): number {
  const x = a.replace(/\s+/g, '');
  const y = b.replace(/\s+/g, '');
  let same = 0;
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i]!;
    const q = y[i]!;
    if (p.toLowerCase() !== p.toUpperCase() && q.toLowerCase() !== q.toUpperCase() && (p === p.toUpperCase()) === (q === q.toUpperCase())) same++;
  }
  return same;
}

/** The LOINC table's spelling of an OCR-misread test name; null when it is spelt as printed, or reads as no one certain name. */
export function repairedTestName(name: string): string | null {
  return TEST_NAMES.repaired(name);
}

/** Of a name's printed spellings, the one whose letter case agrees most with the reading (misread-name.ts too). */
export function nearestInCase(name: string, spellings: readonly string[]): string {
  return [...spellings].sort((a, b) => caseAgreement(name, b) - caseAgreement(name, a))[0]!;
}
