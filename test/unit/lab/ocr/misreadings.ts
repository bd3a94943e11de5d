import fc from 'fast-check';

/** What OCR reads a character as, in the confusions the name repairs allow. */
const MISREAD: Record<string, string[]> = { l: ['1', 'I', '|'], '1': ['l', 'I'], I: ['l', '1'], O: ['0', 'Q'], '0': ['O'], o: ['0'], S: ['5'], B: ['8'] };

/** One of `spellings`, and a reading of it with some characters confused, some spaces lost and some added. */
export function misreadings(spellings: readonly string[]): fc.Arbitrary<{ spelling: string; read: string }> {
  return fc.record({ spelling: fc.constantFrom(...spellings), picks: fc.array(fc.nat(), { minLength: 40, maxLength: 40 }) }).map(({ spelling, picks }) => ({
    spelling,
    read: [...spelling]
      .map((c, i) => {
        const pick = picks[i % picks.length]!;
        const swapped = MISREAD[c] && pick % 3 === 0 ? MISREAD[c][pick % MISREAD[c].length]! : c;
        return c === ' ' && pick % 4 === 0 ? '' : pick % 7 === 0 && c !== ' ' ? `${swapped} ` : swapped;
      })
      .join('')
      .trim(),
  }));
}
