import fc from 'fast-check';
import panelTable from '../../../../data/lab/loinc-panels.json';
import { normaliseTestName } from '../../../../functions/lab/loinc/map-to-loinc';
import { repairedPanelTitle, scannedPanelTitle } from '../../../../functions/lab/ocr/panel-name-repair';
import { confusionFold, repairedTestName } from '../../../../functions/lab/ocr/test-name-repair';
import { misreadings } from './misreadings';

const TITLES = panelTable.panels.flatMap((panel) => panel.printedNames);

describe('repairedPanelTitle', () => {
  it.each([
    // A gap inside a word as wide as the page's spaces, a speck read as a hyphen, a comma too faint to read.
    ['CBC With Differential/P latelet', 'CBC With Differential/Platelet'],
    ['Urinalysis, Comp!lete', 'Urinalysis, Complete'],
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

describe('scannedPanelTitle', () => {
  it.each([
    ['Comp.-Metabolic Panel (14)', 'Comp. Metabolic Panel (14)', 'a title of the panel table, misread'],
    ['HEMOGLOBlN A1c', 'HEMOGLOBIN A1c', 'a single test’s panel, titled with its name'],
    ['IRON, TIBC AND FERRITIN PANEL.', 'IRON, TIBC AND FERRITIN PANEL', 'a title the table lacks, a speck’s point after it'],
    ['Iron and TIBC-', 'Iron and TIBC', 'a speck’s dash after it'],
    ['Iron and TIBC', 'Iron and TIBC', 'as printed'],
    ['Comp. Metabolic', 'Comp. Metabolic', 'a point inside a title the table lacks stays'],
  ])('reads %s as %s (%s)', (read, title, _why) => expect(scannedPanelTitle(read)).toBe(title));

  it('takes the points, commas and dashes from the end of a title no table knows, and nothing else', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z][A-Za-z ,()/]{0,20}[A-Za-z)]$/), fc.stringMatching(/^[.,-]{1,3}$/), (title, marks) => {
        fc.pre(repairedPanelTitle(`${title}${marks}`) === null && repairedTestName(`${title}${marks}`) === null);
        expect(scannedPanelTitle(`${title}${marks}`)).toBe(title.trimEnd());
      }),
    );
  });
});
