import { classifyDocument } from '../../../../functions/lab/classify-document';
import { extractLabResults, type LabExtraction } from '../../../../functions/lab/parsers';
import { readPdfText } from '../../../../functions/lab/pdf-text';
import type { PanelResult } from '../../../../functions/lab/results-schema';
import { generateQuestReport } from '../../../fixtures/labs/generator';
import { type Chunking, type DrawnLine, type FontName, renderLines } from './render-lines';

/**
 * Regression tests for the failure kinds found on Quest and Labcorp reports made independently of this
 * code (issue "Lab extraction that holds on reports it was not built from"), each drawn into a real
 * PDF and read back through pdf.js, classification and extraction.
 */

async function read(pages: DrawnLine[][], options: { font?: FontName; chunking?: Chunking } = {}) {
  const text = await readPdfText(await renderLines(pages, options));
  const classification = classifyDocument(text);
  const extraction = classification.kind === 'lab_report' ? extractLabResults(text, classification) : null;
  return { classification, extraction };
}

function rows(extraction: LabExtraction | null): Array<[string, string, string | null, string | null, string | null]> {
  return (extraction?.panels ?? []).flatMap((p) => p.panelResults.map((r) => [p.panelName, r.biomarker, r.resultValue, r.resultUnit, r.referenceRangeText] as [string, string, string | null, string | null, string | null]));
}

function result(extraction: LabExtraction | null, name: string): PanelResult {
  const found = extraction?.panels.flatMap((p) => p.panelResults).find((r) => r.biomarker === name);
  if (!found) throw new Error(`no ${name} in ${rows(extraction).map((r) => r[1]).join(', ')}`);
  return found;
}

const LEGACY = { name: 36, row: 46, result: 220, flag: 280, units: 330, range: 420, lab: 545 };
const LEGACY_ROWS: DrawnLine[] = [
  [640, [[LEGACY.name, 'TESTS'], [LEGACY.result, 'RESULTS'], [LEGACY.flag, 'FLAG'], [LEGACY.units, 'UNITS'], [LEGACY.range, 'REFERENCE INTERVAL'], [LEGACY.lab, 'LAB']]],
  [624, [[LEGACY.name, 'CBC With Differential/Platelet', 9]]],
  [612, [[LEGACY.row, 'WBC'], [LEGACY.result, '6.0'], [LEGACY.units, 'x10E3/uL'], [LEGACY.range, '3.4-10.8'], [LEGACY.lab, '01']]],
  [601, [[LEGACY.row, 'Hemoglobin'], [LEGACY.result, '13.1'], [LEGACY.units, 'g/dL'], [LEGACY.range, '11.1-15.9'], [LEGACY.lab, '01']]],
];

describe('an older Labcorp report whose collection date stands under a "Date/Time Collected" header row', () => {
  it('reads the ISO date printed in the row below the label, not the entered or reported dates', async () => {
    const { classification, extraction } = await read([
      [
        [760, [[36, 'Lab Report from LabCorp', 12]]],
        [720, [[36, 'Specimen Number'], [160, 'Patient ID'], [280, 'Control Number']]],
        [709, [[36, '[REDACTED]'], [160, '[REDACTED]'], [280, '[REDACTED]']]],
        [694, [[36, 'Date/Time Collected'], [160, 'Date Entered'], [280, 'Date/Time Reported']]],
        [683, [[36, '2024-09-25 06:21:00 PST'], [160, '2024-09-25 21:00:00 PST'], [280, '2024-09-26 04:05:00 PST']]],
        ...LEGACY_ROWS,
      ],
    ]);
    expect(classification).toEqual({ kind: 'lab_report', vendor: 'labcorp', collectionDate: '2024-09-25' });
    expect(rows(extraction)).toEqual([
      ['CBC With Differential/Platelet', 'WBC', '6.0', 'x10E3/uL', '3.4-10.8'],
      ['CBC With Differential/Platelet', 'Hemoglobin', '13.1', 'g/dL', '11.1-15.9'],
    ]);
  });

  it('reads a label split over two lines (`Date/Time` over `Collected`) with the date and time below it', async () => {
    const { classification } = await read([
      [
        [760, [[36, 'Lab Report from LabCorp', 12]]],
        [694, [[36, 'Date/Time'], [160, 'Date Entered'], [280, 'Date/Time']]],
        [684, [[36, 'Collected'], [280, 'Reported']]],
        [673, [[36, '09/25/24'], [160, '09/26/24'], [280, '09/27/24']]],
        [663, [[36, '06:21 AM EST'], [160, '21:00 EST'], [280, '04:05 EST']]],
        ...LEGACY_ROWS,
      ],
    ]);
    expect(classification).toEqual({ kind: 'lab_report', vendor: 'labcorp', collectionDate: '2024-09-25' });
  });
});

describe('a Quest patient export drawn one text item per cell', () => {
  it('is read as a Quest report, never rejected as another lab while Quest is the lab named', async () => {
    const { pdf, truth } = await generateQuestReport({ seed: 61, layout: 'patient-export', chunking: 'cell', collectionDate: '2025-04-02' });
    const pages = await readPdfText(pdf);
    expect(classifyDocument(pages)).toEqual({ kind: 'lab_report', vendor: 'quest', collectionDate: '2025-04-02' });
    const classification = classifyDocument(pages);
    if (classification.kind !== 'lab_report') return;
    const count = extractLabResults(pages, classification).panels.flatMap((p) => p.panelResults).length;
    expect(count).toBe(truth.panels.flatMap((p) => p.results).length);
  });
});

const Q = { name: 36, row: 48, value: 250, range: 330, lab: 520 };
const QUEST_PAGE: DrawnLine[] = [
  [760, [[36, 'Quest Diagnostics', 12]]],
  [740, [[36, 'Collected: 03/14/2025 07:12 AM UTC'], [300, 'Reported: 03/15/2025 08:00 AM UTC']]],
  [700, [[Q.name, 'Test Name'], [Q.value, 'Result'], [Q.range, 'Reference Range'], [Q.lab, 'Lab']]],
  [684, [[Q.name, 'LIPID PANEL, STANDARD']]],
  [672, [[Q.row, 'CHOLESTEROL, TOTAL'], [Q.value, '212 H'], [Q.range, '<200 mg/dL'], [Q.lab, 'NL1']]],
  [661, [[Q.row, 'HDL CHOLESTEROL'], [Q.value, '54'], [Q.range, '> OR = 40 mg/dL'], [Q.lab, 'NL1']]],
  [650, [[Q.row, 'LDL-CHOLESTEROL'], [Q.value, '131 H'], [Q.range, 'mg/dL (calc)'], [Q.lab, 'NL1']]],
  [634, [[Q.name, 'HEMOGLOBIN A1c']]],
  [622, [[Q.row, 'HEMOGLOBIN A1c'], [Q.value, '5.4'], [Q.range, '<5.7 % of total Hgb'], [Q.lab, 'NL1']]],
  [606, [[Q.name, 'HEPATITIS C ANTIBODY']]],
  [594, [[Q.row, 'HEPATITIS C ANTIBODY'], [Q.value, 'NON-REACTIVE'], [Q.range, 'NON-REACTIVE'], [Q.lab, 'NL1']]],
];
const QUEST_ROWS = [
  ['LIPID PANEL, STANDARD', 'CHOLESTEROL, TOTAL', '212', 'mg/dL', '<200'],
  ['LIPID PANEL, STANDARD', 'HDL CHOLESTEROL', '54', 'mg/dL', '> OR = 40'],
  ['LIPID PANEL, STANDARD', 'LDL-CHOLESTEROL', '131', 'mg/dL (calc)', null],
  ['HEMOGLOBIN A1c', 'HEMOGLOBIN A1c', '5.4', '% of total Hgb', '<5.7'],
  ['HEPATITIS C ANTIBODY', 'HEPATITIS C ANTIBODY', 'NON-REACTIVE', null, 'NON-REACTIVE'],
];

describe('rows that are single text items, the columns joined by runs of spaces', () => {
  it.each(['Courier', 'Helvetica', 'Times'] as const)('are read in %s, whole, never an empty success', async (font) => {
    const { classification, extraction } = await read([QUEST_PAGE], { font, chunking: 'line' });
    expect(classification).toMatchObject({ kind: 'lab_report', vendor: 'quest', collectionDate: '2025-03-14' });
    expect(rows(extraction)).toEqual(QUEST_ROWS);
  });

  it('are read by the shapes of their cells when the page prints no column header', async () => {
    const { extraction } = await read([QUEST_PAGE.filter(([y]) => y !== 700)], { font: 'Courier', chunking: 'line' });
    expect(rows(extraction)).toEqual(QUEST_ROWS);
    // Without a header to confirm the columns the reader is a little less sure, and says so.
    expect(result(extraction, 'HDL CHOLESTEROL').confidence).toBeLessThan(1);
  });

  it.each(['glyph', 'word', 'cell'] as const)('give the same rows when drawn per %s', async (chunking) => {
    const { extraction } = await read([QUEST_PAGE], { font: 'Times', chunking });
    expect(rows(extraction)).toEqual(QUEST_ROWS);
  });
});

describe('the smaller misses', () => {
  it('maps `% of total Hgb` to UCUM %, keeps `mg/dL (calc)` without a range, and codes Hepatitis C antibody', async () => {
    const { extraction } = await read([QUEST_PAGE], { chunking: 'line', font: 'Courier' });
    expect(result(extraction, 'HEMOGLOBIN A1c')).toMatchObject({ ucumCode: '%', loincCode: '4548-4', maxRefRangeValue: 5.7 });
    expect(result(extraction, 'LDL-CHOLESTEROL')).toMatchObject({ resultUnit: 'mg/dL (calc)', ucumCode: 'mg/dL', referenceRangeText: null });
    expect(result(extraction, 'HEPATITIS C ANTIBODY')).toMatchObject({ loincCode: '16128-1', resultType: 'string' });
  });

  // A spelling the LOINC table does not print (Labcorp's own, `Iron Bind.Cap.(TIBC)`, it does).
  it('codes `Iron Binding Cap.(TIBC)` by the abbreviation it carries', async () => {
    const { extraction } = await read([
      [
        [760, [[36, 'Labcorp', 12]]],
        [740, [[36, 'Date Collected: 03/14/2025']]],
        [700, [[36, 'Test'], [190, 'Current Result and Flag'], [330, 'Units'], [400, 'Reference Interval']]],
        [686, [[36, 'Iron and TIBC', 9]]],
        [674, [[36, 'Iron Binding Cap.(TIBC)'], [190, '310'], [330, 'ug/dL'], [400, '250-450']]],
      ],
    ]);
    expect(result(extraction, 'Iron Binding Cap.(TIBC)')).toMatchObject({ resultValue: '310', loincCode: '2500-7', ucumCode: 'ug/dL' });
  });

  it('takes a mixed-case line at the rows\' indent above a wrapped coded name for the panel title', async () => {
    const { extraction } = await read([
      [
        [760, [[36, 'Labcorp', 12]]],
        [740, [[36, 'Date Collected: 03/14/2025']]],
        [700, [[36, 'Component'], [190, 'Current Result and Flag'], [330, 'Units'], [400, 'Reference Interval']]],
        [686, [[36, 'Iron and TIBC']]],
        [675, [[36, 'Iron']]],
        [664, [[36, 'Binding Cap.(TIBC)'], [190, '351'], [330, 'ug/dL'], [400, '250-450']]],
        [653, [[36, 'UIBC'], [190, '215'], [330, 'ug/dL'], [400, '111-343']]],
      ],
    ]);
    expect(rows(extraction).map((r) => [r[0], r[1], r[2]])).toEqual([
      ['Iron and TIBC', 'Iron Binding Cap.(TIBC)', '351'],
      ['Iron and TIBC', 'UIBC', '215'],
    ]);
  });
});

describe('a Labcorp report whose page header repeats above a panel on page 2', () => {
  const L = { name: 36, current: 200, units: 330, range: 400 };
  const header: DrawnLine[1] = [[L.name, 'Test'], [L.current, 'Current Result and Flag'], [L.units, 'Units'], [L.range, 'Reference Interval']];
  const banner: DrawnLine[] = [
    [770, [[36, 'labcorp', 12], [400, 'Patient Report']]],
    [752, [[36, 'Specimen ID: [REDACTED]'], [200, 'Sex: Female'], [300, 'Ordering Physician: [REDACTED]']]],
  ];
  const footer: DrawnLine = [40, [[36, '©2025 Laboratory Corporation of America® Holdings. All Rights Reserved.', 6]]];
  const pages: DrawnLine[][] = [
    [
      ...banner,
      [736, [[36, 'Date Collected: 03/14/2025'], [300, 'Date Received: 03/15/2025']]],
      [712, [[L.name, 'HIV Screen 4th Generation wRfx', 9]]],
      [700, header],
      [688, [[L.name, 'HIV Screen 4th Generation wRfx'], [L.current, 'Non Reactive'], [L.range, 'Non Reactive']]],
      [664, [[L.name, 'Hepatitis B Surface Antigen', 9]]],
      [652, header],
      [640, [[L.name, 'Hepatitis B Surface Antigen'], [L.current, 'Negative'], [L.range, 'Negative']]],
      footer,
    ],
    [
      ...banner,
      [736, [[L.name, 'Lipid Panel', 9]]],
      [724, header],
      [712, [[L.name, 'Cholesterol, Total'], [L.current, '185'], [L.units, 'mg/dL'], [L.range, '100-199']]],
      [700, [[L.name, 'HDL Cholesterol'], [L.current, '47'], [L.units, 'mg/dL'], [L.range, '>39']]],
      footer,
    ],
  ];

  it('never glues the repeated header onto the panel name, nor a text-result row onto the next title', async () => {
    const { classification, extraction } = await read(pages);
    expect(classification).toMatchObject({ kind: 'lab_report', vendor: 'labcorp', collectionDate: '2025-03-14' });
    expect(rows(extraction)).toEqual([
      ['HIV Screen 4th Generation wRfx', 'HIV Screen 4th Generation wRfx', 'Non Reactive', null, 'Non Reactive'],
      ['Hepatitis B Surface Antigen', 'Hepatitis B Surface Antigen', 'Negative', null, 'Negative'],
      ['Lipid Panel', 'Cholesterol, Total', '185', 'mg/dL', '100-199'],
      ['Lipid Panel', 'HDL Cholesterol', '47', 'mg/dL', '>39'],
    ]);
  });

  it('reads the same when every page is drawn glyph by glyph', async () => {
    const { extraction } = await read(pages, { chunking: 'glyph' });
    expect(rows(extraction).map((r) => r[0])).toEqual(['HIV Screen 4th Generation wRfx', 'Hepatitis B Surface Antigen', 'Lipid Panel', 'Lipid Panel']);
  });
});

describe('a name wrapped below its value, and a previous result right after the unit', () => {
  it('re-joins names wrapped at a wide leading on pages with few rows (`Hemoglobin` / `A1c`, `HEPATITIS C` / `ANTIBODY NON-REACTIVE`), and keeps the unit apart from the previous result', async () => {
    const { extraction } = await read([
      [
        [760, [[36, 'Labcorp', 12]]],
        [740, [[36, 'Date Collected: 03/14/2025']]],
        [700, [[36, 'Hemoglobin A1c', 9.5]]],
        [680, [[125, 'COMPONENT'], [300, 'RESULT'], [340, 'UNIT'], [400, 'RANGE']]],
        // The name's second line 17 points (1.8 lines) below its first, as a row pitch would set it.
        [660, [[48, 'Hemoglobin'], [300, '5.5'], [340, '%'], [400, '4.8-5.6']]],
        [643, [[48, 'A1c']]],
      ],
      [
        [760, [[36, 'Labcorp', 12]]],
        [740, [[36, 'Date Collected: 03/14/2025']]],
        [700, [[36, 'Test Name'], [220, 'In Range'], [280, 'Out Of Range'], [364, 'Ref Range'], [460, 'Previous Result'], [556, 'Lab']]],
        [688, [[36, 'ABSOLUTE NEUTROPHILS'], [287, '7926 High'], [346, '1500-7800 cells/uL'], [430, '1573 09-30-2024'], [556, 'Z4M']]],
        [676, [[36, 'TRIGLYCERIDES'], [218, '90'], [346, '<150 mg/dL'], [430, '196 High 11-28-2024'], [556, 'Z4M']]],
        // A single-test panel whose name wraps above its value, again at 1.8 lines.
        [652, [[30, 'HEPATITIS C ANTIBODY', 10]]],
        [636, [[36, 'HEPATITIS C']]],
        [620, [[36, 'ANTIBODY'], [218, 'NON-REACTIVE'], [346, 'NON-REACTIVE']]],
      ],
    ]);
    expect(result(extraction, 'HEPATITIS C ANTIBODY')).toMatchObject({ resultValue: 'NON-REACTIVE', referenceRangeText: 'NON-REACTIVE' });
    expect(result(extraction, 'Hemoglobin A1c')).toMatchObject({ resultValue: '5.5', resultUnit: '%' });
    expect(rows(extraction).map((r) => r[1])).toEqual(['Hemoglobin A1c', 'ABSOLUTE NEUTROPHILS', 'TRIGLYCERIDES', 'HEPATITIS C ANTIBODY']);
    expect(result(extraction, 'ABSOLUTE NEUTROPHILS')).toMatchObject({ resultValue: '7926', resultUnit: 'cells/uL', ucumCode: '/uL', referenceRangeText: '1500-7800' });
    expect(result(extraction, 'TRIGLYCERIDES')).toMatchObject({ resultValue: '90', resultUnit: 'mg/dL', ucumCode: 'mg/dL', referenceRangeText: '<150' });
  });
});

describe('a page that continues the table without a column header', () => {
  it('opens with the panel title above a wrapped name: the title names the panel, the two name lines one test', async () => {
    const Q = { name: 41, value: 315, range: 487 };
    const { extraction } = await read([
      [
        [760, [[41, 'Quest Diagnostics', 13]]],
        [740, [[41, 'Collected: 12/17/2023']]],
        [700, [[Q.name, 'Test Name'], [Q.value, 'Result'], [Q.range, 'Reference Range']]],
        [686, [[Q.name, 'URIC ACID', 9]]],
        [675, [[Q.name, 'URIC ACID'], [Q.value, '6.4'], [Q.range, '2.5-7.0 mg/dL']]],
      ],
      [
        [760, [[41, 'Quest Diagnostics', 13]]],
        [740, [[41, 'Patient: DUMMY, DAVID DOB: 4/18/84']]],
        [726, [[Q.name, 'CHLAMYDIA TRACHOMATIS RNA, TMA, UROGENITAL', 9]]],
        [715, [[Q.name, 'CHLAMYDIA']]],
        [704, [[Q.name, 'TRACHOMATIS RNA, TMA, UROGENITAL'], [Q.value, 'NOT DETECTED'], [Q.range, 'NOT DETECTED']]],
      ],
    ]);
    expect(rows(extraction)).toEqual([
      ['URIC ACID', 'URIC ACID', '6.4', 'mg/dL', '2.5-7.0'],
      ['CHLAMYDIA TRACHOMATIS RNA, TMA, UROGENITAL', 'CHLAMYDIA TRACHOMATIS RNA, TMA, UROGENITAL', 'NOT DETECTED', null, 'NOT DETECTED'],
    ]);
  });

  it('opens with the panel title and its Collected/Received stamp above the first row', async () => {
    const Q = { name: 34, value: 315, range: 487 };
    const { extraction } = await read([
      [
        [760, [[34, 'Quest Diagnostics', 13]]],
        [700, [[Q.name, 'Test Name'], [Q.value, 'Result'], [Q.range, 'Reference Range']]],
        [686, [[Q.name, 'TSH Collected: 08-25-2025 06:41 Received: 08-25-2025 09:48', 9.5]]],
        [675, [[Q.name, 'TSH'], [Q.value, '1.20'], [Q.range, '0.40-4.50 mIU/L']]],
      ],
      [
        [760, [[34, 'Quest Diagnostics', 13]]],
        [740, [[Q.name, 'HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES', 9.5]]],
        [729, [[Q.name, 'Collected: 08-25-2025 06:41 Received: 08-25-2025 09:48']]],
        [717, [[Q.name, 'HIV 1/2 AG/AB, 4TH GEN'], [Q.value, 'NON-REACTIVE'], [Q.range, 'NON-REACTIVE']]],
      ],
    ]);
    expect(rows(extraction).map((r) => [r[0], r[1]])).toEqual([
      ['TSH', 'TSH'],
      ['HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES', 'HIV 1/2 AG/AB, 4TH GEN'],
    ]);
  });
});

describe('a page that continues a table without a header, its one name wrapped over three lines', () => {
  it('opens with the panel title and its stamp above the name, not under the last page’s panel', async () => {
    // The title, its stamp and a name on three lines stand above the value: the title was five lines up.
    const Q = { name: 34, row: 46, value: 240, range: 480 };
    const { extraction } = await read([
      [
        [760, [[34, 'Quest Diagnostics', 13]]],
        [700, [[Q.name, 'Test Name'], [Q.value, 'Result'], [Q.range, 'Reference Range']]],
        [686, [[Q.name, 'HS CRP Collected: 6/9/25 09:20 ET Received: 6/9/25 12:27 ET', 9.5]]],
        [675, [[Q.row, 'HS CRP'], [Q.value, '<0.2'], [Q.range, 'mg/L']]],
      ],
      [
        [760, [[34, 'Quest Diagnostics', 13]]],
        [740, [[Q.name, 'HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES', 9.5]]],
        [729, [[Q.name, 'Collected: 6/9/25 09:20 ET Received: 6/9/25 12:27 ET']]],
        [717, [[Q.row, 'HIV 1/2 ANTIGEN AND ANTIBODIES,']]],
        [706, [[Q.row, 'FOURTH GENERATION, WITH']]],
        [695, [[Q.row, 'REFLEXES'], [Q.value, 'NON-REACTIVE'], [Q.range, 'NON-REACTIVE']]],
      ],
    ]);
    expect(rows(extraction).map((r) => [r[0], r[1], r[2]])).toEqual([
      ['HS CRP', 'HS CRP', '<0.2'],
      ['HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES', 'HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES', 'NON-REACTIVE'],
    ]);
  });
});

describe('pages that continue a table without a header, one row each', () => {
  it('place their columns by the rows of every page under that header', async () => {
    // `RANGE` centred at 438 over ranges printed from 418; each page shows one row.
    const top: DrawnLine[] = [
      [760, [[42, 'Labcorp', 12]]],
      [740, [[42, 'Date Collected: 10/05/2025']]],
    ];
    const { extraction } = await read([
      [
        ...top,
        [700, [[42, 'Hemoglobin A1c']]],
        [680, [[125, 'COMPONENT'], [289, 'RESULT'], [368, 'UNIT'], [438, 'RANGE'], [509, 'FLAG']]],
        [660, [[53, 'Hemoglobin A1c'], [323, '5.5'], [362, '%'], [418, '4.8-5.6']]],
      ],
      [...top, [700, [[42, 'TSH']]], [680, [[53, 'TSH'], [312, '4.211'], [362, 'uIU/mL'], [418, '0.450-4.500']]]],
      [...top, [700, [[42, 'HIV Ab/p24 Ag with Reflex']]], [680, [[53, 'HIV Screen 4th Generation wRfx'], [272, 'Non Reactive'], [418, 'Non Reactive']]]],
    ]);
    expect(result(extraction, 'HIV Screen 4th Generation wRfx')).toMatchObject({ resultValue: 'Non Reactive', resultUnit: null, referenceRangeText: 'Non Reactive' });
  });
});

describe('a test name wrapped over three lines', () => {
  it('is read as one name with the value on the third line', async () => {
    const Q = { name: 31, inRange: 200, outRange: 260, range: 330, lab: 545 };
    const { extraction } = await read([
      [
        [760, [[31, 'Quest Diagnostics', 13]]],
        [740, [[31, 'Collected: 01/24/2023']]],
        [716, [[Q.name, 'HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES', 11]]],
        [705, [[Q.name, 'COMPONENT'], [Q.inRange, 'IN RANGE'], [Q.outRange, 'OUT OF RANGE'], [Q.range, 'REF RANGE'], [Q.lab, 'LAB']]],
        [689, [[Q.name, 'HIV 1/2 ANTIGEN AND ANTIBODIES,']]],
        [678, [[Q.name, 'FOURTH GENERATION, WITH']]],
        [667, [[Q.name, 'REFLEXES'], [Q.outRange, 'REACTIVE A'], [Q.range, 'NON-REACTIVE'], [Q.lab, 'NL1']]],
      ],
    ]);
    expect(rows(extraction).map((r) => [r[1], r[2]])).toEqual([['HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES', 'REACTIVE']]);
  });
});

describe('a previous result printed where the range column starts', () => {
  it('is never read as the range: a text range holding a bare number took in the next column', async () => {
    const Q = { name: 46, value: 318, unit: 337, range: 386, previous: 470, lab: 548 };
    const { extraction } = await read([
      [
        [760, [[38, 'Quest Diagnostics', 13]]],
        [740, [[38, 'Collected: 03/28/2023']]],
        [716, [[Q.name, 'Test Name'], [Q.value, 'Result'], [Q.unit, 'Units'], [Q.range, 'Reference Range'], [Q.previous, 'Previous Result'], [Q.lab, 'Lab']]],
        [700, [[Q.name, 'HS CRP'], [Q.value, '1.3'], [Q.unit, 'mg/L'], [449, '5.1 8/5/22'], [Q.lab, 'TPA']]],
        [688, [[Q.name, 'URIC ACID'], [Q.value, '6.7'], [Q.unit, 'mg/dL'], [Q.range, '2.5-7.0'], [449, '5.9 11/8/22'], [Q.lab, 'TPA']]],
      ],
    ]);
    expect(result(extraction, 'HS CRP')).toMatchObject({ resultValue: '1.3', resultUnit: 'mg/L', referenceRangeText: null });
    expect(result(extraction, 'URIC ACID')).toMatchObject({ resultValue: '6.7', referenceRangeText: '2.5-7.0' });
  });
});

describe('a report that passes the document checks but prints no result', () => {
  it('is a Quest lab report with nothing to extract (the pipeline ends it failed: no_results_found)', async () => {
    const { classification, extraction } = await read([
      [
        ...QUEST_PAGE.slice(0, 4),
        [672, [[Q.row, 'CHOLESTEROL, TOTAL'], [Q.range, '<200 mg/dL'], [Q.lab, 'NL1']]],
        [661, [[Q.row, 'HDL CHOLESTEROL'], [Q.range, '> OR = 40 mg/dL'], [Q.lab, 'NL1']]],
        [640, [[36, 'Test(s) cancelled: specimen not received']]],
      ],
    ]);
    expect(classification).toEqual({ kind: 'lab_report', vendor: 'quest', collectionDate: '2025-03-14' });
    expect(extraction?.panels).toEqual([]);
    // What it did see is said: two ranges printed without a value.
    expect(extraction?.validationFlags.filter((f) => f.code === 'range_without_value').map((f) => f.biomarker)).toEqual(['CHOLESTEROL, TOTAL', 'HDL CHOLESTEROL']);
    expect(extraction?.summary.rowsSkipped).toEqual([{ reason: 'range_without_value', count: 2 }]);
  });
});
