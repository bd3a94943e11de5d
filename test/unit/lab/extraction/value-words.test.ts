import fc from 'fast-check';
import vocabulary from '../../../../data/lab/report-vocabulary.json';
import { pageLines } from '../../../../functions/lab/parsers/layout';
import { rowOf } from '../../../../functions/lab/parsers/row';
import { parseValueAndFlag } from '../../../../functions/lab/parsers/values';
import { isTextResult, mayHoldValue } from '../../../../functions/lab/parsers/vocabulary';
import { syntheticPage } from './synthetic-page';

/**
 * The reader skips reading a line as a row when no word after its first can hold a value
 * (functions/lab/parsers/row.ts, byShape): that shortcut must never drop a value a row can print.
 */

describe('mayHoldValue', () => {
  it('holds for every word of every text result the vocabulary knows, in any case and hyphenated', () => {
    for (const phrase of vocabulary.textResults.phrases) {
      for (const word of phrase.split(' ')) {
        expect(mayHoldValue(word)).toBe(true);
        expect(mayHoldValue(word.toUpperCase())).toBe(true);
        expect(mayHoldValue(word.toLowerCase())).toBe(true);
      }
      expect(phrase.includes(' ') ? mayHoldValue(phrase.replace(/ /g, '-')) : true).toBe(true);
    }
  });

  it('holds for every word of any text that reads as a value', () => {
    const token = fc.oneof(
      fc.constantFrom(...vocabulary.textResults.phrases),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((n) => String(Math.round(n * 100) / 100)),
      fc.tuple(fc.constantFrom('<', '>', '<=', '>='), fc.integer({ min: 0, max: 9999 })).map(([op, n]) => `${op}${n}`),
      fc.string({ minLength: 1, maxLength: 8 }),
    );
    fc.assert(
      // A flag apart or against the value (`6.0H`, `TRACEA`), as producers and OCR set it.
      fc.property(token, fc.constantFrom('', ' H', ' L', ' HH', ' A', 'H', 'L', 'A', '.A'), (value, flag) => {
        const text = `${value}${flag}`;
        if (parseValueAndFlag(text) === null && !isTextResult(text)) return;
        // Some word of the cell as printed holds a digit or a text-result word.
        expect(text.split(/\s+/).some(mayHoldValue)).toBe(true);
      }),
    );
  });

  it('leaves a line of words without digits or text-result words unread as a row', () => {
    const word = fc.stringMatching(/^[A-Za-z.,()]{1,10}$/).filter((w) => !mayHoldValue(w));
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 16 }), (words) => {
        const page = syntheticPage(1, [[700, [[40, words.join(' ')]]]]);
        const [line] = pageLines(page);
        expect(rowOf(line!, null)).toBeNull();
      }),
    );
  });
});

describe('a flag printed against its value', () => {
  it.each([
    ['6.0H', '6.0', 'H'],
    ['32L', '32', 'L'],
    ['<0.01L', '<0.01', 'L'],
    ['>90H', '>90', 'H'],
    ['TRACEA', 'TRACE', 'A'],
    ['REACTIVEA', 'REACTIVE', 'A'],
    ['REACTIVE.A', 'REACTIVE', 'A'],
  ])('%s is %s flagged %s', (cell, value, flag) => {
    const read = parseValueAndFlag(cell);
    expect([read?.value.resultValue, read?.flag]).toEqual([value, flag]);
  });

  it.each(['NORMAL', 'ABNORMAL', 'NEGATIVE'])('%s is a text result of its own, unflagged', (cell) => expect(parseValueAndFlag(cell)?.flag).toBeNull());

  it.each(['5.5A', 'HIGH', '237TH', 'DETAILA'])('%s is no value', (cell) => expect(parseValueAndFlag(cell)).toBeNull());
});
