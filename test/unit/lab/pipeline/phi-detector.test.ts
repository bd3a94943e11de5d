import { countByCategory, mergeSpans, type PhiCategory } from '../../../../functions/lab/phi/categories';
import { detectSafeHarborPhi, printedDatesOfBirth } from '../../../../functions/lab/phi/builtin-detector';
import { documentText } from '../../../../functions/lab/phi/document-text';
import { REDACTED, redactPages } from '../../../../functions/lab/phi/redact';
import { withoutServiceDates } from '../../../../functions/lab/phi/service-dates';
import { readPdfText } from '../../../../functions/lab/pdf-text';
import { generateLabcorpReport, generateQuestReport } from '../../../fixtures/labs/generator';

function found(text: string): Array<[PhiCategory, string]> {
  return detectSafeHarborPhi(text).map((s) => [s.category, text.slice(s.start, s.end)]);
}

describe('built-in Safe Harbor detector: one case per category', () => {
  it.each<[string, string, PhiCategory, string]>([
    ['labelled patient name', 'Patient Name: DOE, JANE A\tReport Status: Final', 'name', 'DOE, JANE A'],
    ['name under the Quest patient-information header', 'Patient Information\tSpecimen Information\nROE, JOHN\tSpecimen: WC123456V', 'name', 'ROE, JOHN'],
    ['name as the first cell of a page (Labcorp)', 'SAMPLE, MARIA\tPatient Report\tlabcorp', 'name', 'SAMPLE, MARIA'],
    ['ordering physician', 'ORDERING PHYSICIAN: DOCTOR, SAMPLE', 'name', 'DOCTOR, SAMPLE'],
    ['date of birth', 'DOB: 04/17/1962\tAge: 62', 'date_of_birth', '04/17/1962'],
    ['date of birth spelled out', 'Date of Birth: Apr 17, 1962', 'date_of_birth', 'Apr 17, 1962'],
    ['street address', '4821 MAPLE DR, SPRINGFIELD, IL 62701', 'address', '4821 MAPLE DR'],
    ['city, state and ZIP', '4821 MAPLE DR, SPRINGFIELD, IL 62701', 'address', 'SPRINGFIELD, IL 62701'],
    ['labelled address', 'Address: Apartment 4, Rural Route 9', 'address', 'Apartment 4, Rural Route 9'],
    ['phone number', 'Phone (H): 555-013-4567', 'phone', '555-013-4567'],
    ['phone in parentheses form', 'Tel: (555) 013-4567', 'phone', '(555) 013-4567'],
    ['labelled phone, stopping at its cell', 'Fax: 555 013 4567\t09/12/2025', 'phone', '555 013 4567'],
    ['e-mail address', 'Contact: jane.doe@example.org', 'email', 'jane.doe@example.org'],
    ['MRN', 'MRN: 00482211', 'identifier', '00482211'],
    ['patient id', 'Patient ID: 48211937', 'identifier', '48211937'],
    ['Quest specimen (accession) number', 'Specimen: WC713097V', 'identifier', 'WC713097V'],
    ['accession number', 'Accession #: AB123456', 'identifier', 'AB123456'],
    ['Labcorp account number', 'Account Number: 04455660', 'identifier', '04455660'],
    ['Labcorp specimen id', 'Specimen ID: 123-456-7890-0', 'identifier', '123-456-7890-0'],
    ['social security number', 'SSN 123-45-6789', 'identifier', '123-45-6789'],
  ])('%s', (_case, text, category, value) => {
    expect(found(text)).toContainEqual([category, value]);
  });

  it('reads identifiers printed in a row under their labels (older Labcorp layout)', () => {
    const text = 'Specimen Number\tPatient ID\tControl Number\tAccount Number\n482119370\t48211937\t1000001\t00000001\n';
    expect(found(text).filter(([c]) => c === 'identifier').map(([, v]) => v)).toEqual(['482119370', '48211937', '1000001', '00000001']);
  });

  it('does not chase a short labelled number into the results', () => {
    const text = 'Client #: 1234\nVITAMIN B12\t1234\t200-1100 pg/mL\nAccession: AB123456\tAB123456';
    expect(found(text)).toEqual([
      ['identifier', '1234'],
      ['identifier', 'AB123456'],
      ['identifier', 'AB123456'],
    ]);
  });

  it('removes a labelled name wherever else it is printed, in either order', () => {
    const text = 'Patient: DOE, JANE\nLipid Panel\nreport for JANE DOE, page 2';
    expect(found(text).filter(([c]) => c === 'name').map(([, v]) => v)).toEqual(['DOE, JANE', 'JANE DOE']);
  });
});

describe('built-in detector leaves results and service dates alone', () => {
  it('finds nothing in result rows, reference ranges, units and panel names', () => {
    const rows = [
      'COMPREHENSIVE METABOLIC PANEL',
      'GLUCOSE\t105 H\t65-99 mg/dL\tEN',
      'CHOLESTEROL, TOTAL\t182\t<200 mg/dL\tEN',
      'TESTOSTERONE, FREE\t46.2\t35.0-155.0 pg/mL\tEZ',
      'PLATELET COUNT\t250\t140-400 Thousand/uL',
      'eGFR\t98\t> OR = 60 mL/min/1.73m2',
      'Hemoglobin A1c\t5.4\t4.8-5.6\t%',
      'LDL Chol Calc (NIH)\t97\tmg/dL\t0-99',
      'Specimen Type: Serum\tFASTING: YES',
      'Collected: 03/14/2025 07:45 AM UTC\tReceived: 03/14/2025\tReported: 03/16/2025',
      'Date Collected: 03/14/2025\tDate Reported: 03/17/2025',
      'PAGE 1 OF 3',
    ].join('\n');
    expect(found(rows)).toEqual([]);
  });

  it('overrules a detector that flags every date (Comprehend): only dates of birth go, whatever shares their line', () => {
    const text = 'Collected: 03/14/2025\tDOB: 04/17/1962\nDate/Time Collected\n2025-03-14\nPrevious result 5.1 on 01/02/2025\nBorn on 04/17/1962';
    const dateSpans = [...text.matchAll(/\d{2}\/\d{2}\/\d{4}|\d{4}-\d{2}-\d{2}/g)].map((m) => ({ start: m.index, end: m.index + m[0].length, category: 'date' as const }));
    const kept = withoutServiceDates(text, dateSpans);
    expect(kept.map((s) => text.slice(s.start, s.end))).toEqual(['04/17/1962', '04/17/1962']);
    expect(kept.map((s) => s.category)).toEqual(['date_of_birth', 'date_of_birth']);
    const name = { start: 0, end: 9, category: 'name' as const };
    expect(withoutServiceDates(text, [name])).toEqual([name]);
  });

  it('reads the printed dates of birth for the verification flags', () => {
    expect(printedDatesOfBirth('DOB: 04/17/1962\tAge: 62\nCollected: 03/14/2025')).toEqual(['04/17/1962']);
  });
});

describe('redaction of generated reports in every layout', () => {
  const layouts = [
    ['Quest physician', () => generateQuestReport({ layout: 'physician', seed: 11 })],
    ['Quest patient export', () => generateQuestReport({ layout: 'patient-export', seed: 12 })],
    ['Labcorp patient report', () => generateLabcorpReport({ layout: 'patient-report', seed: 13 })],
    ['Labcorp legacy', () => generateLabcorpReport({ layout: 'legacy', seed: 14 })],
  ] as const;

  it.each(layouts)('%s: every mock identifier is gone, every result row is intact', async (_layout, generate) => {
    const { pdf, truth } = await generate();
    const pages = await readPdfText(pdf);
    const layout = documentText(pages);
    const spans = mergeSpans(detectSafeHarborPhi(layout.text));
    const redactedPages = redactPages(pages, layout, spans);
    const redacted = documentText(redactedPages).text;

    for (const identifier of truth.phi) expect(redacted).not.toContain(identifier);
    expect(redacted).toContain(REDACTED);
    expect(redacted).toContain(truth.collectionDate.slice(0, 4));
    const lines = redacted.split('\n');
    for (const result of truth.panels.flatMap((p) => p.results)) {
      const nameStart = result.biomarker.split(' ')[0]!;
      const row = lines.find((line) => line.includes(nameStart) && line.includes(result.resultValue));
      expect(row).toBeDefined();
      expect(row).not.toContain(REDACTED);
    }
    // Item geometry is untouched: parsers still read the layout.
    expect(redactedPages.map((p) => p.items.map(({ x, y }) => [x, y]))).toEqual(pages.map((p) => p.items.map(({ x, y }) => [x, y])));
    expect(Object.keys(countByCategory(spans)).sort()).toEqual(expect.arrayContaining(['address', 'identifier', 'name']));
  });
});
