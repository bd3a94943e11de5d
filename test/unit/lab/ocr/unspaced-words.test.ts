import fc from 'fast-check';
import { normaliseWord, PRINTED_UNITS, TEXT_RESULT_WORDS } from '../../../../functions/lab/ocr/normalise-word';
import type { RecognizedWord } from '../../../../functions/lab/ocr/recognizer';
import { withUnspacedWordsJoined } from '../../../../functions/lab/ocr/unspaced-words';

const LINE_HEIGHT = 40;

/** Words laid left to right on the baseline `baseline`, each `gaps[i]` line heights after the one before, 20 px a character. */
function line(texts: readonly string[], gaps: readonly number[], baseline = 100): RecognizedWord[] {
  let x = 10;
  return texts.map((text, i) => {
    if (i > 0) x += gaps[i - 1]! * LINE_HEIGHT;
    const word = { text, x0: x, x1: x + 20 * text.length, y0: baseline - 30, y1: baseline, baseline, lineHeight: LINE_HEIGHT, confidence: 0.9 - i / 100 };
    x = word.x1;
    return word;
  });
}

/** A Courier-like line: spaces leave 0.85 line heights between the inks. */
const SPACED = line(['Neutrophils', 'are', 'not', 'the', 'only', 'cells', 'here'], [0.85, 0.85, 0.85, 0.85, 0.85, 0.85], 300);

describe('withUnspacedWordsJoined', () => {
  it('joins words split where the print has no space, against the page’s own spaces', () => {
    const split = line(['Monocytes', '(Absolute)', '0.6', 'x10E', '3/uL'], [0.37, 8, 8, 0.3]);
    const words = withUnspacedWordsJoined([...SPACED, ...split]);
    expect(words.slice(0, SPACED.length)).toEqual(SPACED);
    expect(words.slice(SPACED.length).map((w) => w.text)).toEqual(['Monocytes(Absolute)', '0.6', 'x10E3/uL']);
    const [name] = words.slice(SPACED.length);
    expect(name).toMatchObject({ x0: split[0]!.x0, x1: split[1]!.x1, confidence: split[1]!.confidence });
  });

  it('joins nothing on a page with too few spaces to tell its spacing, across a column, or across lines', () => {
    const split = line(['Monocytes', '(Absolute)'], [0.37]);
    expect(withUnspacedWordsJoined(split)).toEqual(split);
    const columns = line(['Glucose', '95', 'mg/dL'], [3, 3]);
    expect(withUnspacedWordsJoined([...SPACED, ...columns])).toEqual([...SPACED, ...columns]);
    const below = { ...split[1]!, y0: 160, y1: 190, baseline: 190 };
    expect(withUnspacedWordsJoined([...SPACED, split[0]!, below])).toEqual([...SPACED, split[0]!, below]);
  });

  it('joins exactly the neighbours closer than a space, on lines with more spaces than such gaps', () => {
    const gap = fc.oneof(
      fc.double({ min: 0.7, max: 0.95, noNaN: true }).map((g) => ({ g, kind: 'space' as const })),
      fc.double({ min: 0, max: 0.3, noNaN: true }).map((g) => ({ g, kind: 'tight' as const })),
      fc.double({ min: 2, max: 10, noNaN: true }).map((g) => ({ g, kind: 'column' as const })),
    );
    const word = fc.stringMatching(/^[A-Za-z0-9/().-]{1,6}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(word, gap), { minLength: 2, maxLength: 14 }), (cells) => {
        const gaps = cells.slice(1).map(([, g]) => g);
        // Neighbours a space apart that spell a unit together are the next property's.
        fc.pre(gaps.every(({ kind }, i) => kind !== 'space' || !PRINTED_UNITS.has(normaliseWord(cells[i]![0] + cells[i + 1]![0]))));
        fc.pre(gaps.filter((g) => g.kind === 'tight').length < gaps.filter((g) => g.kind === 'space').length + SPACED.length - 1);
        const words = line(
          cells.map(([text]) => text),
          gaps.map(({ g }) => g),
        );
        const expected = [cells[0]![0]];
        gaps.forEach(({ kind }, i) => {
          if (kind === 'tight') expected[expected.length - 1] += cells[i + 1]![0];
          else expected.push(cells[i + 1]![0]);
        });
        expect(withUnspacedWordsJoined([...SPACED, ...words]).slice(SPACED.length).map((w) => w.text)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('joins a printed unit split nearer than a space into two words that are no unit alone, and nothing else that a space parts', () => {
    const isUnit = (text: string) => PRINTED_UNITS.has(normaliseWord(text));
    const splits = [...PRINTED_UNITS].flatMap((unit) => [...unit].slice(1).map((_, i) => [unit.slice(0, i + 1), unit.slice(i + 1)] as const));
    fc.assert(
      fc.property(fc.constantFrom(...splits), fc.double({ min: 0.5, max: 0.8, noNaN: true }), ([left, right], g) => {
        const split = line(['Glucose', '95', left, right], [3, 3, g]);
        const texts = withUnspacedWordsJoined([...SPACED, ...split])
          .slice(SPACED.length)
          .map((w) => w.text);
        const joins = !isUnit(left) && !isUnit(right) && isUnit(left + right);
        expect(texts).toEqual(['Glucose', '95', ...(joins ? [left + right] : [left, right])]);
      }),
      { numRuns: 400 },
    );
    expect(withUnspacedWordsJoined([...SPACED, ...line(['x10E', '3/uL'], [0.75])]).slice(SPACED.length).map((w) => w.text)).toEqual(['x10E3/uL']);
    // A space and more (the page's is 0.85 line heights) parts even a unit's halves.
    expect(withUnspacedWordsJoined([...SPACED, ...line(['x10E', '3/uL'], [0.9])]).slice(SPACED.length).map((w) => w.text)).toEqual(['x10E', '3/uL']);
  });

  it('joins a word of a text result cut nearer than a space into two that are none alone, in any case', () => {
    const isWord = (text: string) => TEXT_RESULT_WORDS.has(text.toUpperCase());
    const cased = (word: string) => [word, word[0]! + word.slice(1).toLowerCase()];
    const splits = [...TEXT_RESULT_WORDS].flatMap(cased).flatMap((word) => [...word].slice(1).map((_, i) => [word.slice(0, i + 1), word.slice(i + 1)] as const));
    fc.assert(
      fc.property(fc.constantFrom(...splits), fc.double({ min: 0.5, max: 0.8, noNaN: true }), ([left, right], g) => {
        const texts = withUnspacedWordsJoined([...SPACED, ...line(['Color', left, right], [3, g])])
          .slice(SPACED.length)
          .map((w) => w.text);
        const joins = !isWord(left) && !isWord(right);
        expect(texts).toEqual(['Color', ...(joins ? [left + right] : [left, right])]);
      }),
      { numRuns: 400 },
    );
    expect(withUnspacedWordsJoined([...SPACED, ...line(['Color', 'Y', 'ellow'], [3, 0.75])]).slice(SPACED.length).map((w) => w.text)).toEqual(['Color', 'Yellow']);
    // Words of prose a space parts stay apart.
    expect(withUnspacedWordsJoined([...SPACED, ...line(['see', 'note'], [0.75])]).slice(SPACED.length).map((w) => w.text)).toEqual(['see', 'note']);
  });
});
