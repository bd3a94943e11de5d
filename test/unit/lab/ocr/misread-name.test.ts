import fc from 'fast-check';
import panelTable from '../../../../data/lab/loinc-panels.json';
import { LOINC_ROWS } from '../../../../functions/lab/loinc/map-to-loinc';
import { MISREAD_TEST_NAMES, type NameWord, sameNormalisedName } from '../../../../functions/lab/ocr/misread-name';
import { MISREAD_PANEL_TITLES } from '../../../../functions/lab/ocr/panel-name-repair';
import { confusionFold } from '../../../../functions/lab/ocr/test-name-repair';

/** Words as read: those marked `?` were doubted. */
const read = (...words: string[]): NameWord[] => words.map((w) => (w.endsWith('?') ? { text: w.slice(0, -1), doubted: true } : { text: w, doubted: false }));

const PRINTED_NAMES = [...new Set(LOINC_ROWS.flatMap((row) => row.synonyms))];
const printedWords = new Set(PRINTED_NAMES.flatMap((name) => name.toUpperCase().split(/\s+/)));

const reading = (words: readonly NameWord[]) => MISREAD_TEST_NAMES.reading(words);

describe('MISREAD_TEST_NAMES.reading', () => {
  it.each([
    ['one glyph misread where a gap was', read('HIV', 'Screen', '4th2eneration?', 'wRfx'), 'HIV Screen 4th Generation wRfx'],
    ['a stroke too many', read('HIV', 'Screen', '4th', 'Generation', 'wRIfx?'), 'HIV Screen 4th Generation wRfx'],
    ['one doubted word for two printed, a bracket lost', read('Immature', 'Gransbs)?'), 'Immature Grans (Abs)'],
    ['every word doubted, one glyph from one name only', read('uisc?'), 'UIBC'],
    ['the sure word folded as the table spells it', read('CHOLESTEROL,', 'TOTAI?'), 'CHOLESTEROL, TOTAL'],
    // One name printed by two labs in two cases: the spelling in the case it was read in.
    ['a glyph misread, mixed case', read('Hemoqlobin?', 'A1c'), 'Hemoglobin A1c'],
    ['a glyph misread, capitals', read('HEMOQLOBIN?', 'A1c'), 'HEMOGLOBIN A1c'],
  ])('reads back a name misread near its printed spelling: %s', (_why, words, printed) => expect(reading(words)).toEqual({ printed }));

  it.each([
    ['Alkaline Phosphatase, its second word misread far from it', read('Alkaline', 'amtace?')],
    ['every word doubted, near no name', read('Qxzv?', 'Wkkp?')],
    ['two glyphs of four misread', read('HIV', 'Screen', '4th', 'Generation', 'wQfk?')],
  ])('leaves a name misread beyond repair unread: %s', (_why, words) => expect(reading(words)).toBe('beyond_repair'));

  it.each([
    ['a test the table lacks', read('Neisseria', 'gonorrhoeae', 'RNA,', 'TMA?')],
    ['no word doubted', read('Alkaline', 'amtace')],
    ['sure words that end no name of the table', read('Vitamin', 'K1?', 'Plasma')],
    ['no words', []],
  ])('is no misreading, the name taken as read: %s', (_why, words) => expect(reading(words)).toBeNull());

  it('reads every name the table prints, one letter of a long word changed and the word doubted, as that name or as beyond repair, never as another', () => {
    const long = PRINTED_NAMES.filter((name) => name.split(/\s+/).some((word) => confusionFold(word).length >= 4));
    let readBack = 0;
    fc.assert(
      fc.property(fc.constantFrom(...long), fc.nat(), fc.nat(), fc.constantFrom(...'QXZJKW'), (name, at, letterAt, letter) => {
        const words = name.split(/\s+/);
        const candidates = words.flatMap((word, k) => (confusionFold(word).length >= 4 ? [k] : []));
        const i = candidates[at % candidates.length]!;
        const letters = [...words[i]!].flatMap((c, k) => (/[A-Za-z]/.test(c) ? [k] : []));
        const changed = [...words[i]!].map((c, k) => (k === letters[letterAt % letters.length] ? (c === letter ? 'V' : letter) : c)).join('');
        const result = reading(words.map((text, k) => ({ text: k === i ? changed : text, doubted: k === i })));
        if (result === 'beyond_repair') return;
        expect(result).not.toBeNull();
        expect(sameNormalisedName(result!.printed, name)).toBe(true);
        readBack += 1;
      }),
    );
    expect(readBack).toBeGreaterThan(50);
  });

  it('takes every name the table prints with any one word misread and doubted', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PRINTED_NAMES), fc.nat(), fc.string({ minLength: 1, maxLength: 12 }), (name, at, garbage) => {
        const words = name.split(/\s+/);
        const i = at % words.length;
        const misread = words.map((text, k) => ({ text: k === i ? garbage : text, doubted: k === i }));
        expect(reading(misread)).not.toBeNull();
      }),
    );
  });

  it('never takes a name none of whose words was doubted, nor one with a sure word no printed name has', () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9,()/-]{0,10}$/);
    const stranger = 'ZQXJWV';
    expect(printedWords.has(stranger)).toBe(false);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), (words, doubts) => {
        expect(reading(words.map((text) => ({ text, doubted: false })))).toBeNull();
        const withStranger = [{ text: stranger, doubted: false }, ...words.map((text, k) => ({ text, doubted: doubts[k]! }))];
        expect(reading(withStranger)).toBeNull();
      }),
    );
  });
});

describe('MISREAD_PANEL_TITLES.wordForWord', () => {
  const titles = (words: readonly NameWord[]) => MISREAD_PANEL_TITLES.wordForWord(words);

  it.each([
    [read('coin.?', 'Metabolic', 'Panel', '(14)'), 'Comp. Metabolic Panel (14)'],
    [read('LIPID', 'PANEL,', 'STANDRD?'), 'LIPID PANEL, STANDARD'],
    [read('URINALYSIS,', 'C0MPL?'), null],
    // Sure words no more than the doubted: too little read to tell.
    [read('coin.?', 'Metabolic', 'Pane?', '(14)'), null],
    [read('coin.?', 'Metabolic', 'Panel', '(8)'), 'Basic Metabolic Panel (8)'],
    // Sure words that spell no title word for word.
    [read('coin.?', 'Metabolic', 'Panel', '(9)'), null],
    // Two panels' titles fit (`COMPREHENSIVE` or `BASIC`): none is taken.
    [read('C0MPLETE?', 'METABOLIC', 'PANEL'), null],
    // A doubted word standing for two printed words: not word for word.
    [read('Comp.', 'MetabolicPane?', '(14)'), null],
    // Nothing doubted: a title as read.
    [read('Comp.', 'Metabolic', 'Panel', '(14)'), null],
  ] as const)('reads %j as %s', (words, title) => expect(titles(words)).toBe(title));

  it('gives the title whose words the sure words are where one panel has such titles, and nothing where two do', () => {
    const printed = [...new Set(panelTable.panels.flatMap((panel) => panel.printedNames))];
    const panelOf = (title: string) => panelTable.panels.find((p) => p.printedNames.includes(title));
    fc.assert(
      fc.property(fc.constantFrom(...printed), fc.nat(), fc.string({ minLength: 1, maxLength: 10 }), (title, at, garbage) => {
        const words = title.split(/\s+/);
        const i = at % words.length;
        const found = titles(words.map((text, k) => ({ text: k === i ? garbage : text, doubted: k === i })));
        if (words.length < 3) return expect(found).toBeNull();
        // The titles the sure words spell word for word, the doubted word aside.
        const fitting = printed.filter((other) => {
          const its = other.split(/\s+/);
          return its.length === words.length && its.every((w, k) => k === i || confusionFold(w) === confusionFold(words[k]!));
        });
        const panels = new Set(fitting.map(panelOf));
        if (panels.size === 1) expect(panelOf(found ?? '')).toBe(panelOf(title));
        else expect(found).toBeNull();
      }),
    );
  });
});
