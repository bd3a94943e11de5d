import fc from 'fast-check';
import { LOINC_ROWS } from '../../../../functions/lab/loinc/map-to-loinc';
import { isMisreadKnownName, type NameWord } from '../../../../functions/lab/ocr/misread-name';

/** Words as read: those marked `?` were doubted. */
const read = (...words: string[]): NameWord[] => words.map((w) => (w.endsWith('?') ? { text: w.slice(0, -1), doubted: true } : { text: w, doubted: false }));

const PRINTED_NAMES = [...new Set(LOINC_ROWS.flatMap((row) => row.synonyms))];
const printedWords = new Set(PRINTED_NAMES.flatMap((name) => name.toUpperCase().split(/\s+/)));

describe('isMisreadKnownName', () => {
  it.each([
    ['Alkaline Phosphatase, its second word misread', read('Alkaline', 'amtace?')],
    ['Immature Grans (Abs): one doubted word for two printed', read('Immature', 'Gransbs)?')],
    ['HIV Screen 4th Generation wRfx', read('HIV', 'Screen', '4th2eneration?', 'wRfx')],
    ['a name no word of which was read surely', read('uisc?')],
    ['the sure word folded as the table spells it', read('CHOLESTEROL,', 'TOTAI?')],
  ])('is a misreading of a name the table knows: %s', (_why, words) => expect(isMisreadKnownName(words)).toBe(true));

  it.each([
    ['a test the table lacks', read('Neisseria', 'gonorrhoeae', 'RNA,', 'TMA?')],
    ['no word doubted', read('Alkaline', 'amtace')],
    ['sure words that end no name of the table', read('Vitamin', 'K1?', 'Plasma')],
    ['no words', []],
  ])('is no misreading, the name taken as read: %s', (_why, words) => expect(isMisreadKnownName(words)).toBe(false));

  it('takes every name the table prints with any one word misread and doubted', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PRINTED_NAMES), fc.nat(), fc.string({ minLength: 1, maxLength: 12 }), (name, at, garbage) => {
        const words = name.split(/\s+/);
        const i = at % words.length;
        const misread = words.map((text, k) => ({ text: k === i ? garbage : text, doubted: k === i }));
        expect(isMisreadKnownName(misread)).toBe(true);
      }),
    );
  });

  it('never takes a name none of whose words was doubted, nor one with a sure word no printed name has', () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9,()/-]{0,10}$/);
    const stranger = 'ZQXJWV';
    expect(printedWords.has(stranger)).toBe(false);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), (words, doubts) => {
        expect(isMisreadKnownName(words.map((text) => ({ text, doubted: false })))).toBe(false);
        const withStranger = [{ text: stranger, doubted: false }, ...words.map((text, k) => ({ text, doubted: doubts[k]! }))];
        expect(isMisreadKnownName(withStranger)).toBe(false);
      }),
    );
  });
});
