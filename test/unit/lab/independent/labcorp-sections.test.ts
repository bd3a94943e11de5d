import { extractLabResults, type LabExtraction } from '../../../../functions/lab/parsers';
import type { PageText } from '../../../../functions/lab/pdf-text';
import { type SyntheticLine, stack, syntheticPage } from '../extraction/synthetic-page';

/** Regression tests for the Labcorp 2024 section reading fixed after the independent generator found them. */

const L = { name: 40, current: 190, previous: 290, units: 410, range: 470 };
const HEADER: SyntheticLine[1] = [
  [L.name, 'Test', 7.5],
  [L.current, 'Current Result and Flag', 7.5],
  [L.previous, 'Previous Result and Date', 7.5],
  [L.units, 'Units', 7.5],
  [L.range, 'Reference Interval', 7.5],
];

function extract(pages: PageText[]): LabExtraction {
  return extractLabResults(pages, { kind: 'lab_report', vendor: 'labcorp', collectionDate: '2025-03-14' });
}

function rows(extraction: LabExtraction): Array<[string, string, string | null]> {
  return extraction.panels.flatMap((p) => p.panelResults.map((r) => [p.panelName, r.biomarker, r.resultValue] as [string, string, string | null]));
}

describe('Labcorp 2024 sections set with tight row spacing', () => {
  // Rows 9.6 points apart: the last row of a section, or the second line of its wrapped name, sits as
  // close above the next section title as a title's own second line would.
  const extraction = extract([
    syntheticPage(1, [
      [698, [[36, 'Date Collected: 03/14/2025'], [190, 'Date Received: 03/15/2025']]],
      ...stack(672, 9.6, [
        [[L.name, 'Lipid Panel', 9.5]],
        HEADER,
        [[L.name, 'HDL Cholesterol'], [L.name + 62, '01', 5], [L.current, '47'], [L.units, 'mg/dL'], [L.range, '>39']],
        [[L.name, 'LDL Chol Calc (NIH)'], [L.name + 78, '01', 5], [L.current, '151'], [L.current + 36, 'High'], [L.units, 'mg/dL'], [L.range, '0-99']],
        [[L.name, 'Hemoglobin A1c', 9.5]],
        HEADER,
        [[L.name, 'Hemoglobin'], [L.name + 42, '01', 5], [L.current, '5.4'], [L.previous, '5.6'], [L.previous + 58, '01/05/2024'], [L.units, '%'], [L.range, '4.8-5.6']],
        [[L.name, 'A1c']],
        [[L.name, 'TSH', 9.5]],
        HEADER,
        [[L.name, 'TSH'], [L.name + 16, '01', 5], [L.current, '1.92'], [L.units, 'uIU/mL'], [L.range, '0.450-4.500']],
      ]),
    ]),
  ]);

  it('never takes a result row or a wrapped name into the next section title', () => {
    expect(rows(extraction)).toEqual([
      ['Lipid Panel', 'HDL Cholesterol', '47'],
      ['Lipid Panel', 'LDL Chol Calc (NIH)', '151'],
      ['Hemoglobin A1c', 'Hemoglobin A1c', '5.4'],
      ['TSH', 'TSH', '1.92'],
    ]);
  });
});

describe('a superscript lab number after a long test name', () => {
  it('stays with the name where it reaches past the start of the result column', () => {
    // A narrow name column: the result column starts HEADER_LEAD before its header, and the `01`
    // printed right after `Neutrophils (Absolute)` starts inside that lead.
    const current = 135;
    const header: SyntheticLine[1] = HEADER.map(([x, text, size]) => [x === L.current ? current : x, text, size]);
    const extraction = extract([
      syntheticPage(1, [
        [698, [[36, 'Date Collected: 03/14/2025']]],
        ...stack(672, 12, [
          [[L.name, 'CBC With Differential/Platelet', 9.5]],
          header,
          [[L.name, 'Neutrophils (Absolute)'], [L.name + 89.5, '01', 5], [current + 10, '1.8'], [L.units, 'x10E3/uL'], [L.range, '1.4-7.0']],
          [[L.name, 'WBC'], [L.name + 13.5, '01', 5], [current + 10, '6.1'], [L.units, 'x10E3/uL'], [L.range, '3.4-10.8']],
        ]),
      ]),
    ]);
    expect(rows(extraction)).toEqual([
      ['CBC With Differential/Platelet', 'Neutrophils (Absolute)', '1.8'],
      ['CBC With Differential/Platelet', 'WBC', '6.1'],
    ]);
  });
});
