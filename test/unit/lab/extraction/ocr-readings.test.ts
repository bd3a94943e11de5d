import { classifyDocument } from '../../../../functions/lab/classify-document';
import { extractLabResults } from '../../../../functions/lab/parsers';
import { type PageText, readPdfText } from '../../../../functions/lab/pdf-text';
import { type Chunking, type DrawnLine, renderLines } from './render-lines';

/**
 * The reader's repairs of what OCR misreads, on a page read back from a real PDF whose words are then
 * given as OCR gives them (each with its confidence): they apply to recognised pages only.
 */

/** A Labcorp page's head: the lab, the collection date, the column header. */
const HEAD: DrawnLine[] = [
  [760, [[36, 'Labcorp', 12]]],
  [740, [[36, 'Date Collected: 03/14/2025']]],
  [700, [[36, 'Test'], [190, 'Current Result and Flag'], [330, 'Units'], [400, 'Reference Interval']]],
];

/** Where Quest's export sets its columns, and its page's head: the lab, the collection date, the column header. */
const Q = { name: 33, value: 199, range: 340, lab: 532 };
const QUEST_HEAD: DrawnLine[] = [
  [760, [[34, 'Quest Diagnostics', 13]]],
  [740, [[Q.name, 'Collected: 11-22-2023']]],
  [716, [[Q.name, 'Test Name'], [Q.value, 'In Range'], [Q.range, 'Reference Range'], [Q.lab, 'Lab']]],
];

const PAGE: DrawnLine[] = [
  ...HEAD,
  // A gap inside a word as wide as the page's spaces, as OCR reads it.
  [686, [[36, 'CBC With Differential/P latelet', 9]]],
  [674, [[46, 'WBC'], [190, '6.0'], [330, 'x10E3/uL'], [400, '3.4-10.8']]],
  [662, [[46, 'Hemoglobin'], [190, '13.1'], [330, 'g/dL'], [400, '11.1-15.9']]],
];

/**
 * The panels read from drawn pages, given as OCR gives its words (`ocr`, the default: each word at 0.93,
 * or at `doubted`'s confidence where it names one) or as their text layer.
 */
async function extractionOf(
  pages: DrawnLine[][],
  ocr = true,
  doubted: Record<string, number> = {},
  options: Parameters<typeof extractLabResults>[2] = {},
  /** How the text is drawn: cells, or word by word as OCR reads a scan. */
  chunking: Chunking = 'cell',
): Promise<ReturnType<typeof extractLabResults>> {
  const read: PageText[] = (await readPdfText(await renderLines(pages, { chunking }))).map((page) =>
    ocr ? { ...page, source: 'ocr', items: page.items.map((item) => ({ ...item, confidence: doubted[item.str] ?? 0.93 })) } : page,
  );
  const classification = classifyDocument(read);
  if (classification.kind !== 'lab_report') throw new Error(`not read as a lab report: ${classification.kind}`);
  return extractLabResults(read, classification, options);
}

async function panelsOf(pages: DrawnLine[][], ocr = true, doubted: Record<string, number> = {}): Promise<Array<[string, Array<[string, string | null]>]>> {
  return (await extractionOf(pages, ocr, doubted)).panels.map((panel) => [panel.panelName, panel.panelResults.map((r) => [r.biomarker, r.resultValue])]);
}

const names = (panels: Awaited<ReturnType<typeof panelsOf>>) => panels.map(([title, results]) => [title, results.map(([name]) => name)]);

describe('panel titles OCR misread', () => {
  it('are the panel table’s printed title on a recognised page', async () => {
    expect((await panelsOf([PAGE])).map(([title]) => title)).toEqual(['CBC With Differential/Platelet']);
  });

  it('stay as printed on a page read from its text layer', async () => {
    expect((await panelsOf([PAGE], false)).map(([title]) => title)).toEqual(['CBC With Differential/P latelet']);
  });
});

describe('a scanned panel title the engine garbled', () => {
  const titled = (...title: Array<[number, string]>): DrawnLine[] => [
    ...HEAD,
    [686, title.map(([x, text]) => [x, text, 11] as [number, string, number])],
    [674, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L'], [400, '134-144']]],
    [662, [[36, 'Potassium'], [190, '4.4'], [330, 'mmol/L'], [400, '3.5-5.2']]],
  ];
  const titleOf = async (page: DrawnLine[], doubted: Record<string, number>, ocr = true) => (await panelsOf([page], ocr, doubted)).map(([title, results]) => [title, results.length]);

  it('is the panel table’s title where only words the engine doubted follow it: a stamp or (Cont.) garbled', async () => {
    const page = titled([36, 'Comp. Metabolic Panel (14)'], [220, 'Rete'], [250, '1-16:2008Received:'], [330, 'Haan']);
    expect(await titleOf(page, { Rete: 0.29, '1-16:2008Received:': 0.22, Haan: 0 })).toEqual([['Comp. Metabolic Panel (14)', 2]]);
    // Read surely, the words are what the line says: a label with a colon, no title.
    expect(await titleOf(page, {})).not.toContainEqual(['Comp. Metabolic Panel (14)', 2]);
  });

  it('is the panel table’s title a doubted word misreads near its spelling, the title alone fitting', async () => {
    const page = titled([36, 'SONMetabolic'], [120, 'Panel'], [152, '(14)']);
    expect(await titleOf(page, { SONMetabolic: 0.37 })).toEqual([['Comp. Metabolic Panel (14)', 2]]);
    expect(await titleOf(page, {})).toEqual([['SONMetabolic Panel (14)', 2]]);
    expect(await titleOf(page, {}, false)).toEqual([['SONMetabolic Panel (14)', 2]]);
  });
});

describe('a title of the panel table over a row OCR could not read', () => {
  it('opens its panel: the rows after the unreadable one are not the previous panel’s', async () => {
    const page: DrawnLine[] = [
      ...HEAD,
      [686, [[36, 'CBC With Differential/Platelet']]],
      [674, [[36, 'WBC'], [190, '6.0'], [330, 'x10E3/uL'], [400, '3.4-10.8']]],
      [662, [[36, 'Comp. Metabolic Panel (14)']]],
      // `High` read as `gh`, beside a value sized apart: no row.
      [650, [[36, 'Glucose'], [190, '114'], [220, 'gh'], [330, 'mg/dL'], [400, '65-99']]],
      [638, [[36, 'BUN'], [330, 'mg/dL'], [400, '6-24']]],
      [626, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L'], [400, '134-144']]],
    ];
    expect(names(await panelsOf([page]))).toEqual([
      ['CBC With Differential/Platelet', ['WBC']],
      ['Comp. Metabolic Panel (14)', ['Sodium']],
    ]);
  });

  it('opens its panel at the top of a page without a column header, over rows it cannot read', async () => {
    const first: DrawnLine[] = [
      ...HEAD,
      [686, [[36, 'CBC With Differential/Platelet']]],
      [674, [[36, 'WBC'], [190, '6.0'], [330, 'x10E3/uL'], [400, '3.4-10.8']]],
      [662, [[36, 'Hemoglobin'], [190, '13.1'], [330, 'g/dL'], [400, '11.1-15.9']]],
    ];
    const second: DrawnLine[] = [
      [760, [[36, 'Patient ID: 35387256'], [330, 'Account Number: 61181093']]],
      [710, [[36, 'Comp. Metabolic Panel (14)', 11]]],
      [698, [[36, 'Glucose'], [190, '114'], [220, 'gh'], [330, 'mg/dL'], [400, '65-99']]],
      [686, [[36, 'BUN'], [330, 'mg/dL'], [400, '6-24']]],
      [674, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L'], [400, '134-144']]],
      [662, [[36, 'Potassium'], [190, '4.4'], [330, 'mmol/L'], [400, '3.5-5.2']]],
    ];
    expect(names(await panelsOf([first, second]))).toEqual([
      ['CBC With Differential/Platelet', ['WBC', 'Hemoglobin']],
      ['Comp. Metabolic Panel (14)', ['Sodium', 'Potassium']],
    ]);
  });
});

describe('a wrapped test name whose comma OCR lost or read as part of a letter', () => {
  // `Cholesterol,` / `Total 196` printed, the comma too faint to read, or `l,` read as `f`.
  it.each(['Cholesterol', 'Cholesterof'])('is re-joined as the name the LOINC table prints, not taken for a title over the second line (%s)', async (first) => {
    const page: DrawnLine[] = [
      ...HEAD,
      [686, [[36, 'Lipid Panel', 11]]],
      [674, [[36, first]]],
      [664, [[36, 'Total'], [190, '196'], [330, 'mg/dL'], [400, '100-199']]],
      [652, [[36, 'Triglycerides'], [190, '120'], [330, 'mg/dL'], [400, '0-149']]],
    ];
    expect(await panelsOf([page])).toEqual([
      [
        'Lipid Panel',
        [
          ['Cholesterol, Total', '196'],
          ['Triglycerides', '120'],
        ],
      ],
    ]);
  });
});

describe('a note under a row, its numbers misread, in the name column', () => {
  const page = (note: string): DrawnLine[] => [
    ...HEAD,
    [686, [[36, 'Hemoglobin A1c', 11]]],
    [674, [[36, 'Hemoglobin Alc'], [190, '5.5'], [330, '%'], [400, '4.8-5.6']]],
    // `Prediabetes: 5.7 - 6.4` printed, indented; `5.7 -` read as `Sif~`.
    [662, [[56, note]]],
    [650, [[36, 'Hemoglobin'], [190, '13.1'], [330, 'g/dL'], [400, '11.1-15.9']]],
  ];

  it('is not the rest of a scanned name the table knows', async () => {
    expect(names(await panelsOf([page('Prediabetes Sif~ 6.4')]))).toEqual([['Hemoglobin A1c', ['Hemoglobin A1c', 'Hemoglobin']]]);
  });

  it('is the rest of the name where, indented too, joined the two make a name the table knows', async () => {
    const wrapped: DrawnLine[] = [
      ...HEAD,
      [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
      [674, [[36, 'UREA NITROGEN'], [190, '14'], [330, 'mg/dL'], [400, '7-25']]],
      [664, [[56, '(BUN)']]],
      [652, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L'], [400, '134-144']]],
    ];
    expect(names(await panelsOf([wrapped]))).toEqual([['Comp. Metabolic Panel (14)', ['UREA NITROGEN (BUN)', 'Sodium']]]);
  });

  it('is the rest of the name where it stands at the names’ indent, known or not', async () => {
    const wrapped: DrawnLine[] = [
      ...HEAD,
      [686, [[36, 'Iron and TIBC', 11]]],
      // A spelling the LOINC table lacks (Labcorp's own, `Iron Bind.Cap.(TIBC)`, it has).
      [674, [[36, 'Iron'], [190, '288'], [330, 'ug/dL'], [400, '250-450']]],
      [664, [[36, 'Binding Cap.(TIBC)']]],
      [652, [[36, 'UIBC'], [190, '165'], [330, 'ug/dL'], [400, '111-343']]],
    ];
    expect(names(await panelsOf([wrapped]))).toEqual([['Iron and TIBC', ['Iron Binding Cap.(TIBC)', 'UIBC']]]);
  });
});

describe('a unit printed over two lines, the point at the first line’s end lost', () => {
  it('is the unit the table prints with the point, not two words', async () => {
    const page: DrawnLine[] = [
      ...HEAD,
      [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
      // `mL/min/1.` / `73m2` printed; OCR took the point closing the line for a speck.
      [674, [[36, 'eGFR'], [190, '92'], [330, 'mL/min/1'], [400, '>59']]],
      [664, [[330, '73m2']]],
      [652, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L'], [400, '134-144']]],
    ];
    const { panels } = await extractionOf([page]);
    expect(panels[0]!.panelResults.map((r) => [r.biomarker, r.resultUnit, r.ucumCode])).toEqual([
      ['eGFR', 'mL/min/1.73m2', 'mL/min/{1.73_m2}'],
      ['Sodium', 'mmol/L', 'mmol/L'],
    ]);
  });
});

describe('the rest of a unit on the line below, OCR placing and sizing its lone word by its own glyphs', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Hemoglobin A1c', 11]]],
    [674, [[36, 'Hemoglobin A1c'], [190, '5.7'], [330, '% of total'], [400, '<5.7']]],
    // `Hgb` set under the unit, read a line larger and lower than the row's wrapped line would be.
    [656, [[330, 'Hgb', 11]]],
  ];
  const units = async (ocr: boolean) => (await extractionOf([page], ocr)).panels.flatMap((p) => p.panelResults.map((r) => r.resultUnit));

  it('ends the row’s unit on a recognised page where the two make a unit the table prints', async () => {
    expect(await units(true)).toEqual(['% of total Hgb']);
  });

  it('does not on a text page, where a larger line further down is another matter', async () => {
    expect(await units(false)).toEqual(['% of total']);
  });
});

describe('the rest of a wrapped name, OCR sizing its line larger than the rows', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES', 11]]],
    [674, [[36, 'HIV 1/2 ANTIGEN AND'], [190, 'NON-REACTIVE'], [400, 'NON-REACTIVE']]],
    // A comma's tail: the engine sized this line a third larger than the rows.
    [662, [[36, 'ANTIBODIES, FOURTH', 12]]],
    [650, [[36, 'GENERATION, WITH REFLEXES']]],
    [636, [[36, 'HCV'], [190, 'Reactive'], [400, 'Non Reactive']]],
    [624, [[36, 'Antibody', 12]]],
  ];
  const names = async (ocr: boolean) => (await extractionOf([page], ocr)).panels.flatMap((p) => p.panelResults.map((r) => r.biomarker));

  it('continues the row’s name on a recognised page where it, or it and the line after it, make a name the table knows', async () => {
    expect(await names(true)).toEqual(['HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES', 'HCV Antibody']);
  });

  it('does not on a text page, where a larger line is a title', async () => {
    expect(await names(false)).toEqual(['HIV 1/2 ANTIGEN AND', 'HCV']);
  });
});

describe('range texts OCR read without their spaces or closing point', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Lipid Panel', 11]]],
    [674, [[36, 'HDL Cholesterol'], [190, '52'], [330, 'mg/dL'], [400, '>OR =40']]],
    [662, [[36, 'Lymphs'], [190, '22'], [330, '%'], [400, 'Not Estab']]],
  ];

  it('are given as reports print them on a recognised page, the bounds unchanged', async () => {
    const { panels } = await extractionOf([page]);
    expect(panels[0]!.panelResults.map((r) => [r.referenceRangeText, r.minRefRangeValue, r.maxRefRangeValue])).toEqual([
      ['> OR = 40', 40, null],
      ['Not Estab.', null, null],
    ]);
  });

  it('stay as printed on a text page', async () => {
    const { panels } = await extractionOf([page], false);
    expect(panels[0]!.panelResults.map((r) => r.referenceRangeText)).toEqual(['>OR =40', 'Not Estab']);
  });
});

describe('a unit of two words OCR read as one', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Lipid Panel', 11]]],
    [674, [[36, 'LDL Chol Calc (NIH)'], [190, '129'], [330, 'mg/dL(calc)'], [400, '0-99']]],
  ];

  it('is the unit the table prints on a recognised page, and as printed on a text page', async () => {
    const units = async (ocr: boolean) => (await extractionOf([page], ocr)).panels[0]!.panelResults.map((r) => r.resultUnit);
    expect(await units(true)).toEqual(['mg/dL (calc)']);
    expect(await units(false)).toEqual(['mg/dL(calc)']);
  });
});

describe('a unit OCR misread', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    [674, [[36, 'ALT (SGPT)'], [190, '21'], [330, '[U/L'], [400, '0-32']]],
    [662, [[36, 'AST (SGOT)'], [190, '19'], [330, 'IU/L'], [400, '0-40']]],
  ];

  it('is the unit the lab prints for the test on a recognised page, coded with it and its confidence lowered', async () => {
    const [alt, ast] = (await extractionOf([page])).panels[0]!.panelResults;
    expect([alt!.resultUnit, alt!.ucumCode, alt!.loincCode]).toEqual(['IU/L', '[IU]/L', '1742-6']);
    expect(ast!.resultUnit).toBe('IU/L');
    expect(alt!.confidence).toBeLessThan(ast!.confidence);
  });

  it('is repaired by the extraction itself, before the pipeline’s own UCUM and LOINC steps code it', async () => {
    const [alt] = (await extractionOf([page], true, {}, { codes: false })).panels[0]!.panelResults;
    expect([alt!.resultUnit, alt!.ucumCode, alt!.loincCode]).toEqual(['IU/L', null, null]);
  });

  it('stays as printed on a text page', async () => {
    const [alt] = (await extractionOf([page], false)).panels[0]!.panelResults;
    expect([alt!.resultUnit, alt!.ucumCode]).toEqual(['[U/L', null]);
  });
});

describe('a range whose points a scan lost or misread', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'CBC With Differential/Platelet', 11]]],
    // Labcorp prints RDW `11.6-15.4` and the A/G ratio `1.2-2.2` (data/reference/lab-ranges.json).
    [674, [[36, 'RDW'], [190, '13.1'], [330, '%'], [400, '11.6-154']]],
    [662, [[36, 'A/G Ratio'], [190, '1.8'], [400, '1.2.22']]],
  ];
  const ranges = async (ocr: boolean) =>
    (await extractionOf([page], ocr)).panels[0]!.panelResults.map((r) => [r.biomarker, r.minRefRangeValue, r.maxRefRangeValue, r.referenceRangeText]);

  it('is the range the lab prints for the test on a recognised page', async () => {
    expect(await ranges(true)).toEqual([
      ['RDW', 11.6, 15.4, '11.6-15.4'],
      ['A/G Ratio', 1.2, 2.2, '1.2-2.2'],
    ]);
  });

  it('stays as printed on a text page', async () => {
    expect(await ranges(false)).toEqual([
      ['RDW', 11.6, 154, '11.6-154'],
      ['A/G Ratio', null, null, '1.2.22'],
    ]);
  });
});

describe('a range mended from the lab’s table on a report that prints its ranges spaced', () => {
  /** A scanned page whose ranges print `hyphen`: BUN's hyphen broken in two by noise (`6` `24`), Potassium's lost (`355.2`). */
  const page = (hyphen: string): DrawnLine[] => [
    ...HEAD,
    [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    [674, [[36, 'Glucose'], [190, '114'], [330, 'mg/dL'], [400, `65${hyphen}99`]]],
    [662, [[36, 'BUN'], [190, '9'], [330, 'mg/dL'], [400, '6'], [420, '24']]],
    [650, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L'], [400, `134${hyphen}144`]]],
    [638, [[36, 'Potassium'], [190, '4.0'], [330, 'mmol/L'], [400, '355.2']]],
  ];
  const ranges = async (hyphen: string) => (await extractionOf([page(hyphen)])).panels[0]!.panelResults.map((r) => [r.biomarker, r.referenceRangeText]);

  it('is written with the hyphen the report’s other ranges show', async () => {
    expect(await ranges(' - ')).toEqual([
      ['Glucose', '65 - 99'],
      ['BUN', '6 - 24'],
      ['Sodium', '134 - 144'],
      ['Potassium', '3.5 - 5.2'],
    ]);
    expect(await ranges('-')).toEqual([
      ['Glucose', '65-99'],
      ['BUN', '6-24'],
      ['Sodium', '134-144'],
      ['Potassium', '3.5-5.2'],
    ]);
  });
});

describe('a range cell OCR garbled', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    // Labcorp prints Potassium `3.5-5.2`: its dash lost.
    [674, [[36, 'Potassium'], [190, '4.0'], [330, 'mmol/L'], [400, '355.2']]],
    // A colon for the dash and a digit misread: no range of the lab's for the test has these digits.
    [662, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L'], [400, '13:4145']]],
    [650, [[36, 'Chloride'], [190, '101'], [330, 'mmol/L'], [400, '96-106']]],
    // `<200` with a digit lost: a bound no lab writes.
    [638, [[36, 'Cholesterol, Total'], [190, '187'], [330, 'mg/dL'], [400, '<00']]],
  ];
  const rows = async (ocr: boolean) =>
    (await extractionOf([page], ocr)).panels[0]!.panelResults.map((r) => [r.biomarker, r.resultValue, r.minRefRangeValue, r.maxRefRangeValue, r.referenceRangeText]);

  it('costs a recognised row only its range: the lab’s printed range where its digits are one, else none, never digits and marks that read as no range', async () => {
    expect(await rows(true)).toEqual([
      ['Potassium', '4.0', 3.5, 5.2, '3.5-5.2'],
      ['Sodium', '141', null, null, null],
      ['Chloride', '101', 96, 106, '96-106'],
      ['Cholesterol, Total', '187', null, null, null],
    ]);
  });

  it('is given as printed on a text page, where a cell holding a bare number leaves the row unread', async () => {
    expect(await rows(false)).toEqual([
      ['Sodium', '141', null, null, '13:4145'],
      ['Chloride', '101', 96, 106, '96-106'],
      ['Cholesterol, Total', '187', null, 0, '<00'],
    ]);
  });
});

describe('a scanned range far from every range labs print for the test', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'CBC With Differential/Platelet', 11]]],
    // Labcorp and Quest print 34.0–51.1 % between them: a digit added to the upper bound, then one lost from the lower.
    [674, [[36, 'Hematocrit'], [190, '45.2'], [330, '%'], [400, '37.5-561.0']]],
    [662, [[36, 'Hemoglobin'], [190, '13.1'], [330, 'g/dL'], [400, '1.1-15.9']]],
    // Another lab's range, near the table's: kept.
    [650, [[36, 'RBC'], [190, '4.51'], [330, 'x10E6/uL'], [400, '4.00-6.00']]],
    // A range from zero says nothing of scale.
    [638, [[36, 'Basophils'], [190, '1'], [330, '%'], [400, '0-3']]],
  ];
  const rows = async (ocr: boolean) => (await extractionOf([page], ocr)).panels[0]!.panelResults.map((r) => [r.biomarker, r.minRefRangeValue, r.maxRefRangeValue, r.referenceRangeText]);

  it('costs a recognised row its range, the value kept', async () => {
    expect(await rows(true)).toEqual([
      ['Hematocrit', null, null, null],
      ['Hemoglobin', null, null, null],
      ['RBC', 4, 6, '4.00-6.00'],
      ['Basophils', 0, 3, '0-3'],
    ]);
  });

  it('is given as printed on a text page', async () => {
    expect((await rows(false)).map(([, , , text]) => text)).toEqual(['37.5-561.0', '1.1-15.9', '4.00-6.00', '0-3']);
  });
});

describe('a unit cell OCR garbled', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    // A speck read as a digit after the unit: the lab prints mmol/L for Potassium.
    [674, [[36, 'Potassium'], [190, '4.0'], [330, 'mmol/L 5'], [400, '3.5-5.2']]],
    // A fax's `%` read `6`: no printed unit is near, and HbA1c is measured in %.
    [662, [[36, 'Hemoglobin A1c'], [190, '5.5'], [330, '6 of total Hgb'], [400, '4.8-5.6']]],
    // A ratio, or a pH, printed without a unit is unitless, scanned or not.
    [650, [[36, 'A/G Ratio'], [190, '1.5'], [400, '1.2-2.2']]],
    [638, [[36, 'pH'], [190, '6.0'], [400, '5.0-8.0']]],
    // `mg/dL (calc)` read as its note alone: what UCUM codes `1`, for a test measured in mg/dL.
    [626, [[36, 'LDL Chol Calc (NIH)'], [190, '98'], [330, '(calc)'], [400, '0-99']]],
  ];
  const rows = async (ocr: boolean) => (await extractionOf([page], ocr)).panels[0]!.panelResults.map((r) => [r.biomarker, r.resultValue, r.resultUnit, r.ucumCode]);

  it('costs a recognised row only its unit: the lab’s printed unit where the reading is near it, else none, and no UCUM code for a test measured in units', async () => {
    expect(await rows(true)).toEqual([
      ['Potassium', '4.0', 'mmol/L', 'mmol/L'],
      ['Hemoglobin A1c', '5.5', null, null],
      ['A/G Ratio', '1.5', null, '1'],
      ['pH', '6.0', null, '1'],
      ['LDL Chol Calc (NIH)', '98', null, null],
    ]);
  });

  it('leaves the row unread on a text page, where such a cell says the columns are not where the header puts them', async () => {
    expect(await rows(false)).toEqual([
      ['A/G Ratio', '1.5', null, '1'],
      ['pH', '6.0', null, '1'],
      ['LDL Chol Calc (NIH)', '98', '(calc)', '1'],
    ]);
  });
});

describe('a unit the engine garbled beyond repair', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    // Labcorp prints IU/L for ALP, AST and ALT (its ranges say so). `WJ` and `un`, doubted, are no unit at all.
    [674, [[36, 'Alkaline Phosphatase'], [190, '88'], [330, 'WJ'], [400, '44-121']]],
    [662, [[36, 'AST (SGOT)'], [190, '21'], [330, 'un'], [400, '0-40']]],
    // The same kind of reading, read surely, may be a unit the table lacks: given as read.
    [650, [[36, 'ALT (SGPT)'], [190, '19'], [330, 'WL'], [400, '0-44']]],
    // A unit of the kind the test measures, though not the one the lab prints, is a reading of a unit and stays.
    [638, [[36, 'ALT (SGPT)'], [190, '19'], [330, 'ukat/L']]],
  ];
  const units = async (ocr: boolean) =>
    (await extractionOf([page], ocr, { WJ: 0.41, un: 0.3 })).panels[0]!.panelResults.map((r) => [r.biomarker, r.resultUnit, r.ucumCode]);

  it('is left out on a recognised page where the engine doubted its row, with no UCUM code', async () => {
    expect(await units(true)).toEqual([
      ['Alkaline Phosphatase', null, null],
      ['AST (SGOT)', null, null],
      ['ALT (SGPT)', 'WL', null],
      ['ALT (SGPT)', 'ukat/L', 'ukat/L'],
    ]);
  });

  it('stays as printed on a text page', async () => {
    expect((await units(false)).map(([name, unit]) => [name, unit])).toEqual([
      ['Alkaline Phosphatase', 'WJ'],
      ['AST (SGOT)', 'un'],
      ['ALT (SGPT)', 'WL'],
      ['ALT (SGPT)', 'ukat/L'],
    ]);
  });
});

describe('a long panel title on a line of its own over its Collected/Received stamp, between two panels', () => {
  // Read word by word, as OCR reads a scan, the title's last words stand in the value column: the line
  // was taken for an unreadable row, and the result below it was filed under the panel above.
  const page: DrawnLine[] = [
    ...QUEST_HEAD,
    [700, [[Q.name, 'HEPATITIS C ANTIBODY Collected: 11-22-2023 06:08 AM UTC Received: 11-22-2023 09:15 AM UTC', 9.5]]],
    [688, [[Q.name, 'HEPATITIS C ANTIBODY'], [Q.value, 'NON-REACTIVE'], [Q.range, 'NON-REACTIVE'], [Q.lab, 'TPA']]],
    // Sized as the rows are, as OCR sizes an upper-case line by its glyphs.
    [672, [[Q.name, 'HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES']]],
    [661, [[Q.name, 'Collected: 11-22-2023 06:08 AM UTC Received: 11-22-2023 09:15 AM UTC']]],
    [649, [[Q.name, 'HIV 1/2 ANTIGEN AND ANTIBODIES,']]],
    [638, [[Q.name, 'FOURTH GENERATION, WITH']]],
    [627, [[Q.name, 'REFLEXES'], [Q.value, 'NON-REACTIVE'], [Q.range, 'NON-REACTIVE'], [Q.lab, 'DAL']]],
  ];

  it.each([true, false])('opens its panel (recognised: %s)', async (ocr) => {
    const { panels } = await extractionOf([page], ocr, {}, {}, 'word');
    expect(panels.flatMap((p) => p.panelResults.map((r) => [p.panelName, r.resultValue]))).toEqual([
      ['HEPATITIS C ANTIBODY', 'NON-REACTIVE'],
      ['HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES', 'NON-REACTIVE'],
    ]);
  });
});

describe('a flag the engine could not read', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    // `L` read `1` at 0.47, right after a value below its range.
    [674, [[36, 'Creatinine'], [190, '0.72'], [212, '1'], [330, 'mg/dL'], [400, '0.76-1.27']]],
    // The same reading after a value inside its range: no flag says so.
    [662, [[36, 'Glucose'], [190, '85'], [206, '1'], [330, 'mg/dL'], [400, '65-99']]],
    // An unread word further from the value than a space or two is no flag, wherever the value lies.
    [650, [[36, 'Calcium'], [190, '8.5'], [290, '1'], [330, 'mg/dL'], [400, '8.7-10.2']]],
  ];
  const flags = async () => (await extractionOf([page], true, { '1': 0.47 })).panels[0]!.panelResults.map((r) => [r.biomarker, r.resultValue, r.flag ?? null]);

  it('is the flag it reads as through the confusions where the value lies as that flag says, right after the value', async () => {
    expect(await flags()).toEqual([
      ['Creatinine', '0.72', 'L'],
      ['Glucose', '85', null],
      ['Calcium', '8.5', null],
    ]);
  });
});

describe('a unit read as another printed unit', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Estradiol', 11]]],
    // Labcorp prints Estradiol's `7.6-42.6` in pg/mL: its `p` read `n`, a thousand times off.
    [674, [[36, 'Estradiol'], [190, '25.0'], [330, 'ng/mL'], [400, '7.6-42.6']]],
    // Testosterone's printed range is `264-916`: a range the lab does not print says nothing of the unit.
    [662, [[36, 'Testosterone'], [190, '500'], [330, 'pg/dL'], [400, '264-917']]],
    // TSH's `0.450-4.500` is in uIU/mL: `mIU/mL` is a thousand times off, `µIU/mL` the same unit spelt otherwise.
    [650, [[36, 'TSH'], [190, '2.150'], [330, 'mIU/mL'], [400, '0.450-4.500']]],
    [638, [[36, 'TSH'], [190, '2.150'], [330, 'µIU/mL'], [400, '0.450-4.500']]],
  ];
  const units = async (ocr: boolean) => (await extractionOf([page], ocr)).panels.flatMap((p) => p.panelResults.map((r) => [r.biomarker, r.resultUnit]));

  it('is the unit the lab prints the row’s range in, on a recognised page', async () => {
    expect(await units(true)).toEqual([
      ['Estradiol', 'pg/mL'],
      ['Testosterone', 'pg/dL'],
      ['TSH', 'uIU/mL'],
      // The text layer gives the micro sign as the Greek mu (NFKC), as pdf.js reads it.
      ['TSH', 'μIU/mL'],
    ]);
  });

  it('stays as printed on a text page', async () => {
    expect(await units(false)).toEqual([
      ['Estradiol', 'ng/mL'],
      ['Testosterone', 'pg/dL'],
      ['TSH', 'mIU/mL'],
      ['TSH', 'μIU/mL'],
    ]);
  });
});

describe('a range whose low bound a scan misread above its high one', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    [674, [[36, 'Creatinine'], [190, '0.88'], [330, 'mg/dL'], [400, '6.76-1.27']]],
  ];
  const ranges = async (ocr: boolean) =>
    (await extractionOf([page], ocr)).panels[0]!.panelResults.map((r) => [r.resultValue, r.minRefRangeValue, r.maxRefRangeValue, r.referenceRangeText]);

  it('is not given on a recognised page; the value is', async () => {
    expect(await ranges(true)).toEqual([['0.88', null, null, null]]);
  });

  it('is given as printed on a text page', async () => {
    expect(await ranges(false)).toEqual([['0.88', 6.76, 1.27, '6.76-1.27']]);
  });
});

describe('a previous result OCR garbled', () => {
  const page: DrawnLine[] = [
    ...HEAD.slice(0, 2),
    [700, [[36, 'Test'], [190, 'Current Result and Flag'], [300, 'Previous Result and Date'], [420, 'Units'], [470, 'Reference Interval']]],
    [686, [[36, 'Lipid Panel', 11]]],
    [674, [[36, 'Triglycerides'], [190, '233 High'], [300, '175 HH17/31/22'], [420, 'mg/dL'], [470, '0-149']]],
    [662, [[36, 'HDL Cholesterol'], [190, '46'], [300, '84 06/03/2023'], [420, 'mg/dL'], [470, '>39']]],
  ];

  it('costs its row nothing on a recognised page: a previous result is not reported', async () => {
    expect(await panelsOf([page])).toEqual([['Lipid Panel', [['Triglycerides', '233'], ['HDL Cholesterol', '46']]]]);
  });

  it('leaves the row unread on a text page, where it says the columns are not where the header puts them', async () => {
    expect(await panelsOf([page], false)).toEqual([['Lipid Panel', [['HDL Cholesterol', '46']]]]);
  });
});

describe('lines above a panel title over its column header', () => {
  const header: DrawnLine[1] = [[36, 'Test'], [190, 'Current Result and Flag'], [330, 'Units'], [400, 'Reference Interval']];

  it('are no part of the title where set right of it: a note of the row before', async () => {
    const page: DrawnLine[] = [
      ...HEAD,
      [686, [[36, 'HS CRP', 11]]],
      [674, [[46, 'HS CRP'], [190, '5.8'], [330, 'mg/L']]],
      [662, [[60, 'Risk Category:']]],
      [650, [[60, 'High>or=3.1']]],
      [638, [[36, 'URINALYSIS, COMPLETE']]],
      [626, header],
      [614, [[46, 'COLOR'], [190, 'YELLOW'], [400, 'YELLOW']]],
    ];
    for (const ocr of [true, false]) expect(names(await panelsOf([page], ocr))).toEqual([
      ['HS CRP', ['HS CRP']],
      ['URINALYSIS, COMPLETE', ['COLOR']],
    ]);
  });

  it('are no part of the title where, on a scan, they end the name of the row before as the table knows it', async () => {
    const page: DrawnLine[] = [
      ...HEAD,
      [686, [[36, 'HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES', 11]]],
      // `ANTIGEN AND` read as one word.
      [674, [[36, 'HIV 1/2 ANTIGENAND ANTIBODIES,'], [190, 'NON-REACTIVE'], [400, 'NON-REACTIVE']]],
      [664, [[36, 'FOURTH GENERATION, WITH REFLEXES']]],
      [650, [[36, 'URINALYSIS, COMPLETE']]],
      [638, header],
      [626, [[36, 'COLOR'], [190, 'YELLOW'], [400, 'YELLOW']]],
    ];
    const panels = names(await panelsOf([page]));
    expect(panels.map(([title]) => title)).toEqual(['HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES', 'URINALYSIS, COMPLETE']);
    expect(panels[1]).toEqual(['URINALYSIS, COMPLETE', ['COLOR']]);
  });
});

describe('the second line of a wrapped name, OCR sizing its lone word smaller than the row', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    [674, [[36, 'Protein,', 9], [190, '6.1', 9], [330, 'g/dL', 9], [400, '6.0-8.5', 9]]],
    [665, [[36, 'Total', 8]]],
    [654, [[36, 'Albumin', 9], [190, '4.5', 9], [330, 'g/dL', 9], [400, '4.1-5.2', 9]]],
  ];

  it('ends the row’s name on a recognised page', async () => {
    expect(names(await panelsOf([page]))).toEqual([['Comp. Metabolic Panel (14)', ['Protein, Total', 'Albumin']]]);
  });

  it('does not on a text page, where a smaller line is another matter', async () => {
    expect(names(await panelsOf([page], false))).toEqual([['Comp. Metabolic Panel (14)', ['Protein,', 'Albumin']]]);
  });
});

describe('the first line of a wrapped name, OCR sizing it larger than the row', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    [674, [[36, 'Albumin', 9], [190, '4.5', 9], [330, 'g/dL', 9], [400, '4.1-5.2', 9]]],
    [664, [[36, 'A/G', 10]]],
    [654, [[36, 'Ratio', 9], [190, '2.2', 9], [400, '1.2-2.2', 9]]],
    [640, [[36, 'LIPID PANEL', 10]]],
    [628, [[36, 'Triglycerides', 9], [190, '88', 9], [330, 'mg/dL', 9], [400, '0-149', 9]]],
  ];

  it('opens the row’s name on a recognised page where the two make a name the table knows; a title that makes none stays a title', async () => {
    expect(names(await panelsOf([page]))).toEqual([
      ['Comp. Metabolic Panel (14)', ['Albumin', 'A/G Ratio']],
      ['LIPID PANEL', ['Triglycerides']],
    ]);
  });

  it('is no part of the row’s name on a text page, where a text layer sizes lines as printed', async () => {
    expect(names(await panelsOf([page], false))).toEqual([
      ['Comp. Metabolic Panel (14)', ['Albumin', 'Ratio']],
      ['LIPID PANEL', ['Triglycerides']],
    ]);
  });
});

describe('a line of dates right above a panel title over its column header', () => {
  it('is no first line of the title: a title never opens with a date', async () => {
    const page: DrawnLine[] = [
      [760, [[34, 'Quest Diagnostics', 8.4]]],
      [699, [[34, 'Specimen Collected', 8.4], [147, 'Specimen Received', 8.4], [255, 'Report Released', 8.4]]],
      [690, [[35, '12/20/24 1109 PST', 8.4], [148, '12/20/24 1416 PST', 8.4], [256, '12/22/24 1640 PST', 8.4]]],
      [672, [[35, 'LIPID PANEL, STANDARD', 8.4], [162, 'Collected: 12/20/24 1109 PST Received: 12/20/24 1416 PST', 8.4]]],
      [663, [[79, 'Test Name', 8.4], [182, 'In Range', 8.4], [241, 'Out Of Range', 8.4], [333, 'Reference Range', 8.4], [529, 'Lab', 8.4]]],
      [648, [[45, 'CHOLESTEROL, TOTAL', 8.4], [277, '230', 8.4], [297, 'H', 8.4], [333, '<200 mg/dL', 8.4], [529, 'EZ', 8.4]]],
      [639, [[45, 'TRIGLYCERIDES', 8.4], [277, '209', 8.4], [297, 'H', 8.4], [333, '<150 mg/dL', 8.4], [529, 'EZ', 8.4]]],
    ];
    for (const ocr of [true, false]) {
      expect(names(await panelsOf([page], ocr))).toEqual([['LIPID PANEL, STANDARD', ['CHOLESTEROL, TOTAL', 'TRIGLYCERIDES']]]);
    }
  });
});

describe('a value whose decimal point the scan lost', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    // `1.2` printed; its point one pixel on the scan, read `12`.
    [674, [[36, 'A/G Ratio'], [190, '12'], [400, '1.2-2.2']]],
    [662, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L'], [400, '134-144']]],
  ];

  it('is given with its point put back where the engine was sure of the digits, at a repair’s confidence and flagged for a check', async () => {
    const { panels, validationFlags } = await extractionOf([page]);
    expect(panels[0]!.panelResults.map((r) => [r.biomarker, r.resultValue])).toEqual([
      ['A/G Ratio', '1.2'],
      ['Sodium', '141'],
    ]);
    const [ratio, sodium] = panels[0]!.panelResults;
    expect(ratio!.confidence).toBeLessThan(sodium!.confidence);
    expect(ratio!.provenance.sourceText).toContain('12');
    expect(validationFlags).toContainEqual(expect.objectContaining({ code: 'low_ocr_confidence', biomarker: 'A/G Ratio', message: expect.stringContaining('shows 12') }));
    expect(validationFlags.filter((f) => f.biomarker === 'Sodium')).toEqual([]);
    // What the reader carried to weigh the point (the value word's confidence) is no field of a result.
    for (const result of panels[0]!.panelResults) expect(Object.keys(result)).not.toContain('valueOcrConfidence');
  });

  it('is not given where the engine doubted the digits: the row is left unread', async () => {
    const { panels, summary } = await extractionOf([page], true, { '12': 0.7 });
    expect(panels[0]!.panelResults.map((r) => [r.biomarker, r.resultValue])).toEqual([['Sodium', '141']]);
    expect(summary.rowsSkipped).toContainEqual({ reason: 'unreadable_cell', count: 1 });
  });

  it('is given as printed on a text page', async () => {
    const { panels } = await extractionOf([page], false);
    expect(panels[0]!.panelResults.map((r) => [r.biomarker, r.resultValue])).toEqual([
      ['A/G Ratio', '12'],
      ['Sodium', '141'],
    ]);
  });
});

describe('a value beside a range whose decimal points the scan lost', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'CBC With Differential/Platelet', 11]]],
    // Labcorp prints WBC `3.4-10.8`; both its points lost on the scan. The value `10.3` is as printed.
    [674, [[36, 'WBC'], [190, '10.3'], [330, 'x10E3/uL'], [400, '34-108']]],
    // A whole-number range as printed (Labcorp's Alkaline Phosphatase `44-121`); `119` read with a speck's point.
    [662, [[36, 'Alkaline Phosphatase'], [190, '11.9'], [330, 'IU/L'], [400, '44-121']]],
  ];

  it('is given against the range the lab prints, the range mended; a value a speck gave a point is not', async () => {
    const { panels } = await extractionOf([page]);
    expect(panels[0]!.panelResults.map((r) => [r.biomarker, r.resultValue, r.referenceRangeText])).toEqual([['WBC', '10.3', '3.4-10.8']]);
  });
});

describe('a test name the table does not know, a word of it doubted', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    // `Alkaline Phosphatase` printed; its second word misread beyond repair.
    [674, [[36, 'Alkaline'], [73, 'amtace'], [190, '94'], [330, 'IU/L'], [400, '44-121']]],
    // A test the table lacks, read as printed with a word doubted.
    [662, [[36, 'Neisseria gonorrhoeae RNA,'], [150, 'TMA'], [190, 'NOT DETECTED'], [400, 'NOT DETECTED']]],
    [650, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L'], [400, '134-144']]],
  ];
  const doubted = { amtace: 0.15, 'TMA': 0.4 };

  it('leaves its row unread on a recognised page where the words read surely fit a name the table knows', async () => {
    const { panels, summary } = await extractionOf([page], true, doubted);
    expect(panels[0]!.panelResults.map((r) => [r.biomarker, r.resultValue])).toEqual([
      ['Neisseria gonorrhoeae RNA, TMA', 'NOT DETECTED'],
      ['Sodium', '141'],
    ]);
    expect(summary.rowsSkipped).toContainEqual({ reason: 'unreadable_cell', count: 1 });
  });

  it('is given where the engine read it surely, and on a text page', async () => {
    for (const extraction of [await extractionOf([page]), await extractionOf([page], false)]) {
      expect(extraction.panels[0]!.panelResults.map((r) => r.biomarker)).toEqual(['Alkaline amtace', 'Neisseria gonorrhoeae RNA, TMA', 'Sodium']);
    }
  });
});

describe('a test name the table knows, a word of it misread near its printed spelling and doubted', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'HIV Ab/p24 Ag with Reflex', 11]]],
    // `HIV Screen 4th Generation wRfx` printed; the gap before `Generation` read as a `2`.
    [674, [[36, 'HIV Screen'], [88, '4th2eneration'], [150, 'wRfx'], [190, 'Non Reactive'], [400, 'Non Reactive']]],
  ];
  const doubted = { '4th2eneration': 0.43 };

  it('is read back as the name on a recognised page, coded, no surer than its doubted word; read surely, it stays as read', async () => {
    const surely = (await extractionOf([page], true, { ...doubted, '4th2eneration': 0.93 })).panels[0]!.panelResults[0]!;
    const [result] = (await extractionOf([page], true, doubted)).panels[0]!.panelResults;
    expect([result!.biomarker, result!.resultValue, result!.loincCode]).toEqual(['HIV Screen 4th Generation wRfx', 'Non Reactive', '56888-1']);
    expect(surely.biomarker).toBe('HIV Screen 4th2eneration wRfx');
    expect(result!.confidence).toBeLessThanOrEqual(doubted['4th2eneration']);
  });
});

describe('a scanned value its unflagged row contradicts', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    // `7.7` printed; a 7 read as a 1, surely, and no flag beside it.
    [674, [[36, 'Protein, Total'], [190, '1.7'], [330, 'g/dL'], [400, '6.0-8.5']]],
    [662, [[36, 'Albumin'], [190, '1.7 L'], [330, 'g/dL'], [400, '4.1-5.2']]],
    [650, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L'], [400, '134-144']]],
  ];

  it('leaves the row unread on a recognised page where the value lies beyond twice its range; a flagged one is given', async () => {
    const { panels, summary } = await extractionOf([page]);
    expect(panels[0]!.panelResults.map((r) => [r.biomarker, r.resultValue])).toEqual([
      ['Albumin', '1.7'],
      ['Sodium', '141'],
    ]);
    expect(summary.rowsSkipped).toContainEqual({ reason: 'unreadable_cell', count: 1 });
  });

  it('is given on a text page, where validation flags the contradiction', async () => {
    const { panels, validationFlags } = await extractionOf([page], false);
    expect(panels[0]!.panelResults.map((r) => r.biomarker)).toEqual(['Protein, Total', 'Albumin', 'Sodium']);
    expect(validationFlags).toContainEqual(expect.objectContaining({ code: 'flag_inconsistent_with_range', biomarker: 'Protein, Total' }));
  });
});

describe('a scanned value on a report that prints no ranges', () => {
  // A value, a flag and a unit only; every value printed with its point, lost on the scan but Sodium's.
  const page: DrawnLine[] = [
    [760, [[36, 'Labcorp', 12]]],
    [740, [[36, 'Date Collected: 03/14/2025']]],
    [700, [[36, 'Test'], [190, 'Result'], [260, 'Flag'], [330, 'Units']]],
    [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    // 2.7: no flag, beyond twice the widest globulin range labs print (1.5-4.5).
    [674, [[36, 'Globulin, Total'], [190, '27'], [330, 'g/dL']]],
    // 4.2 flagged low: beyond the albumin any person has (physiological bounds 1.05-10.8 g/dL).
    [662, [[36, 'Albumin'], [190, '42'], [260, 'Low'], [330, 'g/dL']]],
    // 3.3 flagged: within physiology and flagged, so nothing contradicts it.
    [650, [[36, 'Potassium'], [190, '33'], [260, 'High'], [330, 'mmol/L']]],
    // Testosterone's ranges in the table are men's only: a woman's 25 may be below them unflagged.
    [638, [[36, 'Testosterone'], [190, '25'], [330, 'ng/dL']]],
    [626, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L']]],
    // 3.1 read right, its unit misread: in x10E3/L it would be no one's count, in the lab's x10E3/uL it is one.
    [614, [[36, 'WBC'], [190, '3.1'], [260, 'Low'], [330, 'x10E3/L']]],
  ];

  it('is left unread on a recognised page where no one has it, or it lies far outside every range labs print for the test, unflagged', async () => {
    const { panels, summary } = await extractionOf([page]);
    expect(panels[0]!.panelResults.map((r) => [r.biomarker, r.resultValue])).toEqual([
      ['Potassium', '33'],
      ['Testosterone', '25'],
      ['Sodium', '141'],
      ['WBC', '3.1'],
    ]);
    expect(summary.rowsSkipped).toContainEqual({ reason: 'unreadable_cell', count: 2 });
  });

  it('is given on a text page, where validation flags a value no one has', async () => {
    const { panels, validationFlags } = await extractionOf([page], false);
    expect(panels[0]!.panelResults.map((r) => r.biomarker)).toEqual(['Globulin, Total', 'Albumin', 'Potassium', 'Testosterone', 'Sodium', 'WBC']);
    expect(validationFlags).toContainEqual(expect.objectContaining({ code: 'value_outside_physiological_bounds', biomarker: 'Albumin' }));
  });
});

describe('the second line of a wrapped name whose row OCR could not read', () => {
  it('is no panel title: the rows below stay in their panel', async () => {
    const page: DrawnLine[] = [
      ...HEAD,
      [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
      [674, [[36, 'Albumin'], [190, '4.6'], [330, 'g/dL'], [400, '4.1-5.2']]],
      // `Globulin,` / `Total` with its value on the first line, a speck beside it read as `Zq`: no row.
      [662, [[36, 'Globulin,'], [190, '2.0 Zq'], [330, 'g/dL'], [400, '1.5-4.5']]],
      [652, [[36, 'Total']]],
      [640, [[36, 'A/G Ratio'], [190, '1.9'], [400, '1.2-2.2']]],
    ];
    expect(names(await panelsOf([page]))).toEqual([['Comp. Metabolic Panel (14)', ['Albumin', 'A/G Ratio']]]);
  });
});

describe('a lab code OCR could not read', () => {
  const page: DrawnLine[] = [
    [760, [[36, 'Labcorp', 12]]],
    [740, [[36, 'Date Collected: 03/14/2025']]],
    [700, [[36, 'Test'], [190, 'Current Result and Flag'], [330, 'Units'], [400, 'Reference Interval'], [500, 'Lab']]],
    [686, [[36, 'Estradiol', 11]]],
    // The performing lab's `01` read as `It`.
    [674, [[36, 'Estradiol'], [190, '<5.0'], [330, 'pg/mL'], [400, '7.6-42.6'], [500, 'It']]],
  ];

  it('costs its row nothing on a recognised page, however sure the engine was: the code is not reported', async () => {
    expect(await panelsOf([page], true, { It: 0.41 })).toEqual([['Estradiol', [['Estradiol', '<5.0']]]]);
    expect(await panelsOf([page], true, { It: 0.9 })).toEqual([['Estradiol', [['Estradiol', '<5.0']]]]);
  });

  it('leaves the row unread on a text page, where it says the columns are not where the header puts them', async () => {
    expect(await panelsOf([page], false)).toEqual([]);
  });
});

describe('a word OCR could not read in a row', () => {
  const page = (cells: Array<[number, string]>): DrawnLine[] => [
    ...HEAD,
    [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    [674, cells],
    [662, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L'], [400, '134-144']]],
  ];
  // `High` read as `gh`, after the value.
  const glucose = page([
    [36, 'Glucose'],
    [190, '114'],
    [220, 'gh'],
    [330, 'mg/dL'],
    [400, '65-99'],
  ]);

  it('after the value, costs the row only its own cell, and the result is flagged to check', async () => {
    const { panels, validationFlags } = await extractionOf([glucose], true, { gh: 0.34 });
    const [result] = panels[0]!.panelResults;
    expect(result).toMatchObject({ biomarker: 'Glucose', resultValue: '114', resultUnit: 'mg/dL', referenceRangeText: '65-99', provenance: { ocrConfidence: 0.34 } });
    expect(result!.flag).toBeUndefined();
    expect(validationFlags).toContainEqual(expect.objectContaining({ code: 'low_ocr_confidence', biomarker: 'Glucose' }));
  });

  it('leaves the row unread where the engine read the word surely, or on a text page', async () => {
    expect(names(await panelsOf([glucose], true, { gh: 0.6 }))).toEqual([['Comp. Metabolic Panel (14)', ['Sodium']]]);
    expect(names(await panelsOf([glucose], false))).toEqual([['Comp. Metabolic Panel (14)', ['Sodium']]]);
  });

  it('leaves the row unread where two words are unread', async () => {
    expect(names(await panelsOf([glucose], true, { gh: 0.34, 'mg/dL': 0.3 }))).toEqual([['Comp. Metabolic Panel (14)', ['Sodium']]]);
  });

  it('gives an unread value as read and flagged, never a word after it in its place', async () => {
    // `9` doubted, its range read in two cells (`6` `24`, mended to Labcorp's `6-24`): the range is no value.
    const bun = page([
      [36, 'BUN'],
      [190, '9'],
      [330, 'mg/dL'],
      [400, '6'],
      [420, '24'],
    ]);
    const { panels, validationFlags } = await extractionOf([bun], true, { '9': 0.3 });
    expect(panels[0]!.panelResults.map((r) => [r.biomarker, r.resultValue, r.referenceRangeText])).toEqual([
      ['BUN', '9', '6-24'],
      ['Sodium', '141', '134-144'],
    ]);
    expect(validationFlags).toContainEqual(expect.objectContaining({ code: 'low_ocr_confidence', biomarker: 'BUN' }));
  });
});

describe('a line with a range and no value under a row', () => {
  it('does not continue the row: its name and unit are not joined to the row above', async () => {
    const page: DrawnLine[] = [
      ...HEAD,
      [686, [[36, 'Comp. Metabolic Panel (14)', 11]]],
      [674, [[36, 'Glucose'], [190, '114'], [330, 'mg/dL'], [400, '65-99']]],
      [664, [[36, 'BUN'], [330, 'mg/dL'], [400, '6-24']]],
      [652, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L'], [400, '134-144']]],
    ];
    for (const ocr of [true, false]) {
      const { panels } = await extractionOf([page], ocr);
      expect(panels[0]!.panelResults.map((r) => [r.biomarker, r.resultUnit])).toEqual([
        ['Glucose', 'mg/dL'],
        ['Sodium', 'mmol/L'],
      ]);
    }
  });
});

describe('a column header two of whose words OCR read as one', () => {
  it('is a header: the title above it names the panel, even over a first row that cannot be read', async () => {
    const page: DrawnLine[] = [
      [760, [[36, 'Quest Diagnostics', 12]]],
      [740, [[36, 'Collected: 06/02/2024']]],
      [700, [[36, 'IRON, TIBC AND FERRITIN PANEL']]],
      [688, [[36, 'Test Name'], [150, 'In Range'], [200, 'Out Of Range'], [260, 'Reference Range'], [340, 'Previous Resultand Date'], [470, 'Lab']]],
      // A value that is no value, read surely: no row.
      [676, [[36, 'IRON, TOTAL'], [150, '1%4x'], [260, '50-180 mcg/dL'], [470, 'JI']]],
      [664, [[36, 'IRON BINDING CAPACITY'], [150, '287'], [260, '250-425 mcg/dL'], [470, 'JI']]],
      [652, [[36, 'FERRITIN'], [150, '40'], [260, '38-380 ng/mL'], [470, 'JI']]],
    ];
    expect(names(await panelsOf([page]))).toEqual([['IRON, TIBC AND FERRITIN PANEL', ['IRON BINDING CAPACITY', 'FERRITIN']]]);
  });
});

describe('a column header word OCR read with a speck after it', () => {
  it('is that header word: the header is found, and the title above it names the panel', async () => {
    const page: DrawnLine[] = [
      [760, [[36, 'Labcorp', 12]]],
      [740, [[36, 'Date Collected: 03/14/2025']]],
      [712, [[36, 'CBC With Differential/Platelet', 10.5]]],
      // A header over two lines (`Ref` over `Range`), as the Labcorp patient report prints it; the engine
      // sized `Results` twice the line's other words.
      [700, [[400, 'Ref']]],
      [688, [[36, 'Test.'], [160, 'Results', 18], [220, 'Flag'], [330, 'Units'], [400, 'Range'], [470, 'Lab']]],
      [676, [[36, 'WBC'], [170, '5.7'], [330, 'x10E3/uL'], [400, '3.4-10.8'], [470, '01']]],
      [664, [[36, 'Hemoglobin'], [170, '14.1'], [330, 'g/dL'], [400, '13.0-17.7'], [470, '01']]],
    ];
    expect(names(await panelsOf([page]))).toEqual([['CBC With Differential/Platelet', ['WBC', 'Hemoglobin']]]);
  });

  it.each([
    ['a speck over a letter was read as its accent', 'Results', 'Reférence Range'],
    ['one letter of a word of four or more was misread', 'Resu1ts', 'Refercnce Range'],
  ])('is that header word where %s', async (_why, results, range) => {
    const page: DrawnLine[] = [
      [760, [[36, 'Labcorp', 12]]],
      [740, [[36, 'Date Collected: 03/14/2025']]],
      [712, [[36, 'TSH']]],
      [700, [[36, 'Tests'], [237, results], [325, 'Unit'], [394, range], [498, 'Flag']]],
      [688, [[36, 'TSH'], [261, '4.705'], [325, 'uIU/mL'], [394, '0.450-4.500'], [498, 'H']]],
    ];
    expect(names(await panelsOf([page]))).toEqual([['TSH', ['TSH']]]);
  });
});

describe('a column header word the engine could not read, right before another header word', () => {
  const page: DrawnLine[] = [
    [760, [[36, 'Labcorp', 12]]],
    [740, [[36, 'Date Collected: 03/14/2025']]],
    // `Reference Range` printed; `Reference` read as `Janae` at 0.24, a space before `Range` (drawn
    // just far enough apart for the text layer to keep them two words, each with its confidence).
    [700, [[36, 'Analyte'], [190, 'Current Result and Flag'], [330, 'Unit'], [400, 'Janae'], [428, 'Range']]],
    [688, [[36, 'Comp. Metabolic Panel (14)', 11]]],
    [676, [[36, 'Glucose'], [190, '91'], [330, 'mg/dL'], [400, '65-99']]],
    // The range's hyphen lost: a cell only the header's columns can tell is the range.
    [664, [[36, 'BUN'], [190, '7'], [330, 'mg/dL'], [400, '6'], [420, '24']]],
  ];

  it('is the first word of that word’s phrase: the header is found and a row with a garbled range cell is read', async () => {
    expect(await panelsOf([page], true, { Janae: 0.24 })).toEqual([
      [
        'Comp. Metabolic Panel (14)',
        [
          ['Glucose', '91'],
          ['BUN', '7'],
        ],
      ],
    ]);
  });

  it('spoils the header where the engine read it surely', async () => {
    expect(names(await panelsOf([page], true, { Janae: 0.93 }))).toEqual([['Comp. Metabolic Panel (14)', ['Glucose']]]);
  });
});

describe('a flag in a column of its own read as a digit', () => {
  const page: DrawnLine[] = [
    [760, [[36, 'Labcorp', 12]]],
    [740, [[36, 'Date Collected: 03/14/2025']]],
    [700, [[36, 'TEST NAME'], [190, 'RESULT'], [260, 'UNIT'], [330, 'REFERENCE RANGE'], [450, 'FLAG']]],
    [688, [[36, 'CBC With Differential/Platelet', 11]]],
    // `L` printed; read as a `1`, which is no flag.
    [676, [[36, 'RBC'], [190, '4.02'], [260, 'x10E6/uL'], [330, '4.14-5.80'], [450, '1']]],
    [664, [[36, 'Hemoglobin'], [190, '13.5'], [260, 'g/dL'], [330, '13.0-17.7']]],
  ];

  it('is the flag it reads as through the confusions on a recognised page', async () => {
    const [rbc] = (await extractionOf([page])).panels[0]!.panelResults;
    expect([rbc!.biomarker, rbc!.resultValue, rbc!.flag]).toEqual(['RBC', '4.02', 'L']);
  });

  it('leaves the row unread on a text page, where the cell is what was printed', async () => {
    expect(names(await panelsOf([page], false))).toEqual([['CBC With Differential/Platelet', ['Hemoglobin']]]);
  });
});

describe('a column header the engine garbled above the first rows of a report', () => {
  const page: DrawnLine[] = [
    [760, [[34, 'Quest Diagnostics', 12]]],
    [740, [[34, 'Collected: 06/02/2024']]],
    [675, [[34, 'IRON, TIBC AND FERRITIN PANEL', 8.4], [199, 'Collected: 06/02/2024 Received: 06/02/2024', 8.4]]],
    // A header over three lines; `In` over `Range` lost, that `Range` read `se`: no header reading places it.
    [669, [[353, 'Out', 8.4]]],
    [666, [[372, 'Of', 8.4], [403, 'Ref', 8.4]]],
    [657, [[34, 'Test', 8.4], [279, 'se', 8.4], [353, 'Range', 8.4], [403, 'Range', 8.4], [531, 'Lab', 8.4]]],
    [645, [[44, 'IRON, TOTAL', 8.4], [322, '91', 8.4], [403, '50-180', 8.4], [440, 'mcg/dL', 8.4], [530, 'EZ', 8.4]]],
    [636, [[44, 'FERRITIN', 8.4], [322, '40', 8.4], [403, '38-380', 8.4], [440, 'ng/mL', 8.4], [530, 'EZ', 8.4]]],
    [610, [[34, 'LIPID PANEL, STANDARD', 8.4]]],
    [600, [[34, 'Test Name', 8.4], [279, 'In Range', 8.4], [353, 'Out Of Range', 8.4], [403, 'Reference Range', 8.4], [531, 'Lab', 8.4]]],
    [590, [[44, 'HDL CHOLESTEROL', 8.4], [322, '55', 8.4], [403, '> OR = 40', 8.4], [440, 'mg/dL', 8.4], [530, 'EZ', 8.4]]],
  ];
  const titles = async (confidence: number) => (await panelsOf([page], true, { se: confidence })).map(([title]) => title);

  it('is no title: the rows under it are read under the title above it, on a recognised page', async () => {
    expect(names(await panelsOf([page], true, { se: 0.3 }))).toEqual([
      ['IRON, TIBC AND FERRITIN PANEL', ['IRON, TOTAL', 'FERRITIN']],
      ['LIPID PANEL, STANDARD', ['HDL CHOLESTEROL']],
    ]);
  });

  it('is no garbled header where the engine read the word surely', async () => {
    expect(await titles(0.93)).not.toContain('IRON, TIBC AND FERRITIN PANEL');
  });

  it('leaves the rows before the first header it knows unread on a text page, where a header is as printed', async () => {
    expect(names(await panelsOf([page], false))).toEqual([['LIPID PANEL, STANDARD', ['HDL CHOLESTEROL']]]);
  });
});

describe('words OCR set further apart than a text layer would', () => {
  it('stay in one cell up to a gap of the font size: the row is read without a column header', async () => {
    const page: DrawnLine[] = [
      [760, [[36, 'Labcorp', 12]]],
      [740, [[36, 'Date Collected: 03/14/2025']]],
      [700, [[36, 'Comp. Metabolic Panel (14)', 11]]],
      // The gap after `Globulin,` 0.92 of the size: a cell gap between the words of a text layer.
      [688, [[36, 'Globulin,'], [75, 'Total'], [190, '2.0'], [330, 'g/dL'], [400, '1.5-4.5']]],
      [676, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L'], [400, '134-144']]],
    ];
    expect(await panelsOf([page])).toEqual([
      [
        'Comp. Metabolic Panel (14)',
        [
          ['Globulin, Total', '2.0'],
          ['Sodium', '141'],
        ],
      ],
    ]);
  });
});

describe('a unit the engine read with its spaces misjudged', () => {
  // Quest's `% of total Hgb`, its `of` run into `total`; the range and unit share a cell, no header above.
  const page: DrawnLine[] = [
    [760, [[36, 'Quest Diagnostics', 8.4]]],
    [740, [[36, 'Collected: 03/14/2025', 8.4]]],
    [700, [[36, 'HEMOGLOBIN A1c', 11]]],
    [688, [[36, 'HEMOGLOBIN A1c'], [250, '5.9'], [270, 'H'], [330, '<5.7 % oftotal Hgb'], [520, 'DAL']]],
    [676, [[36, 'GLUCOSE'], [250, '90'], [330, '65-99 mg/dL'], [520, 'DAL']]],
  ];

  it('is a unit of its row on a recognised page, given as the unit table prints it', async () => {
    const { panels } = await extractionOf([page]);
    expect(panels.flatMap((p) => p.panelResults).map((r) => [r.biomarker, r.resultValue, r.resultUnit, r.referenceRangeText])).toEqual([
      ['HEMOGLOBIN A1c', '5.9', '% of total Hgb', '<5.7'],
      ['GLUCOSE', '90', 'mg/dL', '65-99'],
    ]);
  });
});

describe('a panel title misread beyond a near spelling', () => {
  // Labcorp's `Comp. Metabolic Panel (14)`, its first word read `coin.` and doubted.
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'coin.', 11], [70, 'Metabolic Panel (14)', 11]]],
    [674, [[36, 'Sodium'], [190, '141'], [330, 'mmol/L'], [400, '134-144']]],
  ];

  it('is the panel table’s title its sure words spell word for word, on a recognised page', async () => {
    expect((await panelsOf([page], true, { 'coin.': 0.21 })).map(([title]) => title)).toEqual(['Comp. Metabolic Panel (14)']);
  });

  it('stays as read where the engine was sure of the word, and on a text page', async () => {
    expect((await panelsOf([page], true)).map(([title]) => title)).toEqual(['coin. Metabolic Panel (14)']);
    expect((await panelsOf([page], false)).map(([title]) => title)).toEqual(['coin. Metabolic Panel (14)']);
  });
});

describe('a row the reader could not read, its value sized up by its own glyphs', () => {
  // Quest's `ALBUMIN 5.2 H g/dL 3.6-5.1`: the value read at twice the body size, the flag misread, the unit garbled, the range's points lost.
  const page: DrawnLine[] = [
    [760, [[34, 'Quest Diagnostics', 8.4]]],
    [740, [[34, 'Collected: 03/14/2025', 8.4]]],
    [700, [[34, 'COMPREHENSIVE METABOLIC PANEL', 8.4]]],
    [688, [[48, 'SODIUM', 7.7], [345, '140', 7.7], [377, 'mmol/L', 7.7], [446, '135-146', 7.7]]],
    [676, [[48, 'ALBUMIN', 7.7], [345, '5.2', 14.7], [377, 'grdL', 7.7], [446, '36-51', 7.7], [520, 'Critical', 7.7]]],
    [664, [[48, 'GLOBULIN', 7.7], [345, '2.3', 7.7], [376, 'g/dL', 7.7], [446, '1.9-3.7', 7.7]]],
  ];

  it('is no panel title: the rows under it stay in their panel', async () => {
    expect(await panelsOf([page])).toEqual([
      [
        'COMPREHENSIVE METABOLIC PANEL',
        [
          ['SODIUM', '140'],
          ['GLOBULIN', '2.3'],
        ],
      ],
    ]);
  });
});

describe('a performing-lab number after a scanned name, read as digits, marks or small letters, apart or run into it', () => {
  const page: DrawnLine[] = [
    ...HEAD,
    [686, [[36, 'Lipid Panel', 11]]],
    // Labcorp's raised `01`, read `0`, `©!` or `©` beside names the table knows (one misread itself).
    [674, [[36, 'Cholesterol, Total'], [110, '0'], [190, '150'], [330, 'mg/dL'], [400, '100-199']]],
    [662, [[36, 'HDL Cholesterol'], [104, '©!'], [190, '65'], [330, 'mg/dL'], [400, '>39']]],
    [650, [[36, 'Hemoglobin Alc'], [100, '©'], [190, '5.4'], [330, '%'], [400, '4.8-5.6']]],
    // Read as small letters, or as marks run into the name's last word.
    [638, [[36, 'ALT (SGPT)'], [90, 'om'], [190, '15'], [330, 'IU/L'], [400, '0-44']]],
    [626, [[36, 'TSH'], [60, 'Oo!'], [190, '2.373'], [330, 'uIU/mL'], [400, '0.450-4.500']]],
    [614, [[36, 'Carbon Dioxide, Total?!'], [190, '22'], [330, 'mmol/L'], [400, '20-29']]],
    [602, [[36, 'BUN!'], [190, '10'], [330, 'mg/dL'], [400, '6-24']]],
    [590, [[36, 'Hemoglobin Alc®™'], [190, '6.1'], [330, '%'], [400, '4.8-5.6']]],
    // After a name the table does not know without it, a digit stays part of the name.
    [578, [[36, 'Factor'], [70, 'II'], [190, '98'], [330, '%'], [400, '50-150']]],
    // A capital after a name the table knows is the test's own (`Hemoglobin A2`, which the table lacks).
    [566, [[36, 'Hemoglobin'], [86, 'A2'], [190, '2.5'], [330, '%'], [400, '1.8-3.2']]],
    // Nor is a word a near spelling of a name the table knows makes known (`RDW D` is a lost letter from `RDW-SD`).
    [554, [[36, 'RDW'], [66, 'D1'], [190, '13.1'], [330, '%'], [400, '11.6-15.4']]],
  ];
  const rows = async (ocr: boolean) => (await extractionOf([page], ocr, {}, {}, 'word')).panels.flatMap((p) => p.panelResults.map((r) => [r.biomarker, r.loincCode !== null]));

  it('is no part of the name on a recognised page: the name the table knows, coded', async () => {
    expect(await rows(true)).toEqual([
      ['Cholesterol, Total', true],
      ['HDL Cholesterol', true],
      ['Hemoglobin A1c', true],
      ['ALT (SGPT)', true],
      ['TSH', true],
      ['Carbon Dioxide, Total', true],
      ['BUN', true],
      ['Hemoglobin A1c', true],
      ['Factor II', expect.any(Boolean)],
      ['Hemoglobin A2', false],
      ['RDW D1', false],
    ]);
  });

  it('stays as printed on a text page, where no engine misread the number', async () => {
    expect((await rows(false)).map(([name]) => name)).toEqual([
      'Cholesterol, Total 0',
      'HDL Cholesterol ©!',
      'Hemoglobin Alc ©',
      'ALT (SGPT) om',
      'TSH Oo!',
      'Carbon Dioxide, Total?!',
      'BUN!',
      'Hemoglobin Alc®™',
      'Factor II',
      'Hemoglobin A2',
      'RDW D1',
    ]);
  });
});

describe('a panel title wrapped beside its Collected/Received stamp, its lines sized apart by the engine', () => {
  const page = (lines: Array<[string, number]>): DrawnLine[] => [
    ...QUEST_HEAD,
    [700, [[Q.name, lines[0]![0], lines[0]![1]], [Q.value, 'Collected: 11-22-2023 06:08 AM UTC Received: 11-22-2023 09:15 AM UTC', lines[0]![1]], [Q.lab, 'Z4M', lines[0]![1]]]],
    ...lines.slice(1).map(([text, size], i): DrawnLine => [689 - 11 * i, [[Q.name, text, size]]]),
    [678 - 11 * (lines.length - 2), [[Q.name + 10, 'GLUCOSE'], [Q.value, '74'], [Q.range, '65-99 mg/dL'], [Q.lab, 'Z4M']]],
    [667 - 11 * (lines.length - 2), [[Q.name + 10, 'SODIUM'], [Q.value, '139'], [Q.range, '135-146 mmol/L'], [Q.lab, 'Z4M']]],
  ];
  const titles = async (lines: Array<[string, number]>, ocr: boolean) => (await extractionOf([page(lines)], ocr, {}, {}, 'word')).panels.map((p) => [p.panelName, p.panelResults.length]);

  it('is one title on a recognised page, whatever sizes the engine gave its lines', async () => {
    // A lone word sized by its own glyphs; a line of brackets taller still.
    expect(await titles([['COMPREHENSIVE METABOLIC', 8], ['PANEL', 9.5]], true)).toEqual([['COMPREHENSIVE METABOLIC PANEL', 2]]);
    expect(await titles([['TESTOSTERONE, FREE', 8], ['(DIALYSIS), TOTAL (MS) AND SEX', 12.5], ['HORMONE BINDING GLOBULIN', 9.5]], true)).toEqual([
      ['TESTOSTERONE, FREE (DIALYSIS), TOTAL (MS) AND SEX HORMONE BINDING GLOBULIN', 2],
    ]);
  });

  it('is one title on a text page in one size, as printed', async () => {
    expect(await titles([['COMPREHENSIVE METABOLIC', 8], ['PANEL', 8]], false)).toEqual([['COMPREHENSIVE METABOLIC PANEL', 2]]);
  });
});

describe('a title’s stamp with a letter of its word misread', () => {
  // Quest's patient export, as a scan of it places its words.
  const page = (stamp: string): DrawnLine[] => [
    [760, [[36, 'Quest Diagnostics', 13]]],
    [740, [[36, 'Collected: 09/12/2025']]],
    [716, [[36, 'Test Name'], [200, 'In Range'], [250, 'Out Of Range'], [330, 'Reference Range'], [442, 'Previous Result and Date'], [562, 'Lab']]],
    [700, [[36, 'LIPID PANEL, STANDARD'], [200, `${stamp} 09/12/2025 05:05 PM UTC Received: 09/12/2025 05:06 PM UTC`], [562, 'RFL']]],
    [686, [[48, 'CHOLESTEROL,'], [200, '174'], [330, '<200 mg/dL'], [562, 'RFL']]],
    [676, [[48, 'TOTAL']]],
    [662, [[48, 'HDL CHOLESTEROL'], [200, '77'], [330, '> OR = 40 mg/dL'], [562, 'RFL']]],
  ];
  const panels = async (stamp: string) => (await extractionOf([page(stamp)], true, {}, {}, 'word')).panels.map((p) => [p.panelName, p.panelResults.map((r) => r.biomarker)]);

  it('still marks its line a title, where a date follows it', async () => {
    for (const stamp of ['Collected:', 'Coltected:', 'Co1lected']) {
      expect(await panels(stamp)).toEqual([['LIPID PANEL, STANDARD', ['CHOLESTEROL, TOTAL', 'HDL CHOLESTEROL']]]);
    }
  });
});

describe('a Quest title’s performing-lab code misread in the Lab column', () => {
  // Quest prints the code at the right of the title line too (`LIPID PANEL, STANDARD … MI`); a scan read `MI` as `Mi`, `TPA` as `TRA`.
  const page = (codes: [string, string]): DrawnLine[] => [
    ...QUEST_HEAD,
    [700, [[Q.name, 'LIPID PANEL, STANDARD', 9.5], [Q.lab, codes[0], 9.5]]],
    [689, [[Q.name + 10, 'HDL CHOLESTEROL'], [Q.value, '45'], [Q.range, '> OR = 40 mg/dL'], [Q.lab, 'MI']]],
    [672, [[Q.name, 'URINALYSIS, COMPLETE', 9.5], [Q.lab, codes[1], 9.5]]],
    [661, [[Q.name + 10, 'PH'], [Q.value, '6.0'], [Q.range, '5.0-8.0'], [Q.lab, 'TPA']]],
  ];
  const titles = async (codes: [string, string], ocr: boolean) => (await extractionOf([page(codes)], ocr, {}, {}, 'word')).panels.map((p) => p.panelName);

  it('is no part of the panel name on a recognised page', async () => {
    expect(await titles(['Mi', 'TRA'], true)).toEqual(['LIPID PANEL, STANDARD', 'URINALYSIS, COMPLETE']);
  });

  it('stays in the name on a text page, where only a lab code the vendor uses is one', async () => {
    expect(await titles(['MI', 'TPA'], false)).toEqual(['LIPID PANEL, STANDARD', 'URINALYSIS, COMPLETE']);
    expect(await titles(['Mi', 'TRA'], false)).toEqual(['LIPID PANEL, STANDARD Mi', 'URINALYSIS, COMPLETE TRA']);
  });
});

describe('a Quest range cell, which carries the unit, garbled by a scan', () => {
  const page: DrawnLine[] = [
    ...QUEST_HEAD,
    [700, [[Q.name, 'ESTRADIOL', 9.5]]],
    // `< OR = 39 pg/mL` with its `=` lost to noise.
    [689, [[Q.name + 10, 'ESTRADIOL'], [Q.value, '<15'], [Q.range, '< OR 39 pg/mL'], [Q.lab, 'DAL']]],
    [672, [[Q.name, 'LIPID PANEL, STANDARD', 9.5]]],
    // `> OR = 40 mg/dL` with its `=` lost and its number broken in two.
    [661, [[Q.name + 10, 'HDL CHOLESTEROL'], [Q.value, '45'], [Q.range, '> OR 4 0 mg/dL'], [Q.lab, 'MI']]],
    // `<200 mg/dL` with its `<` lost and a digit too: digits that read as no range.
    [650, [[Q.name + 10, 'CHOLESTEROL, TOTAL'], [Q.value, '187'], [Q.range, '00 mg/dL'], [Q.lab, 'MI']]],
  ];
  const rows = async (ocr: boolean) =>
    (await extractionOf([page], ocr, {}, {}, 'word')).panels.flatMap((p) => p.panelResults.map((r) => [r.biomarker, r.resultValue, r.resultUnit, r.maxRefRangeValue, r.referenceRangeText]));

  it('costs a recognised row only its range, its lost `=` put back, its unit kept', async () => {
    expect(await rows(true)).toEqual([
      ['ESTRADIOL', '<15', 'pg/mL', 39, '< OR = 39'],
      ['HDL CHOLESTEROL', '45', 'mg/dL', null, null],
      ['CHOLESTEROL, TOTAL', '187', 'mg/dL', null, null],
    ]);
  });

  it('leaves the row unread on a text page, where such a cell says the columns are not where the header puts them', async () => {
    expect(await rows(false)).toEqual([]);
  });
});

describe('a title the panel table prints over two lines, its lower line a word of a column header', () => {
  // Quest's `LIPID PANEL,` / `STANDARD`: alone, a scan's `STANDARD` is a header's word (`Standard Range`).
  // Rows indented under their titles, or set flush with them.
  const page = (rowIndent: number): DrawnLine[] => [
    ...QUEST_HEAD,
    [700, [[Q.name, 'LIPID PANEL,'], [Q.lab, 'NL1']]],
    [689, [[Q.name, 'STANDARD']]],
    [678, [[Q.name + rowIndent, 'HDL CHOLESTEROL'], [Q.value, '45'], [Q.range, '> OR = 40 mg/dL'], [Q.lab, 'MI']]],
  ];

  it.each([
    [true, 10],
    [true, 0],
    [false, 10],
    [false, 0],
  ])('is that title (recognised: %s, rows indented by %d)', async (ocr, indent) => {
    expect((await extractionOf([page(indent)], ocr, {}, {}, 'word')).panels.map((p) => [p.panelName, p.panelResults.length])).toEqual([['LIPID PANEL, STANDARD', 1]]);
  });
});

describe('a title under a row whose scanned name the engine misread', () => {
  // Quest's flat layout, titles set as the rows: `VITAMIN D,25-OH,TOTAL,IA` read with a zero for its O, then the next panel's title.
  const page = (name: string): DrawnLine[] => [
    ...QUEST_HEAD,
    [700, [[Q.name, name]]],
    [689, [[Q.name, name], [Q.value, '87'], [Q.range, '30-100 ng/mL'], [Q.lab, 'NL1']]],
    [678, [[Q.name, 'ESTRADIOL']]],
    [667, [[Q.name, 'ESTRADIOL'], [Q.value, '159'], [Q.range, 'pg/mL'], [Q.lab, 'Z4M']]],
  ];
  const panels = async (name: string, ocr: boolean) =>
    (await extractionOf([page(name)], ocr, {}, {}, 'word')).panels.map((p) => [p.panelName, p.panelResults.map((r) => r.biomarker)]);

  it('opens its panel on a recognised page, as after a name read right', async () => {
    for (const name of ['VITAMIN D,25-0H,TOTAL,IA', 'VITAMIN D,25-OH,TOTAL,IA']) {
      expect((await panels(name, true)).map(([title]) => title)).toEqual(['VITAMIN D,25-OH,TOTAL,IA', 'ESTRADIOL']);
    }
  });
});
