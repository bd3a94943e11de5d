import { extractLabResults } from '../../../../functions/lab/parsers';
import type { PageText } from '../../../../functions/lab/pdf-text';
import type { PanelResult } from '../../../../functions/lab/results-schema';
import { type SyntheticLine, stack, syntheticPage } from './synthetic-page';

/** The pitfalls of docs/research/lab-extraction.md §6, each placed on a page exactly as the layout prints it. */

const Q = { name: 36, row: 48, comment: 66, inRange: 250, outRange: 305, range: 375, lab: 545 };
const QUEST_HEADER: SyntheticLine[1] = [
  [Q.name, 'Test Name'],
  [Q.inRange, 'In Range'],
  [Q.outRange, 'Out Of Range'],
  [Q.range, 'Reference Range'],
  [Q.lab, 'Lab'],
];

function extract(vendor: 'quest' | 'labcorp', pages: PageText[]) {
  return extractLabResults(pages, { kind: 'lab_report', vendor, collectionDate: '2025-03-14' });
}

function results(vendor: 'quest' | 'labcorp', pages: PageText[]): PanelResult[] {
  return extract(vendor, pages).panels.flatMap((p) => p.panelResults);
}

function byName(list: PanelResult[], name: string): PanelResult {
  const found = list.find((r) => r.biomarker === name);
  if (!found) throw new Error(`no result ${name} in ${list.map((r) => r.biomarker).join(', ')}`);
  return found;
}

function expectNothingInvented(list: PanelResult[]): void {
  for (const r of list) expect(r.provenance.sourceText).toContain(r.resultValue);
}

describe('Quest patient export: previous results', () => {
  const E = { name: 36, row: 48, inRange: 200, outRange: 250, range: 330, previous: 442, lab: 562 };
  const page = syntheticPage(1, [
    [700, [[E.name, 'Test Name'], [E.inRange, 'In Range'], [E.outRange, 'Out Of Range'], [E.range, 'Reference Range'], [E.previous, 'Previous Result and Date'], [E.lab, 'Lab']]],
    [684, [[E.name, 'IRON, TIBC AND FERRITIN PANEL', 9], [E.inRange, 'Collected: 03/14/2025 05:05 PM UTC Received: 03/14/2025 05:05 PM UTC', 7], [E.lab, 'EZ']]],
    ...stack(670, 12, [
      [[E.row, 'IRON, TOTAL'], [E.inRange, '92'], [E.range, '50-180 mcg/dL'], [E.previous, '227.0 H 10/10/2024'], [E.lab, 'EZ']],
      [[E.row, 'FERRITIN'], [E.outRange, '32 L'], [E.range, '38-380 ng/mL'], [E.previous, '45 01/02/2024'], [E.lab, 'EZ']],
      [[E.row, '% SATURATION'], [E.inRange, '31'], [E.range, '20-48 % (calc)'], [E.previous, '55 H 10/10/2024'], [E.lab, 'EZ']],
    ]),
  ]);
  const list = results('quest', [page]);

  it('keeps the current value and never the previous result or its flag', () => {
    expect(byName(list, 'IRON, TOTAL')).toMatchObject({ resultValue: '92', resultType: 'numeric' });
    expect(byName(list, 'IRON, TOTAL').flag).toBeUndefined();
    expect(byName(list, '% SATURATION').flag).toBeUndefined();
    expect(byName(list, 'FERRITIN')).toMatchObject({ resultValue: '32', flag: 'L', minRefRangeValue: 38, maxRefRangeValue: 380 });
    expect(list).toHaveLength(3);
  });

  it('reads the panel title without its Collected/Received stamps and keeps the panel date', () => {
    const panel = extract('quest', [page]).panels[0]!;
    expect(panel.panelName).toBe('IRON, TIBC AND FERRITIN PANEL');
    expect(panel.dateCollected).toBe('2025-03-14');
  });

  it('reads the stamp whose colon OCR lost before its date', () => {
    const misread = { ...page, items: page.items.map((item) => ({ ...item, str: item.str.replace('Collected:', 'Collected') })) };
    const panel = extract('quest', [misread]).panels[0]!;
    expect(panel.panelName).toBe('IRON, TIBC AND FERRITIN PANEL');
    expect(panel.dateCollected).toBe('2025-03-14');
  });
});

describe('Quest patient export: a title too long for its Collected/Received stamp', () => {
  // The stamp drops to a line of its own between the title and the column header repeated above each section.
  const page = syntheticPage(1, [
    [700, [[Q.name, 'URIC ACID', 9], [150, 'Collected: 04/09/2023 11:27 Received: 04/09/2023 14:34', 7]]],
    [688, QUEST_HEADER],
    [674, [[Q.row, 'URIC ACID'], [Q.outRange, '7.3 H'], [Q.range, '2.5-7.0 mg/dL'], [Q.lab, 'TPA']]],
    [640, [[Q.name, 'CHLAMYDIA TRACHOMATIS RNA, TMA, UROGENITAL', 9]]],
    [629, [[Q.name, 'Collected: 04/10/2023 11:27 Received: 04/10/2023 14:34', 7]]],
    [617, QUEST_HEADER],
    [603, [[Q.row, 'CHLAMYDIA TRACHOMATIS'], [Q.inRange, 'NOT DETECTED'], [Q.range, 'NOT DETECTED'], [Q.lab, 'EZ']]],
  ]);

  it('opens the section under its title and keeps the date of the stamp', () => {
    const panels = extract('quest', [page]).panels;
    expect(panels.map((p) => [p.panelName, p.panelResults.map((r) => r.biomarker)])).toEqual([
      ['URIC ACID', ['URIC ACID']],
      ['CHLAMYDIA TRACHOMATIS RNA, TMA, UROGENITAL', ['CHLAMYDIA TRACHOMATIS']],
    ]);
    expect(panels[1]!.dateCollected).toBe('2023-04-10');
  });
});

describe('Labcorp report set loosely: one-row panels whose titles stand at the rows\' indent', () => {
  // 10-point rows, no indent; each title 18 points above its single row (more than a wrapped name's
  // leading, less than a title's), on pages with one row each, so no row pitch can be measured.
  const L = { name: 28, inRange: 152, outRange: 235, range: 294, previous: 405, lab: 543 };
  const header: SyntheticLine[1] = [[L.name, 'Component'], [L.inRange, 'In Range'], [L.outRange, 'Out Of Range'], [L.range, 'Reference Interval'], [L.previous, 'Previous Result'], [L.lab, 'Lab']];
  const pages = [
    syntheticPage(1, [[504, header], [479, [[L.name, 'TSH']]], [461, [[L.name, 'TSH'], [L.outRange, '4.833 H'], [L.range, '0.450-4.500 uIU/mL'], [L.lab, '01']]]], 10),
    syntheticPage(2, [[579, [[L.name, 'Hepatitis C Antibody']]], [561, [[L.name, 'HCV Antibody'], [L.inRange, 'Non Reactive'], [L.range, 'Non Reactive'], [L.lab, '01']]]], 10),
    syntheticPage(3, [[579, [[L.name, 'Testosterone']]], [561, [[L.name, 'Testosterone'], [L.inRange, '622'], [L.range, '264-916 ng/dL'], [L.lab, '01']]]], 10),
  ];

  it('opens each panel under its own title', () => {
    const panels = extract('labcorp', pages).panels;
    expect(panels.map((p) => [p.panelName, p.panelResults.map((r) => r.biomarker)])).toEqual([
      ['TSH', ['TSH']],
      ['Hepatitis C Antibody', ['HCV Antibody']],
      ['Testosterone', ['Testosterone']],
    ]);
  });
});

describe('Quest physician report: units, ranges, values', () => {
  const page = syntheticPage(1, [
    [700, QUEST_HEADER],
    [684, [[Q.name, 'LIPID PANEL, STANDARD', 9], [Q.lab, 'NL1']]],
    ...stack(670, 12, [
      [[Q.row, 'HDL CHOLESTEROL'], [Q.inRange, '52'], [Q.range, '> OR = 40 mg/dL'], [Q.lab, 'NL1']],
      [[Q.row, 'LDL-CHOLESTEROL'], [Q.inRange, '97'], [Q.range, 'mg/dL (calc)'], [Q.lab, 'NL1']],
      [[Q.row, 'CHOL/HDLC RATIO'], [Q.inRange, '3.4'], [Q.range, '(calc)'], [Q.lab, 'NL1']],
      [[Q.row, 'HOMOCYSTEINE'], [Q.outRange, '15.2 H'], [Q.range, '< OR = 13.5 umol/L'], [Q.lab, 'NL1']],
      [[Q.row, 'TRIGLYCERIDES'], [Q.outRange, '160 H'], [Q.range, '<150 mg/dL'], [Q.lab, 'NL1']],
      [[Q.row, 'ESTRADIOL'], [Q.inRange, '<15'], [Q.range, '< OR = 39 pg/mL'], [Q.lab, 'NL1']],
      [[Q.row, 'Follicular Phase'], [Q.range, '30-144 pg/mL']],
      [[Q.row, 'Postmenopausal'], [Q.range, '< OR = 31 pg/mL']],
      [[Q.row, 'GLUCOSE'], [Q.inRange, 'TNP'], [Q.range, '65-99 mg/dL'], [Q.lab, 'NL1']],
      [[Q.row, 'NITRITE'], [Q.outRange, 'POSITIVE A'], [Q.range, 'NEGATIVE'], [Q.lab, 'NL1']],
      [[Q.row, 'WBC'], [Q.inRange, 'NONE SEEN'], [Q.range, 'NONE SEEN /HPF'], [Q.lab, 'NL1']],
      [[Q.row, 'POTASSIUM'], [Q.outRange, '6.9 HH'], [Q.range, '3.5-5.3 mmol/L'], [Q.lab, 'NL1']],
    ]),
  ]);
  const list = results('quest', [page]);

  it('reads `> OR = 40` and `< OR = 13.5` into one-sided bounds and keeps the printed text', () => {
    expect(byName(list, 'HDL CHOLESTEROL')).toMatchObject({ minRefRangeValue: 40, maxRefRangeValue: null, referenceRangeText: '> OR = 40', resultUnit: 'mg/dL' });
    expect(byName(list, 'HOMOCYSTEINE')).toMatchObject({ minRefRangeValue: null, maxRefRangeValue: 13.5, referenceRangeText: '< OR = 13.5', flag: 'H' });
    expect(byName(list, 'TRIGLYCERIDES')).toMatchObject({ maxRefRangeValue: 150, referenceRangeText: '<150' });
  });

  it('keeps `(calc)` in the printed unit, maps it to UCUM without it, and reads a unit-only cell as no range', () => {
    expect(byName(list, 'LDL-CHOLESTEROL')).toMatchObject({ resultUnit: 'mg/dL (calc)', ucumCode: 'mg/dL', referenceRangeText: null, minRefRangeValue: null });
    expect(byName(list, 'CHOL/HDLC RATIO')).toMatchObject({ resultUnit: '(calc)', ucumCode: '1', loincCode: '9830-1' });
  });

  it('returns censored values as `range` with their operator, and text results as `string`', () => {
    expect(byName(list, 'ESTRADIOL')).toMatchObject({ resultValue: '<15', resultType: 'range', resultOperator: '<', resultUnit: 'pg/mL' });
    expect(byName(list, 'ESTRADIOL').provenance.sourceText).toBe('ESTRADIOL <15 < OR = 39 pg/mL NL1');
    expect(byName(list, 'GLUCOSE')).toMatchObject({ resultValue: 'TNP', resultType: 'string', referenceRangeText: '65-99' });
    expect(byName(list, 'NITRITE')).toMatchObject({ resultValue: 'POSITIVE', resultType: 'string', flag: 'A', referenceRangeText: 'NEGATIVE' });
    expect(byName(list, 'WBC')).toMatchObject({ resultValue: 'NONE SEEN', resultUnit: '/HPF', referenceRangeText: 'NONE SEEN' });
  });

  it('reads critical flags', () => {
    expect(byName(list, 'POTASSIUM')).toMatchObject({ resultValue: '6.9', flag: 'HH' });
  });

  it('invents nothing: every value is in the text of its row', () => {
    expect(list).toHaveLength(10);
    expectNothingInvented(list);
  });
});

describe('wrapped names and units', () => {
  const page = syntheticPage(1, [
    [700, QUEST_HEADER],
    [684, [[Q.name, 'COMPREHENSIVE METABOLIC', 9], [Q.lab, 'NL1']]],
    [673, [[Q.name, 'PANEL', 9]]],
    ...stack(659, 11, [
      [[Q.row, 'UREA NITROGEN'], [Q.inRange, '14'], [Q.range, '7-25 mg/dL'], [Q.lab, 'NL1']],
      [[Q.row, '(BUN)']],
      [[Q.row, 'EGFR'], [Q.inRange, '98'], [Q.range, '> OR = 60 mL/min/1.'], [Q.lab, 'NL1']],
      [[Q.range, '73m2']],
      [[Q.row, 'IRON BINDING'], [Q.inRange, '310'], [Q.range, '250-425 mcg/dL'], [Q.lab, 'NL1']],
      [[Q.row, 'CAPACITY'], [Q.range, '(calc)']],
      [[Q.row, 'NON HDL'], [Q.inRange, '118'], [Q.range, '<130 mg/dL (calc)'], [Q.lab, 'NL1']],
      [[Q.row, 'CHOLESTEROL']],
      [[Q.row, 'SODIUM'], [Q.inRange, '140'], [Q.range, '135-146 mmol/L'], [Q.lab, 'NL1']],
    ]),
  ]);
  const extraction = extract('quest', [page]);
  const list = extraction.panels.flatMap((p) => p.panelResults);

  it('re-joins test names and units printed over two lines', () => {
    expect(list.map((r) => r.biomarker)).toEqual(['UREA NITROGEN (BUN)', 'EGFR', 'IRON BINDING CAPACITY', 'NON HDL CHOLESTEROL', 'SODIUM']);
    expect(byName(list, 'EGFR')).toMatchObject({ resultUnit: 'mL/min/1.73m2', ucumCode: 'mL/min/{1.73_m2}', minRefRangeValue: 60 });
    expect(byName(list, 'IRON BINDING CAPACITY')).toMatchObject({ resultUnit: 'mcg/dL (calc)', loincCode: '2500-7', loincMatchType: 'exact' });
    expect(byName(list, 'UREA NITROGEN (BUN)')).toMatchObject({ loincCode: '3094-0' });
    expect(byName(list, 'NON HDL CHOLESTEROL').provenance.sourceText).toBe('NON HDL 118 <130 mg/dL (calc) NL1\nCHOLESTEROL');
  });

  it('lowers the confidence of repaired rows only', () => {
    expect(byName(list, 'IRON BINDING CAPACITY').confidence).toBeCloseTo(0.9);
    expect(byName(list, 'UREA NITROGEN (BUN)').confidence).toBeCloseTo(0.95);
    expect(byName(list, 'SODIUM').confidence).toBe(1);
  });

  it('re-joins a panel header whose lab code landed mid-name', () => {
    expect(extraction.panels.map((p) => p.panelName)).toEqual(['COMPREHENSIVE METABOLIC PANEL']);
    expect(extraction.panels[0]!.panelCode).toBe('comprehensive-metabolic-panel');
  });

  it('records every repair in mergeActions', () => {
    const codes = extraction.mergeActions.map((m) => `${m.code}:${m.biomarker ?? m.panelName}`);
    expect(codes).toEqual(
      expect.arrayContaining([
        'name_rejoined:COMPREHENSIVE METABOLIC PANEL',
        'name_rejoined:UREA NITROGEN (BUN)',
        'unit_rejoined:EGFR',
        'name_rejoined:IRON BINDING CAPACITY',
        'unit_rejoined:IRON BINDING CAPACITY',
      ]),
    );
  });
});

describe('interpretive text and page furniture never become results', () => {
  const page1 = syntheticPage(1, [
    [760, [[36, 'Quest Diagnostics', 16]]],
    [740, [[36, 'Patient Information'], [230, 'Collected: 03/14/2025 07:12 AM UTC']]],
    [700, QUEST_HEADER],
    [684, [[Q.name, 'HS CRP', 9], [Q.lab, 'Z4M']]],
    ...stack(670, 10, [
      [[Q.row, 'HS CRP'], [Q.inRange, '0.8'], [Q.range, 'mg/L'], [Q.lab, 'Z4M']],
      [[Q.comment, 'Risk Category:', 7]],
      [[Q.comment, 'Optimal <1.0', 7]],
      [[Q.comment, 'Moderate 1.0-3.0', 7]],
      [[Q.comment, 'High > or = 3.1', 7]],
      [[Q.comment, '< or = 25 85 19', 7]],
      [[Q.row, 'Reference range: <100']],
      [[Q.row, 'Non-fasting reference interval']],
      [[Q.row, 'Reference range established on post-pubertal patient population. No']],
      [[Q.row, 'For someone without known diabetes, a glucose value between 100 and 125 mg/dL is consistent']],
      [[Q.comment, 'Martin SS et al. JAMA. 2013;310(19): 2061-2068', 7]],
      [[Q.row, 'See Note:']],
      [[Q.row, 'TSH'], [Q.inRange, '1.92'], [Q.range, '0.40-4.50 mIU/L'], [Q.lab, 'Z4M']],
    ]),
    [50, [[36, 'CLIENT SERVICES: 000.000.0000'], [250, 'SPECIMEN: WC000000V'], [520, 'PAGE 1 OF 2']]],
    [36, [[36, 'Quest, Quest Diagnostics, the associated logo and all associated Quest Diagnostics marks are the registered trademarks', 6]]],
  ]);
  const page2 = syntheticPage(2, [
    [760, [[36, 'Quest Diagnostics', 16]]],
    [740, [[36, 'Patient Information'], [230, 'Collected: 03/14/2025 07:12 AM UTC']]],
    [728, [[36, 'DOB: [REDACTED]'], [230, 'Specimen: [REDACTED]']]],
    [700, QUEST_HEADER],
    [684, [[Q.row, 'T4, FREE'], [Q.inRange, '1.2'], [Q.range, '0.8-1.8 ng/dL'], [Q.lab, 'Z4M']]],
    [660, [[36, 'PERFORMING SITE:']]],
    [648, [[36, 'Z4M QUEST DIAGNOSTICS, 1 LAB WAY, ANYTOWN 00000 Laboratory Director: SAMPLE, MD']]],
    [50, [[36, 'CLIENT SERVICES: 000.000.0000'], [520, 'PAGE 2 OF 2']]],
  ]);
  const extraction = extract('quest', [page1, page2]);
  const list = extraction.panels.flatMap((p) => p.panelResults);

  it('returns only the printed results, with their pages', () => {
    expect(list.map((r) => [r.biomarker, r.resultValue, r.pageNumber])).toEqual([
      ['HS CRP', '0.8', 1],
      ['TSH', '1.92', 1],
      ['T4, FREE', '1.2', 2],
    ]);
  });

  it('continues the panel across the page break and says so', () => {
    expect(extraction.panels).toHaveLength(1);
    expect(extraction.mergeActions).toContainEqual(expect.objectContaining({ code: 'panel_continued', panelName: 'HS CRP', pages: [1, 2] }));
  });

  it('does not take interpretive text for a wrapped test name', () => {
    expect(byName(list, 'HS CRP').provenance.sourceText).toBe('HS CRP 0.8 mg/L Z4M');
  });
});

describe('Labcorp 2024 Patient Report', () => {
  const L = { title: 36, name: 36, current: 190, previous: 290, units: 410, range: 470 };
  const header: SyntheticLine[1] = [
    [L.name, 'Test', 7],
    [L.current, 'Current Result and Flag', 7],
    [L.previous, 'Previous Result and Date', 7],
    [L.units, 'Units', 7],
    [L.range, 'Reference Interval', 7],
  ];
  const pageHeader: SyntheticLine[] = [
    [765, [[36, '[REDACTED]', 11], [380, 'Patient Report', 12], [520, 'labcorp', 14]]],
    [752, [[36, 'DOB: [REDACTED]'], [380, 'Account Number: [REDACTED]']]],
  ];
  const footer: SyntheticLine[] = [
    [58, [[36, 'Date Created and Stored 03/16/25 1130 ET'], [280, 'Final Report'], [520, 'Page 1 of 2']]],
    [47, [[36, '©2025 Laboratory Corporation of America® Holdings', 6]]],
    [29, [[36, 'If you have received this document in error, please call 800-631-5250', 6]]],
  ];
  const page1 = syntheticPage(1, [
    ...pageHeader,
    [698, [[36, 'Date Collected: 03/14/2025'], [190, 'Date Received: 03/15/2025'], [500, 'Fasting: Yes']]],
    [684, [[36, 'Ordered Items: CBC With Differential/Platelet; Lipid Panel']]],
    [660, [[L.title, 'CBC With Differential/Platelet', 10]]],
    [646, header],
    ...stack(632, 12, [
      [[L.name, 'WBC'], [62, '01', 5.5], [L.current, '6.0'], [L.previous, '5.8'], [330, '01/05/2024'], [L.units, 'x10E3/uL'], [L.range, '3.4-10.8']],
      [[L.name, 'Hemoglobin'], [84, '01', 5.5], [L.current, '18.1'], [L.current + 36, 'High'], [L.previous, '15.0'], [330, '01/05/2024'], [L.units, 'g/dL'], [L.range, '13.0-17.7']],
      [[L.name, 'Neutrophils'], [84, '01', 5.5], [L.current, '58'], [L.previous, '71 High'], [350, '01/05/2024'], [L.units, '%'], [L.range, 'Not Estab.']],
    ]),
    ...footer,
  ]);
  const page2 = syntheticPage(2, [
    ...pageHeader,
    [712, [[460, 'Date Collected: 03/14/2025']]],
    [692, [[L.title, 'CBC With Differential/Platelet (Cont.)', 10]]],
    [678, header],
    [664, [[L.name, 'Platelets'], [72, '01', 5.5], [L.current, '270'], [L.units, 'x10E3/uL'], [L.range, '150-450']]],
    [636, [[L.title, 'Lipid Panel', 10]]],
    [622, header],
    [608, [[L.name, 'HDL Cholesterol'], [96, '01', 5.5], [L.current, '35'], [L.current + 36, 'Low'], [L.units, 'mg/dL'], [L.range, '>39']]],
    [580, [[36, 'Disclaimer', 9]]],
    [560, [[36, 'Performing Labs', 9]]],
    [548, [[36, '01: RN - Labcorp Raritan, Dir: Sample Director, MD', 7]]],
    ...footer,
  ]);
  const extraction = extract('labcorp', [page1, page2]);
  const list = extraction.panels.flatMap((p) => p.panelResults);

  it('reads the current result and flag words, drops the lab number after the name, ignores previous results', () => {
    expect(list.map((r) => [r.biomarker, r.resultValue, r.flag ?? null])).toEqual([
      ['WBC', '6.0', null],
      ['Hemoglobin', '18.1', 'H'],
      ['Neutrophils', '58', null],
      ['Platelets', '270', null],
      ['HDL Cholesterol', '35', 'L'],
    ]);
    expect(byName(list, 'Neutrophils')).toMatchObject({ referenceRangeText: 'Not Estab.', minRefRangeValue: null, maxRefRangeValue: null });
    expect(byName(list, 'HDL Cholesterol')).toMatchObject({ minRefRangeValue: 39, referenceRangeText: '>39' });
  });

  it('merges a `(Cont.)` section into its panel and records it', () => {
    expect(extraction.panels.map((p) => [p.panelName, p.pageNumber, p.panelResults.length])).toEqual([
      ['CBC With Differential/Platelet', 1, 4],
      ['Lipid Panel', 2, 1],
    ]);
    expect(extraction.mergeActions).toContainEqual(
      expect.objectContaining({ code: 'panel_continued', panelName: 'CBC With Differential/Platelet', pages: [1, 2] }),
    );
  });

  it('stops at the legend and performing-lab list', () => {
    expect(list.some((r) => r.biomarker.startsWith('01'))).toBe(false);
    expectNothingInvented(list);
  });
});

describe('older Labcorp report: flag column words', () => {
  const L = { name: 36, row: 46, result: 220, flag: 280, units: 330, range: 420, lab: 545 };
  const page = syntheticPage(1, [
    [640, [[L.name, 'TESTS'], [L.result, 'RESULTS'], [L.flag, 'FLAG'], [L.units, 'UNITS'], [L.range, 'REFERENCE INTERVAL'], [L.lab, 'LAB']]],
    [624, [[L.name, 'Basic Metabolic Panel (8)', 9]]],
    ...stack(612, 11, [
      [[L.row, 'Potassium'], [L.result, '6.8'], [L.flag, 'Critical High'], [L.units, 'mmol/L'], [L.range, '3.5-5.2'], [L.lab, '01']],
      [[L.row, 'Sodium'], [L.result, '119'], [L.flag, 'Alert'], [L.units, 'mmol/L'], [L.range, '134-144'], [L.lab, '01']],
      [[L.row, 'Glucose'], [L.result, '92'], [L.flag, '(Normal)'], [L.units, 'mg/dL'], [L.range, '65-99'], [L.lab, '01']],
      [[L.row, 'Chloride'], [L.result, '101'], [L.flag, 'Pending review'], [L.units, 'mmol/L'], [L.range, '96-106'], [L.lab, '01']],
    ]),
  ]);
  const list = results('labcorp', [page]);

  it('reads critical, alert and normal words; a row whose flag cell is not a flag is not taken', () => {
    expect(list.map((r) => [r.biomarker, r.flag ?? null])).toEqual([
      ['Potassium', 'HH'],
      ['Sodium', 'AA'],
      ['Glucose', 'N'],
    ]);
  });
});
