import { extractLabResults, type LabExtraction } from '../../../../functions/lab/parsers';
import type { PageText } from '../../../../functions/lab/pdf-text';
import { type SyntheticLine, stack, syntheticPage } from '../extraction/synthetic-page';

/**
 * Regression tests for the Quest row reading fixed after the independent generator
 * (test/fixtures/labs/independent) found them: each page is placed by hand as that generator draws it.
 */

const Q = { name: 40, row: 54, inRange: 250, outRange: 305, range: 375, lab: 545 };
const HEADER: SyntheticLine = [700, [[Q.name, 'Test Name'], [Q.inRange, 'In Range'], [Q.outRange, 'Out Of Range'], [Q.range, 'Reference Range'], [Q.lab, 'Lab']]];

function extract(pages: PageText[]): LabExtraction {
  return extractLabResults(pages, { kind: 'lab_report', vendor: 'quest', collectionDate: '2025-03-14' });
}

function rows(extraction: LabExtraction): Array<[string, string, string | null]> {
  return extraction.panels.flatMap((p) => p.panelResults.map((r) => [p.panelName, r.biomarker, r.resultValue] as [string, string, string | null]));
}

describe('a wrapped test name with its value on the second line', () => {
  const extraction = extract([
    syntheticPage(1, [
      HEADER,
      [684, [[Q.name, 'CBC (INCLUDES DIFF/PLT)']]],
      ...stack(670, 12, [
        [[Q.row, 'HEMOGLOBIN'], [Q.inRange, '15.1'], [Q.range, '13.2-17.1 g/dL'], [Q.lab, 'EZ']],
        [[Q.row, 'PLATELET']],
        [[Q.row, 'COUNT'], [Q.inRange, '427'], [Q.range, '140-400 Thousand/uL'], [Q.lab, 'EZ']],
      ]),
      [620, [[Q.name, 'COMPREHENSIVE METABOLIC PANEL']]],
      ...stack(606, 12, [
        [[Q.row, 'UREA NITROGEN']],
        [[Q.row, '(BUN)'], [Q.inRange, '14'], [Q.range, '7-25 mg/dL'], [Q.lab, 'NL1']],
        [[Q.row, 'CARBON DIOXIDE'], [Q.inRange, '26'], [Q.range, '20-32 mmol/L'], [Q.lab, 'NL1']],
        [[Q.row, 'BILIRUBIN,']],
        [[Q.row, 'TOTAL'], [Q.inRange, '0.9'], [Q.range, '0.2-1.2 mg/dL'], [Q.lab, 'NL1']],
      ]),
    ]),
  ]);

  it('joins the first line to the row below, not to the row above', () => {
    expect(rows(extraction)).toEqual([
      ['CBC (INCLUDES DIFF/PLT)', 'HEMOGLOBIN', '15.1'],
      ['CBC (INCLUDES DIFF/PLT)', 'PLATELET COUNT', '427'],
      ['COMPREHENSIVE METABOLIC PANEL', 'UREA NITROGEN (BUN)', '14'],
      ['COMPREHENSIVE METABOLIC PANEL', 'CARBON DIOXIDE', '26'],
      ['COMPREHENSIVE METABOLIC PANEL', 'BILIRUBIN, TOTAL', '0.9'],
    ]);
  });

  it('records the join and keeps both lines as the provenance of the result', () => {
    const platelets = extraction.panels[0]!.panelResults[1]!;
    expect(platelets.provenance.sourceText).toBe('PLATELET\nCOUNT 427 140-400 Thousand/uL EZ');
    expect(extraction.mergeActions).toContainEqual(expect.objectContaining({ code: 'name_rejoined', biomarker: 'PLATELET COUNT' }));
  });

  it('still joins a wrapped name whose value is on the first line to that row', () => {
    const first = extract([
      syntheticPage(1, [
        HEADER,
        [684, [[Q.name, 'COMPREHENSIVE METABOLIC PANEL']]],
        ...stack(670, 12, [
          [[Q.row, 'UREA NITROGEN'], [Q.inRange, '14'], [Q.range, '7-25 mg/dL'], [Q.lab, 'NL1']],
          [[Q.row, '(BUN)']],
          [[Q.row, 'CREATININE'], [Q.inRange, '0.91'], [Q.range, '0.60-1.29 mg/dL'], [Q.lab, 'NL1']],
        ]),
      ]),
    ]);
    expect(rows(first).map((r) => r[1])).toEqual(['UREA NITROGEN (BUN)', 'CREATININE']);
  });
});

describe('rows printed at the panel title indent (no indentation)', () => {
  const size = 9.5;
  const extraction = extract([
    syntheticPage(
      1,
      [
        HEADER,
        ...stack(684, 18, [
          [[Q.name, 'CBC (INCLUDES DIFF/PLT)']],
          [[Q.name, 'RED BLOOD CELL']],
          [[Q.name, 'COUNT'], [Q.inRange, '5.09'], [Q.range, '4.20-5.80 Million/uL'], [Q.lab, 'EZ']],
          [[Q.name, 'NEUTROPHILS'], [Q.inRange, '61.9'], [Q.range, '%'], [Q.lab, 'AMD']],
          [[Q.name, 'Desirable range <100 mg/dL for primary prevention;', 9]],
          [[Q.name, 'IRON, TIBC AND FERRITIN PANEL']],
          [[Q.name, 'FERRITIN'], [Q.inRange, '226'], [Q.range, '38-380 ng/mL'], [Q.lab, 'EZ']],
          [[Q.name, 'TSH']],
          [[Q.name, 'TSH'], [Q.inRange, '2.37'], [Q.range, '0.40-4.50 mIU/L'], [Q.lab, 'NL1']],
        ]),
      ],
      size,
    ),
  ]);

  it('tells upper-case panel titles from rows, wrapped names and prose by the names the LOINC table knows', () => {
    expect(rows(extraction)).toEqual([
      ['CBC (INCLUDES DIFF/PLT)', 'RED BLOOD CELL COUNT', '5.09'],
      ['CBC (INCLUDES DIFF/PLT)', 'NEUTROPHILS', '61.9'],
      ['IRON, TIBC AND FERRITIN PANEL', 'FERRITIN', '226'],
      ['TSH', 'TSH', '2.37'],
    ]);
  });

  it('reads the per-panel Collected stamp of a title printed at the row indent', () => {
    const stamped = extract([
      syntheticPage(1, [
        HEADER,
        ...stack(684, 12, [
          [[Q.name, 'LIPID PANEL, STANDARD Collected: 03/14/2025 08:12 AM EDT Received: 03/14/2025 11:02 AM EDT']],
          [[Q.name, 'CHOLESTEROL, TOTAL'], [Q.inRange, '182'], [Q.range, '<200 mg/dL'], [Q.lab, 'DAL']],
        ]),
      ]),
    ]);
    expect(stamped.panels.map((p) => [p.panelName, p.dateCollected, p.panelResults.length])).toEqual([['LIPID PANEL, STANDARD', '2025-03-14', 1]]);
  });
});

describe('loosely spaced rows', () => {
  it('joins a wrapped name whose second line sits a full row pitch (1.9 font sizes) below', () => {
    const extraction = extract([
      syntheticPage(1, [
        HEADER,
        [684, [[Q.name, 'IRON, TIBC AND FERRITIN PANEL']]],
        ...stack(668, 15.2, [
          [[Q.row, 'IRON, TOTAL'], [Q.inRange, '83'], [Q.range, '50-180 mcg/dL'], [Q.lab, 'EZ']],
          [[Q.row, 'IRON BINDING'], [Q.inRange, '289'], [Q.range, '250-425 mcg/dL (calc)'], [Q.lab, 'EZ']],
          [[Q.row, 'CAPACITY']],
          [[Q.row, 'FERRITIN'], [Q.inRange, '40'], [Q.range, '38-380 ng/mL'], [Q.lab, 'EZ']],
        ]),
      ]),
    ]);
    expect(rows(extraction).map((r) => r[1])).toEqual(['IRON, TOTAL', 'IRON BINDING CAPACITY', 'FERRITIN']);
  });
});

describe('interpretive text in one text run across the columns', () => {
  it('is never a result, even when its last number lands under the value column', () => {
    const extraction = extract([
      syntheticPage(1, [
        HEADER,
        ...stack(684, 12, [
          [[Q.name, 'HS CRP']],
          [[Q.row, 'HS CRP'], [Q.outRange, '2.3 H'], [Q.range, '< OR = 0.9 mg/L'], [Q.lab, 'NL1']],
          // One run of 58 characters: its last word is estimated to start under the In Range column.
          [[Q.row, 'Average risk Optimal <1.0 Moderate 1.0-3.0 High > or = 3.1']],
        ]),
      ]),
    ]);
    expect(rows(extraction)).toEqual([['HS CRP', 'HS CRP', '2.3']]);
  });
});

describe('right-aligned values', () => {
  it('reads a text result wider than the numbers of its column, starting a little left of the column', () => {
    // Values right-aligned on In Range + 10: `YELLOW` (24 points wide here) starts 2 points before the
    // In Range column does (12 points before its header), `5.1` inside it.
    const extraction = extract([
      syntheticPage(1, [
        HEADER,
        [684, [[Q.name, 'URINALYSIS, COMPLETE']]],
        ...stack(670, 12, [
          [[Q.row, 'COLOR'], [Q.inRange + 10 - 24, 'YELLOW'], [Q.range, 'YELLOW'], [Q.lab, 'DAL']],
          [[Q.row, 'PH'], [Q.inRange + 10 - 12, '5.1'], [Q.range, '5.0-8.0'], [Q.lab, 'DAL']],
        ]),
      ]),
    ]);
    expect(extraction.panels[0]!.panelResults.map((r) => [r.biomarker, r.resultValue, r.resultType, r.referenceRangeText])).toEqual([
      ['COLOR', 'YELLOW', 'string', 'YELLOW'],
      ['PH', '5.1', 'numeric', '5.0-8.0'],
    ]);
  });
});

describe('a word written as several text items', () => {
  it('is one word when the second item starts with no room for a space, and two words when there is room', () => {
    // 0.5 em per character at 8 pt: `PHOSPHATA` ends at 90; `SE` is placed 2 points inside it, as pdf.js
    // reports a glyph-run producer's pieces. `HDL` ends at 66 and `CHOLESTEROL` starts a space (2 pt) after.
    const extraction = extract([
      syntheticPage(1, [
        HEADER,
        [684, [[Q.name, 'COMPREHENSIVE METABOLIC PANEL']]],
        ...stack(670, 12, [
          [[Q.row, 'PHOSPHATA'], [88, 'SE'], [Q.inRange, '95'], [Q.range, '36-130 U/L'], [Q.lab, 'NL1']],
          [[Q.row, 'HDL'], [68, 'CHOLESTEROL'], [Q.inRange, '59'], [Q.range, '> OR = 40 mg/dL'], [Q.lab, 'NL1']],
        ]),
      ]),
    ]);
    expect(rows(extraction).map((r) => r[1])).toEqual(['PHOSPHATASE', 'HDL CHOLESTEROL']);
  });
});

describe('a panel header wrapped over two lines above unindented rows', () => {
  it('is one title with the lab code beside its first line dropped, and never the rest of the row above', () => {
    const extraction = extract([
      syntheticPage(1, [
        HEADER,
        ...stack(684, 12, [
          [[Q.name, 'HS CRP']],
          [[Q.name, 'HS CRP'], [Q.inRange, '0.8'], [Q.range, '< OR = 0.9 mg/L'], [Q.lab, 'Z4M']],
          [[Q.name, 'COMPREHENSIVE METABOLIC'], [Q.lab, 'NL1']],
          [[Q.name, 'PANEL']],
          [[Q.name, 'GLUCOSE'], [Q.inRange, '92'], [Q.range, '65-99 mg/dL'], [Q.lab, 'NL1']],
        ]),
      ]),
    ]);
    expect(rows(extraction)).toEqual([
      ['HS CRP', 'HS CRP', '0.8'],
      ['COMPREHENSIVE METABOLIC PANEL', 'GLUCOSE', '92'],
    ]);
  });
});

describe('a right-aligned text result of two words', () => {
  it('keeps both words in the value when the first starts left of the column', () => {
    // Right-aligned on In Range + 10: `SEE NOTE` and `PALE YELLOW` start 20 and 30 points before In
    // Range, so their first word falls in the name column and only the second in the value column.
    const extraction = extract([
      syntheticPage(1, [
        HEADER,
        [684, [[Q.name, 'URINALYSIS, COMPLETE']]],
        ...stack(670, 12, [
          [[Q.row, 'COLOR'], [Q.inRange - 34, 'PALE YELLOW'], [Q.range, 'YELLOW'], [Q.lab, 'DAL']],
          [[Q.row, 'PH'], [Q.inRange - 22, 'SEE NOTE'], [Q.range, '5.0-8.0'], [Q.lab, 'DAL']],
          [[Q.row, 'APPEARANCE'], [Q.inRange - 10, 'CLEAR'], [Q.range, 'CLEAR'], [Q.lab, 'DAL']],
        ]),
      ]),
    ]);
    expect(extraction.panels[0]!.panelResults.map((r) => [r.biomarker, r.resultValue, r.resultType])).toEqual([
      ['COLOR', 'PALE YELLOW', 'string'],
      ['PH', 'SEE NOTE', 'string'],
      ['APPEARANCE', 'CLEAR', 'string'],
    ]);
  });

  it('moves a qualifying first word (`NOT`, `NON`) to a value it completes, also after a name the LOINC table does not know', () => {
    const extraction = extract([
      syntheticPage(1, [
        HEADER,
        [684, [[Q.name, 'CHLAMYDIA TRACHOMATIS RNA, TMA, UROGENITAL']]],
        [670, [[Q.row, 'CHLAMYDIA TRACHOMATIS RNA, TMA, UROGENITAL'], [Q.inRange - 20, 'NOT DETECTED'], [Q.range, 'NOT DETECTED'], [Q.lab, 'EZ']]],
        [656, [[Q.row, 'TREPONEMA ANTIBODY SCREEN'], [Q.inRange - 10, 'NON REACTIVE'], [Q.range, 'NON REACTIVE'], [Q.lab, 'EZ']]],
      ]),
    ]);
    expect(extraction.panels.flatMap((p) => p.panelResults.map((r) => [r.biomarker, r.resultValue]))).toEqual([
      ['CHLAMYDIA TRACHOMATIS RNA, TMA, UROGENITAL', 'NOT DETECTED'],
      ['TREPONEMA ANTIBODY SCREEN', 'NON REACTIVE'],
    ]);
  });

  it('never takes the last word of a test name for the first word of its value', () => {
    // `LDL PATTERN` + `A` would read as `LDL` = `PATTERN A` if any name word could move; `LDL` alone is no test name.
    const extraction = extract([
      syntheticPage(1, [
        HEADER,
        [684, [[Q.name, 'LIPOPROTEIN FRACTIONATION ION MOBILITY']]],
        [670, [[Q.row, 'LDL PATTERN'], [Q.inRange, 'A'], [Q.range, 'Pattern'], [Q.lab, 'EZ']]],
      ]),
    ]);
    expect(extraction.panels.flatMap((p) => p.panelResults.map((r) => [r.biomarker, r.resultValue]))).not.toContainEqual(['LDL', 'PATTERN A']);
  });
});
