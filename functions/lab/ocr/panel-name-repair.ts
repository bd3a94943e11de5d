import panelTable from '../../../data/lab/loinc-panels.json';
import { PrintedNames } from './test-name-repair';

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

/** Whether the text is a title of the panel table, as printed or misread as no other title. */
export function isPanelTitle(text: string): boolean {
  return PANEL_TITLES.knows(text);
}
