import { type PhiCategory, type PhiDetector, type PhiSpan, mergeSpans } from './categories';

/**
 * Hale's own Safe Harbor detector (45 CFR 164.514(b)(2)) for the identifiers printed on lab reports:
 * it is keyed off the labels Quest and Labcorp print (`DOB:`, `Patient ID:`, `Specimen:`, `Account
 * Number`…) plus patterns that need no label (phone numbers, e-mail addresses, SSNs, street addresses,
 * `City, ST 12345`). A name found under a label is then removed wherever else it is printed (Labcorp
 * repeats it in every page header). Service dates (collected, received, reported) are kept: they are
 * the results' effective dates. Values are matched only in the cell that follows a label (cells are
 * tab-separated, see document-text.ts), so result rows are never touched.
 */

const DATE = String.raw`(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}|[A-Z][a-z]{2,8}\.? \d{1,2},? \d{4}|\d{1,2} [A-Z][a-z]{2,8}\.? \d{4})`;
const LABEL_END = String.raw`\s*(?:[:#]|No\.?|Number)?\s*[:#]?[ \t]*`;

interface LabelRule {
  category: PhiCategory;
  label: string;
  /** The value that must follow the label, within its cell. */
  value: string;
}

const NAME_VALUE = String.raw`[A-Za-z][A-Za-z'.\-]*(?:,? +[A-Za-z][A-Za-z'.\-]*){1,4}`;
const ID_VALUE = String.raw`(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{3,}`;

const LABEL_RULES: readonly LabelRule[] = [
  { category: 'date_of_birth', label: String.raw`(?:DOB(?:\/Age\/Sex)?|D\.O\.B\.?|Date of Birth|Birth ?Date|Born)`, value: DATE },
  {
    category: 'name',
    label: String.raw`(?:Patient Name|Patient|Pt\.? Name|Name|Ordering Physician|Physician|Provider|Doctor|Guarantor|Insured|Subscriber|Responsible Party|Member Name)(?=\s*:)`,
    value: NAME_VALUE,
  },
  {
    category: 'identifier',
    label: String.raw`(?:MRN|Medical Record(?: Number| No\.?| #)?|Patient ID|Pt\.? ID|Specimen(?: ID| Number| No\.?| #)?|Accession(?: Number| No\.?| #)?|Account(?: Number| No\.?| #)?|Acct\.?(?: Number| No\.?| #)?|Control(?: ID| Number| No\.?| #)?|Requisition(?: Number| No\.?| #)?|Lab Ref(?:erence)?(?: No\.?| #)?|Client(?: ID| No\.?| #)|Chart(?: Number| No\.?| #)?|Member ID|Policy(?: Number| No\.?| #)?|Group(?: Number| No\.?| #)|Encounter(?: ID| Number| #)?|Visit(?: ID| Number| #)|SSN|SN|Social Security(?: Number| No\.?)?)`,
    value: ID_VALUE,
  },
  { category: 'address', label: String.raw`(?:Patient Address|Home Address|Address)(?=\s*:)`, value: String.raw`[^\t\n]*[A-Za-z0-9][^\t\n]*` },
  { category: 'phone', label: String.raw`(?:Phone|Tel(?:ephone)?|Fax|Cell|Mobile)(?=\s*[:#])`, value: String.raw`[+()\d][\d() .-]{6,}\d` },
];

const LABEL_PATTERNS = LABEL_RULES.map((rule) => ({
  category: rule.category,
  pattern: new RegExp(`(?<![A-Za-z])${rule.label}${LABEL_END}(${rule.value})`, 'gi'),
}));

/** Identifiers that look the same on every report and need no label. */
const PATTERNS: readonly { category: PhiCategory; pattern: RegExp }[] = [
  { category: 'email', pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g },
  { category: 'identifier', pattern: /\b\d{3}-\d{2}-\d{4}\b/g },
  { category: 'phone', pattern: /(?<![\d.-])(?:\+?1[ .-])?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}(?![\d.-])/g },
  {
    category: 'address',
    pattern:
      /\b\d{1,6}(?: [A-Z0-9][A-Za-z0-9.'-]*){1,4} (?:STREET|ST|AVENUE|AVE|ROAD|RD|BOULEVARD|BLVD|LANE|LN|DRIVE|DR|COURT|CT|WAY|PLACE|PL|TERRACE|TER|CIRCLE|CIR|PARKWAY|PKWY|HIGHWAY|HWY|Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Ter|Circle|Cir|Parkway|Pkwy|Highway|Hwy)\b\.?(?:,? (?:APT|Apt|SUITE|Suite|STE|Ste|UNIT|Unit|#) ?[\w-]+)?/g,
  },
  { category: 'address', pattern: /\b[A-Z][A-Za-z.'-]*(?: [A-Z][A-Za-z.'-]*){0,3}, [A-Z]{2} \d{5}(?:-\d{4})?\b/g },
  { category: 'address', pattern: /\bP\.? ?O\.? Box \d+\b/gi },
];

/** Labels that may directly follow a value on the same cell (`DOE, JOHN DOB: …`); a name stops before them. */
const NEXT_LABEL = /\s+(?:DOB|D\.O\.B|Age|Sex|Gender|Date|Phone|Patient|Specimen|Account|MRN|ID)\b.*$/i;

function labelledSpans(text: string): PhiSpan[] {
  const spans: PhiSpan[] = [];
  for (const { category, pattern } of LABEL_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      let value = match[1]!;
      if (category === 'name') value = value.replace(NEXT_LABEL, '');
      value = value.trimEnd();
      if (value.length === 0) continue;
      const start = match.index + match[0].length - match[1]!.length;
      spans.push({ start, end: start + value.length, category });
    }
  }
  return spans;
}

/**
 * The cell under a `Patient Information` header holds the name without a label (Quest); the first
 * cell of the next line is taken when it reads like `LAST, FIRST`.
 */
function headerBlockNames(text: string): PhiSpan[] {
  const spans: PhiSpan[] = [];
  for (const match of text.matchAll(/Patient Information[^\n]*\n([A-Za-z][A-Za-z'-]*, ?[A-Za-z][A-Za-z'-]*(?: [A-Za-z][A-Za-z'.-]*){0,2})(?=\t|\n| {2})/g)) {
    const start = match.index + match[0].length - match[1]!.length;
    spans.push({ start, end: start + match[1]!.length, category: 'name' });
  }
  return spans;
}

const LAST_FIRST = /^[A-Z][A-Z'-]+, ?[A-Z][A-Z'-]+(?: [A-Z][A-Z'.-]*)?$/;

/**
 * Labcorp prints the patient's name, unlabelled, as the first cell of every page (`DOE, JANE` beside
 * `Patient Report`); a first cell in the `LAST, FIRST` form of capitals is taken as a name.
 */
function pageTopNames(text: string): PhiSpan[] {
  const spans: PhiSpan[] = [];
  for (const match of text.matchAll(/(?:^|\f\n)([^\t\n]+)/g)) {
    const cell = match[1]!.trim();
    if (!LAST_FIRST.test(cell)) continue;
    const start = match.index + match[0].indexOf(cell);
    spans.push({ start, end: start + cell.length, category: 'name' });
  }
  return spans;
}

const ID_LABEL_CELL = new RegExp(`^${LABEL_RULES.find((rule) => rule.category === 'identifier')!.label}$`, 'i');
const ID_VALUE_CELL = new RegExp(`^${ID_VALUE}$`);

/** A row of identifier labels over a row of values in the same columns (older Labcorp: `Specimen Number  Patient ID …`). */
function headerRowIdentifiers(text: string): PhiSpan[] {
  const spans: PhiSpan[] = [];
  const lines = text.split('\n');
  let offset = 0;
  lines.forEach((line, index) => {
    const next = lines[index + 1];
    const labels = line.split('\t');
    if (next !== undefined && labels.length > 1 && labels.every((cell) => ID_LABEL_CELL.test(cell.trim()))) {
      let cellOffset = offset + line.length + 1;
      for (const cell of next.split('\t')) {
        if (ID_VALUE_CELL.test(cell.trim())) spans.push({ start: cellOffset, end: cellOffset + cell.length, category: 'identifier' });
        cellOffset += cell.length + 1;
      }
    }
    offset += line.length + 1;
  });
  return spans;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Spellings of a found name: as printed, and `FIRST LAST` for `LAST, FIRST`. */
function nameVariants(name: string): string[] {
  const variants = new Set([name]);
  const comma = /^([^,]+),\s*(\S+)(?:\s+(\S+))?$/.exec(name);
  if (comma) {
    const [, last, first, middle] = comma;
    variants.add(`${first} ${last}`);
    if (middle) variants.add(`${first} ${middle} ${last}`);
  }
  return [...variants].filter((v) => v.replace(/[^A-Za-z]/g, '').length >= 4);
}

const MIN_REPEATED_ID_LENGTH = 6;

/** Every other place a found name, date of birth or identifier is printed. */
function repeatedValues(text: string, found: readonly PhiSpan[]): PhiSpan[] {
  const spans: PhiSpan[] = [];
  for (const span of found) {
    if (span.category !== 'name' && span.category !== 'date_of_birth' && span.category !== 'identifier') continue;
    const value = text.slice(span.start, span.end);
    // A short number found after a label may also be a result value elsewhere (`Client #: 1234`, B12 1234 pg/mL).
    if (span.category === 'identifier' && value.length < MIN_REPEATED_ID_LENGTH) continue;
    const variants = span.category === 'name' ? nameVariants(value) : [value];
    for (const variant of variants) {
      const pattern = new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(variant).replace(/ /g, String.raw`\s+`)}(?![A-Za-z0-9])`, 'gi');
      for (const match of text.matchAll(pattern)) spans.push({ start: match.index, end: match.index + match[0].length, category: span.category });
    }
  }
  return spans;
}

export function detectSafeHarborPhi(text: string): PhiSpan[] {
  const found = [...labelledSpans(text), ...headerBlockNames(text), ...pageTopNames(text), ...headerRowIdentifiers(text)];
  for (const { category, pattern } of PATTERNS) {
    for (const match of text.matchAll(pattern)) found.push({ start: match.index, end: match.index + match[0].length, category });
  }
  return mergeSpans([...found, ...repeatedValues(text, found)]);
}

export const builtinPhiDetector: PhiDetector = {
  detect: async (text) => detectSafeHarborPhi(text),
};

/** The dates printed after a date-of-birth label, as printed (for the `verification` flags). */
export function printedDatesOfBirth(text: string): string[] {
  return labelledSpans(text)
    .filter((span) => span.category === 'date_of_birth')
    .map((span) => text.slice(span.start, span.end));
}
