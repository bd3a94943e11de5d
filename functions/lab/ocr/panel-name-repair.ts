import panelTable from '../../../data/lab/loinc-panels.json';
import { MisreadNames } from './misread-name';
import { PrintedNames, repairedTestName } from './test-name-repair';

/**
 * Panel titles OCR misread, put back to the spelling the panel table prints (data/lab/loinc-panels.json):
 * `CBC With Differential/P latelet` (a gap inside a word as wide as the page's spaces) is
 * `CBC With Differential/Platelet`. The rules are those of test names (test-name-repair.ts): spacing,
 * speck marks, letter case and the usual confusions aside, the reading must spell exactly one printed
 * title; a title the table lacks stays as read.
 */
const PANEL_TITLES = new PrintedNames(panelTable.panels.flatMap((panel) => panel.printedNames));

/** The panel table's spelling of an OCR-misread panel title; null when it is spelt as printed, or reads as no one title. */
export function repairedPanelTitle(title: string): string | null {
  return PANEL_TITLES.repaired(title);
}

const panelOfTitle = new Map(panelTable.panels.flatMap((panel) => panel.printedNames.map((title) => [title, panel] as const)));

/** The panel table's titles as a scanned title misread with doubted words is judged against them; two titles are one when they are one panel's. */
export const MISREAD_PANEL_TITLES = new MisreadNames(panelOfTitle.keys(), (a, b) => panelOfTitle.get(a) === panelOfTitle.get(b));

/** Whether the text is a title of the panel table, as printed or misread as no other title. */
export function isPanelTitle(text: string): boolean {
  return PANEL_TITLES.knows(text);
}

/** Marks a speck makes at the end of a scanned title: no panel title ends in a point, comma or dash. */
const CLOSING_SPECKS = /(?<=\S)[\s.,\u2010-\u2015_~'’`-]+$/u;

/**
 * The title of a panel read from a scan: the panel table's printed title it misreads, or the test name
 * (a single test's panel is titled with its name) the LOINC table prints; else the title as read
 * without the marks specks left at its end (`IRON, TIBC AND FERRITIN PANEL.`, `Iron and TIBC-`).
 */
export function scannedPanelTitle(title: string): string {
  return repairedPanelTitle(title) ?? repairedTestName(title) ?? title.replace(CLOSING_SPECKS, '');
}
