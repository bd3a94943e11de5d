/**
 * What each supported layout prints: vendor signatures, column headers, page furniture and the markers
 * that end the results. Sources: docs/research/lab-extraction.md §1 and §6, test/fixtures/labs/research/*.txt.
 */

export type Vendor = 'quest' | 'labcorp';

export type LayoutId = 'quest-physician' | 'quest-patient-export' | 'labcorp-patient-report' | 'labcorp-legacy';

/** What a column holds. Quest prints the unit inside the reference-range column (`rangeUnit`). */
export type ColumnRole = 'name' | 'value' | 'flag' | 'range' | 'unit' | 'rangeUnit' | 'previous' | 'lab';

export const VENDOR_SIGNATURES: Record<Vendor, RegExp> = {
  labcorp: /Laboratory Corporation of America|Enterprise Report Version|\bLab ?Corp\b|labcorp\.com/i,
  quest: /Quest Diagnostics|questdiagnostics\.com|\bMyQuest\b|Nichols Institute/i,
};

export const LAB_NAMES: Record<Vendor, string> = { quest: 'Quest Diagnostics', labcorp: 'Labcorp' };

/**
 * Layouts that carry a vendor's name but are not the vendor's report (research §6.9–10): Epic/MyChart
 * exports. Health Gorilla / Function Health copies print Quest's own report, so they are read as Quest.
 */
export const FOREIGN_LAYOUT = /\bMyChart\b|Epic Systems/i;

/** Other US laboratories, so a rejection can name the lab it saw. */
export const OTHER_LABS: readonly string[] = [
  'BioReference Laboratories',
  'Bio-Reference Laboratories',
  'Sonora Quest Laboratories',
  'ARUP Laboratories',
  'Mayo Clinic Laboratories',
  'Cleveland HeartLab',
  'Boston Heart Diagnostics',
  'Sonic Healthcare',
  'Eurofins',
  'Spectra Laboratories',
  'Enzo Clinical Labs',
  'Genova Diagnostics',
  'Any Lab Test Now',
  'Kaiser Permanente',
  'Walk-In Lab',
  'Everlywell',
];

/** Letters, statements, claims and benefit forms: documents that are not lab reports. */
export const NON_LAB_DOCUMENT =
  /\bDear\b.*[,:]|\bSincerely\b|Explanation of Benefits|THIS IS NOT A BILL|\bClaim (?:Number|No\.?|#)|\bMember ID\b|\bPolicy (?:Number|Holder)\b|\bAmount Due\b|\bPrior Authorization\b/i;

export interface HeaderPhrase {
  words: string[];
  role: ColumnRole;
}

function phrases(entries: Array<[string, ColumnRole]>): HeaderPhrase[] {
  return entries
    .map(([text, role]) => ({ words: text.toLowerCase().split(' '), role }))
    .sort((a, b) => b.words.length - a.words.length);
}

export interface LayoutProfile {
  vendor: Vendor;
  headerPhrases: HeaderPhrase[];
  /** Labcorp 2024 prints each section title above its own column header row. */
  titleAboveHeader: boolean;
  /** Page header and footer lines repeated on every page: never results. */
  furniture: RegExp[];
  /** Lines after which a page holds no more results (legends, disclaimers, specimen details). */
  endOfResults: RegExp[];
  /** Labcorp 2024 prints the performing-lab number right after the test name (`Glucose 01`). */
  labCodeAfterName: boolean;
}

const QUEST_HEADERS = phrases([
  ['Test Name', 'name'],
  ['Test', 'name'],
  ['In Range', 'value'],
  ['Out Of Range', 'value'],
  ['Result', 'value'],
  ['Reference Range', 'rangeUnit'],
  ['Previous Result and Date', 'previous'],
  ['Previous Result Date', 'previous'],
  ['Previous Result', 'previous'],
  ['Date', 'previous'],
  ['Lab', 'lab'],
]);

const QUEST_FURNITURE = [
  /^PAGE \d+ OF \d+$/i,
  /^CLIENT SERVICES:/i,
  /^Quest, Quest Diagnostics/i,
  /^Printed from Health Gorilla/i,
  /^Appendix \d+ \[/i,
  /^Report Status:/i,
  /^Patient Information\b/i,
  /^(?:DOB|Gender|Phone \(H\)|Patient ID|Health ID|Specimen|Requisition|Client #|Lab Ref #|Collected|Received|Reported|ORDERING PHYSICIAN|FASTING|Source|STATUS):/i,
];

const LABCORP_2024_FURNITURE = [
  /^Date Created and Stored\b/i,
  /^Final Report\b/i,
  /^Page \d+ of \d+$/i,
  /^©\s?\d{4} Laboratory Corporation of America/i,
  /^All Rights Reserved\b/i,
  /^This document contains private and confidential health information/i,
  /\bPatient Report\b/,
  /^(?:Account Number|Ordering Physician|DOB|Patient ID|Age|Sex):/i,
  /^Date Collected:/i,
  /^Ordered Items:/i,
];

/** The physician report and the patient export share their grammar; the export adds a previous-result column. */
const QUEST: LayoutProfile = {
  vendor: 'quest',
  headerPhrases: QUEST_HEADERS,
  titleAboveHeader: false,
  furniture: QUEST_FURNITURE,
  endOfResults: [/^PERFORMING SITE:?/i, /^Physician Comments:/i],
  labCodeAfterName: false,
};

export const LAYOUTS: Record<LayoutId, LayoutProfile> = {
  'quest-physician': QUEST,
  'quest-patient-export': QUEST,
  'labcorp-patient-report': {
    vendor: 'labcorp',
    headerPhrases: phrases([
      ['Test', 'name'],
      ['Current Result and Flag', 'value'],
      ['Previous Result and Date', 'previous'],
      ['Units', 'unit'],
      ['Reference Interval', 'range'],
    ]),
    titleAboveHeader: true,
    furniture: LABCORP_2024_FURNITURE,
    endOfResults: [/^Disclaimer$/i, /^Icon Legend$/i, /^Performing Labs$/i, /^Patient Details$/i],
    labCodeAfterName: true,
  },
  'labcorp-legacy': {
    vendor: 'labcorp',
    headerPhrases: phrases([
      ['Tests', 'name'],
      ['Results', 'value'],
      ['Flag', 'flag'],
      ['Units', 'unit'],
      ['Reference Interval', 'range'],
      ['Lab', 'lab'],
    ]),
    titleAboveHeader: false,
    furniture: [/Overall Report Status:/i, /^\(SN: /i, /^Lab Report from LabCorp$/i, /^Page \d+ of \d+$/i],
    endOfResults: [/^01\s+\w+ - LabCorp\b/i, /^For inquiries/i],
    labCodeAfterName: false,
  },
};

/** Quest performing-lab codes printed at row end (and sometimes inside a wrapped panel header). */
export const QUEST_LAB_CODE = /^(?:NL1|AMD|EZ|MI|RAM|RFL|Z4M|Z3M|DAL|TPA|JI|UL|EN|SLI|SJC|QHO|WRA)$/;
/** Labcorp performing-lab numbers (`01`, `02` …). */
export const LABCORP_LAB_CODE = /^\d{2}$/;
