import fc from 'fast-check';
import panelTable from '../../../../data/lab/loinc-panels.json';
import { normaliseTestName } from '../../../../functions/lab/loinc/map-to-loinc';
import { repairedPanelTitle } from '../../../../functions/lab/ocr/panel-name-repair';
import { confusionFold } from '../../../../functions/lab/ocr/test-name-repair';
import { misreadings } from './misreadings';

const TITLES = panelTable.panels.flatMap((panel) => panel.printedNames);

describe('repairedPanelTitle', () => {
  it.each([
    // A gap inside a word as wide as the page's spaces, a speck read as a hyphen, a comma too faint to read.
    ['CBC With Differential/P latelet', 'CBC With Differential/Platelet'],
    ['Comp.-Metabolic Panel (14)', 'Comp. Metabolic Panel (14)'],
    ['LIPID PANEL STANDARD', 'LIPID PANEL, STANDARD'],
    ['URlNALYSIS, C0MPLETE', 'URINALYSIS, COMPLETE'],
    // Known titles in the case or spacing of another printed spelling: the one nearest in case.
    ['Lipid PaneI', 'Lipid Panel'],
    ['CBC(INCLUDES DIFF/PLT)', 'CBC (INCLUDES DIFF/PLT)'],
    // A monospaced `W` is a larger `w`: OCR tells the two by height alone.
    ['CBC with Differential/Platelet', 'CBC With Differential/Platelet'],
  ])('reads %s as %s', (read, printed) => expect(repairedPanelTitle(read)).toBe(printed));

  it.each(['Iron and TIBC', 'ab Report from LabC orp', 'HEMOGLOBIN A1c', 'Lipid', 'CBC'])('leaves %s as it is (no title of the table reads so)', (title) =>
    expect(repairedPanelTitle(title)).toBeNull(),
  );

  it('never changes a title the table prints', () => {
    for (const title of TITLES) expect(repairedPanelTitle(title)).toBeNull();
  });

  it('turns a printed title misread by the usual confusions and spacing back into that title’s printed spelling, or leaves it', () => {
    fc.assert(
      fc.property(misreadings(TITLES), ({ spelling, read }) => {
        const repaired = repairedPanelTitle(read);
        if (repaired === null) {
          // Left only when it already is a printed spelling of that title.
          expect(TITLES.filter((t) => normaliseTestName(t) === normaliseTestName(read))).toContain(read);
          return;
        }
        expect(TITLES).toContain(repaired);
        expect(normaliseTestName(repaired)).toBe(normaliseTestName(spelling));
        expect(confusionFold(repaired)).toBe(confusionFold(read));
        expect(repairedPanelTitle(repaired)).toBeNull();
      }),
      { numRuns: 1000 },
    );
  });
});
