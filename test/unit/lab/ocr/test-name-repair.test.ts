import fc from 'fast-check';
import { LOINC_ROWS, normaliseTestName } from '../../../../functions/lab/loinc/map-to-loinc';
import { confusionFold, repairedTestName } from '../../../../functions/lab/ocr/test-name-repair';
import { misreadings } from './misreadings';

const SPELLINGS = [...new Set(LOINC_ROWS.flatMap((r) => r.synonyms))];

/** What OCR reads a glyph as when it takes it for one of like shape. */
const LOOKALIKE_READINGS: Record<string, string[]> = {
  I: ['T'], T: ['I'], l: ['f', 't'], f: ['l'], t: ['l', 'f'], ')': ['i', 'l'], '(': ['l'], '/': ['i', 'l'],
  c: ['e', 'o'], e: ['c'], a: ['g'], g: ['a'], u: ['v'], n: ['h'], h: ['n'],
};

/**
 * Misreadings of known names repaired: each comes back as its own name or stays as read, never as
 * another name. A reading that spells some other name as it stands is that name's (the first rule).
 * Returns how many were repaired.
 */
function repairsAsItself(misread: fc.Arbitrary<{ spelling: string; read: string }>): number {
  const folds = new Set(SPELLINGS.map(confusionFold));
  let repairs = 0;
  fc.assert(
    fc.property(misread, ({ spelling, read }) => {
      fc.pre(!folds.has(confusionFold(read)));
      const repaired = repairedTestName(read);
      if (repaired === null) return;
      repairs++;
      expect(normaliseTestName(repaired)).toBe(normaliseTestName(spelling));
    }),
    { numRuns: 1000 },
  );
  return repairs;
}

describe('repairedTestName', () => {
  it.each([
    ['Hemoglobin A lc', 'Hemoglobin A1c'],
    ['Hemoglobin Alc', 'Hemoglobin A1c'],
    ['HEMOGLOBIN Alc', 'HEMOGLOBIN A1c'],
    ['TRIGLY CERIDES', 'TRIGLYCERIDES'],
    ['GLUC0SE', 'GLUCOSE'],
    // A comma too faint to read, a speck read as a hyphen.
    ['Bilirubin Total', 'Bilirubin, Total'],
    ['ALT-(SGPT)', 'ALT (SGPT)'],
    // A comma's tail parted from its dot: a semicolon.
    ['CHLAMYDIA TRACHOMATIS RNA; TMA, UROGENITAL', 'CHLAMYDIA TRACHOMATIS RNA, TMA, UROGENITAL'],
    // Known names in a case or spacing the table does not print: the printed spelling nearest in case.
    ['uiBC', 'UIBC'],
    ['Monocytes (Absolute)', 'Monocytes(Absolute)'],
    ['Iron Bind.Cap. (TIBC)', 'Iron Bind.Cap.(TIBC)'],
    // A first capital read small: no lab starts a name so but where the table does (`eGFR`, below).
    ['iron', 'Iron'],
    ['iron Bind.Cap.(TIBC)', 'Iron Bind.Cap.(TIBC)'],
    // A space lost in a name printed in a plain case of its own (the table has it in capitals only):
    // the table's spaces, the letters as read.
    ['Hepatitis CAntibody', 'Hepatitis C Antibody'],
    ['HepatitisC Antibody', 'Hepatitis C Antibody'],
    ['HEPATITISC ANTIBODY', 'HEPATITIS C ANTIBODY'],
    // A letter too faint to read, a gap where it stood.
    ['Carbon Dioxide, To al', 'Carbon Dioxide, Total'],
    ['Sod um', 'Sodium'],
    // A glyph taken for one of like shape; a speck beside a word read as a stroke.
    ['TRON, TOTAL', 'IRON, TOTAL'],
    ['AST (SGOTi', 'AST (SGOT)'],
    ['Cholesterof Total', 'Cholesterol, Total'],
    ['Iron Saturation |', 'Iron Saturation'],
    ['HEPATITIS (C ANTIBODY', 'HEPATITIS C ANTIBODY'],
    ['LDL €hol Calc (NIH)', 'LDL Chol Calc (NIH)'],
    ['UREA NITROGEN {BUN)', 'UREA NITROGEN (BUN)'],
    // A D whose straight side blur rounded off, read O (a fax, a noisy 150-dpi scan); the one name it spells.
    ['LOL Chol Calc (NIH)', 'LDL Chol Calc (NIH)'],
    ['HOL CHOLESTEROL', 'HDL CHOLESTEROL'],
    ['LOL-CHOLESTEROL', 'LDL-CHOLESTEROL'],
    ['CHLORIOE', 'CHLORIDE'],
    // A speck inside a word read as a stroke mark no name prints there.
    ['Glu|cose', 'Glucose'],
    ['Alb`umin', 'Albumin'],
    // Two glyphs read as one, or one as two.
    ['Chlonde,', 'Chloride'],
    ['Alburnin', 'Albumin'],
    ['Chloricle', 'Chloride'],
    // A speck over a letter read as its accent.
    ['Alkaline Phosphatasé', 'Alkaline Phosphatase'],
    ['Bilirubín, Total', 'Bilirubin, Total'],
  ])('reads %s as %s', (read, printed) => expect(repairedTestName(read)).toBe(printed));

  it.each(['Hepatitis C Antibody', 'GLUCOSE', 'Glucose', 'eGFR', 'pH', 'aPTT', 'HDL', 'Bind.Cap.(TIBC)', 'Iron Binding Cap.(TIBC)', 'Hemoglobin A2c', 'Specimen', 'Triglycerides ONS', 'Apolipoprotein C', 'HDI'])('leaves %s as it is', (name) =>
    expect(repairedTestName(name)).toBeNull(),
  );

  it('reads a known name with one letter lost to a gap as that name, or leaves it, never as another name', () => {
    const lostLetter = fc
      .record({ spelling: fc.constantFrom(...SPELLINGS.filter((s) => /\p{L}{3}/u.test(s))), at: fc.nat() })
      .map(({ spelling, at }) => {
        const inside = [...spelling].flatMap((c, i) => (i > 0 && i < spelling.length - 1 && /\p{L}/u.test(c) ? [i] : []));
        const i = inside[at % inside.length]!;
        return { spelling, read: `${spelling.slice(0, i)} ${spelling.slice(i + 1)}` };
      });
    expect(repairsAsItself(lostLetter)).toBeGreaterThan(500);
  });

  it('reads a known name with one glyph taken for one of like shape, or a speck beside a word, as that name, or leaves it, never as another name', () => {
    const lookalike = fc
      .record({ spelling: fc.constantFrom(...SPELLINGS.filter((s) => confusionFold(s).length >= 5)), at: fc.nat(), pick: fc.nat(), speck: fc.boolean() })
      .map(({ spelling, at, pick, speck }) => {
        if (speck) return { spelling, read: at % 2 === 0 ? `${spelling} |` : `l ${spelling}` };
        const shaped = [...spelling].flatMap((c, i) => (LOOKALIKE_READINGS[c] ? [i] : []));
        if (shaped.length === 0) return { spelling, read: spelling };
        const i = shaped[at % shaped.length]!;
        const readings = LOOKALIKE_READINGS[spelling[i]!]!;
        return { spelling, read: `${spelling.slice(0, i)}${readings[pick % readings.length]}${spelling.slice(i + 1)}` };
      });
    expect(repairsAsItself(lookalike)).toBeGreaterThan(500);
  });

  it('reads a known name with two glyphs read as one, or one as two, as that name, or leaves it, never as another name', () => {
    const MERGES: Array<[string, string]> = [['rn', 'm'], ['ri', 'n'], ['cl', 'd'], ['vv', 'w']];
    const merged = fc
      .record({ spelling: fc.constantFrom(...SPELLINGS), pair: fc.constantFrom(...MERGES), split: fc.boolean(), at: fc.nat() })
      .map(({ spelling, pair: [two, one], split, at }) => {
        const [from, to] = split ? [one, two] : [two, one];
        const places = [...spelling.toLowerCase().matchAll(new RegExp(from, 'g'))].map((m) => m.index);
        if (places.length === 0) return { spelling, read: spelling };
        const i = places[at % places.length]!;
        return { spelling, read: `${spelling.slice(0, i)}${to}${spelling.slice(i + from.length)}` };
      });
    expect(repairsAsItself(merged)).toBeGreaterThan(200);
  });

  it('reads a known name with the case of letters told by height alone misjudged as one of that name’s spellings, or leaves it', () => {
    const sizeOnly = /[cosuvwxz]/i;
    const misjudged = fc
      .record({ spelling: fc.constantFrom(...SPELLINGS.filter((s) => sizeOnly.test(s))), flips: fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }) })
      .map(({ spelling, flips }) => ({
        spelling,
        read: [...spelling].map((c, i) => (sizeOnly.test(c) && flips[i] ? (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) : c)).join(''),
      }));
    fc.assert(
      fc.property(misjudged, ({ spelling, read }) => {
        const repaired = repairedTestName(read);
        if (repaired !== null) expect(normaliseTestName(repaired)).toBe(normaliseTestName(spelling));
      }),
      { numRuns: 1000 },
    );
    expect(repairedTestName('sodium')).toBe('Sodium');
  });

  it('never changes a name the table knows', () => {
    for (const spelling of SPELLINGS) expect(repairedTestName(spelling)).toBeNull();
  });

  it('turns a known name misread by the usual confusions and spacing back into one of that name’s printed spellings, or leaves it', () => {
    const misread = misreadings(SPELLINGS);
    fc.assert(
      fc.property(misread, ({ spelling, read }) => {
        const repaired = repairedTestName(read);
        if (repaired === null) return;
        // Always a printed spelling, of a name that reads the same way, and repaired once for all.
        expect(SPELLINGS).toContain(repaired);
        expect(confusionFold(repaired)).toBe(confusionFold(read));
        expect(repairedTestName(repaired)).toBeNull();
        // Where the misreading is the table's only name that reads so, it is that name.
        const sameReading = new Set(SPELLINGS.filter((s) => confusionFold(s) === confusionFold(spelling)).map(normaliseTestName));
        if (sameReading.size === 1) expect(normaliseTestName(repaired)).toBe(normaliseTestName(spelling));
      }),
      { numRuns: 1000 },
    );
  });
});
