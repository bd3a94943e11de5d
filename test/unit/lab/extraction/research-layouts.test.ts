import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { classifyDocument } from '../../../../functions/lab/classify-document';
import { extractLabResults } from '../../../../functions/lab/parsers';
import { readPdfText } from '../../../../functions/lab/pdf-text';
import type { PanelResult } from '../../../../functions/lab/results-schema';
import { type Cell, Writer } from '../../../fixtures/labs/render';

/**
 * The layouts transcribed in test/fixtures/labs/research/ (from the project research notes, docs/research/lab-extraction.md), rendered
 * to PDF at the columns their layout notes describe and parsed back: every transcribed row must come
 * back as printed, and the lines the Quest note lists as furniture or interpretive text never may.
 */

function transcription(file: string): string[] {
  return readFileSync(path.join(__dirname, '../../../fixtures/labs/research', file), 'utf8')
    .split('\n')
    .filter((l) => !l.startsWith('# ') && l.trim() !== '');
}

interface PrintedRow {
  name: string;
  value: string;
  flag: string;
  unit: string;
  range: string;
  lab: string;
}

async function render(draw: (writer: Writer) => void): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const writer = await Writer.create(doc);
  writer.newPage();
  draw(writer);
  return doc.save();
}

async function parse(pdf: Uint8Array) {
  const pages = await readPdfText(pdf);
  const classification = classifyDocument(pages);
  if (classification.kind !== 'lab_report') throw new Error(`classified as ${JSON.stringify(classification)}`);
  return { classification, extraction: extractLabResults(pages, classification) };
}

function asPrinted(r: PanelResult): PrintedRow {
  return {
    name: r.biomarker,
    value: r.resultValue ?? '',
    flag: r.flag === 'H' ? 'High' : r.flag === 'L' ? 'Low' : '',
    unit: r.resultUnit ?? '',
    range: r.referenceRangeText ?? '',
    lab: '',
  };
}

const LEGACY = { name: 36, indent: 46, result: 220, flag: 280, units: 330, range: 420, lab: 545 };

function legacyHeader(writer: Writer, dates: [string, string, string]): void {
  writer.line(765, [{ text: 'DOE, JANE', x: 36 }, { text: 'Overall Report Status: FINAL', x: 400 }], 'cell', 9);
  writer.text('(SN: 10000000000) Received on 12/05/2021', 36, 753, 8);
  writer.text('Lab Report from LabCorp', 36, 736, 12, true);
  writer.line(720, [{ text: 'Specimen Number', x: 36 }, { text: 'Patient ID', x: 160 }, { text: 'Control Number', x: 280 }, { text: 'Account Number', x: 400 }], 'cell');
  writer.line(709, [{ text: '10000000000', x: 36 }, { text: '100000001', x: 160 }, { text: '1000001', x: 280 }, { text: '00000001', x: 400 }], 'cell');
  writer.line(694, [{ text: 'Date/Time', x: 36 }, { text: 'Date Entered', x: 160 }, { text: 'Date/Time', x: 280 }], 'cell');
  writer.line(684, [{ text: 'Collected', x: 36 }, { text: 'Reported', x: 280 }], 'cell');
  writer.line(673, dates.map((text, i) => ({ text, x: [36, 160, 280][i]! })), 'cell');
  writer.line(663, [{ text: '06:21:00 PST', x: 36 }, { text: '21:00:00 PST', x: 160 }, { text: '04:05:00 PST', x: 280 }], 'cell');
  writer.line(640, [
    { text: 'TESTS', x: LEGACY.name, bold: true },
    { text: 'RESULTS', x: LEGACY.result, bold: true },
    { text: 'FLAG', x: LEGACY.flag, bold: true },
    { text: 'UNITS', x: LEGACY.units, bold: true },
    { text: 'REFERENCE INTERVAL', x: LEGACY.range, bold: true },
    { text: 'LAB', x: LEGACY.lab, bold: true },
  ], 'cell');
}

function legacyCells(row: PrintedRow): Cell[] {
  return [
    { text: row.name, x: LEGACY.indent },
    { text: row.value, x: LEGACY.result },
    { text: row.flag, x: LEGACY.flag },
    { text: row.unit, x: LEGACY.units },
    { text: row.range, x: LEGACY.range },
    { text: row.lab, x: LEGACY.lab },
  ];
}

describe('"Lab Report from LabCorp" (labcorp-lab-report-from-labcorp-anonymized.txt)', () => {
  const lines = transcription('labcorp-lab-report-from-labcorp-anonymized.txt');
  const body = lines.slice(lines.findIndex((l) => l.startsWith('TESTS RESULTS')) + 1);

  /** The transcription is flattened text; its row grammar is simple enough to put cells back in their columns. */
  function printedRow(line: string): PrintedRow {
    const tokens = line.trim().split(' ');
    const lab = tokens[tokens.length - 1] === '01' ? tokens.pop()! : '';
    const range = tokens.slice(-2).join(' ') === 'Not Estab.' ? tokens.splice(-2).join(' ') : tokens.pop()!;
    const unit = /[/%]|^(?:fL|pg)$/.test(tokens[tokens.length - 1]!) ? tokens.pop()! : '';
    const flag = /^(?:High|Low)$/.test(tokens[tokens.length - 1]!) ? tokens.pop()! : '';
    const value = tokens.pop()!;
    return { name: tokens.join(' '), value, flag, unit, range, lab };
  }

  const panels: Array<{ name: string; rows: PrintedRow[] }> = [];
  for (const line of body) {
    if (line.startsWith('  ')) panels[panels.length - 1]!.rows.push(printedRow(line));
    else panels.push({ name: line, rows: [] });
  }

  it('reads every transcribed row back as printed, in its panel', async () => {
    const pdf = await render((writer) => {
      legacyHeader(writer, ['2021-12-02', '2021-12-02', '2021-12-05']);
      let y = 624;
      for (const panel of panels) {
        writer.text(panel.name, LEGACY.name, y, 9, true);
        y -= 12;
        for (const row of panel.rows) {
          writer.line(y, legacyCells(row), 'cell');
          y -= 11;
        }
      }
    });
    const { classification, extraction } = await parse(pdf);
    expect(classification).toEqual({ kind: 'lab_report', vendor: 'labcorp', collectionDate: '2021-12-02' });
    expect(extraction.panels.map((p) => p.panelName)).toEqual(['CBC With Differential/Platelet', 'Comp. Metabolic Panel (14)', 'Lipid Panel', 'Hemoglobin A1c']);
    const got = extraction.panels.map((p) => ({ name: p.panelName, rows: p.panelResults.map(asPrinted) }));
    expect(got).toEqual(panels.map((p) => ({ name: p.name, rows: p.rows.map((r) => ({ ...r, lab: '' })) })));
    expect(got.flatMap((p) => p.rows)).toHaveLength(41);
  });

  it('maps the rows to LOINC and UCUM, including the truncated eGFR unit and IU/L', async () => {
    const pdf = await render((writer) => {
      legacyHeader(writer, ['2021-12-02', '2021-12-02', '2021-12-05']);
      let y = 624;
      for (const row of panels[1]!.rows) {
        writer.line(y, legacyCells(row), 'word');
        y -= 11;
      }
    });
    const results = (await parse(pdf)).extraction.panels.flatMap((p) => p.panelResults);
    const egfr = results.find((r) => r.biomarker === 'eGFR If NonAfricn Am')!;
    expect(egfr).toMatchObject({ ucumCode: 'mL/min/{1.73_m2}', loincCode: '48642-3', minRefRangeValue: 59, maxRefRangeValue: null });
    expect(results.find((r) => r.biomarker === 'ALT (SGPT)')).toMatchObject({ ucumCode: '[IU]/L', loincCode: '1742-6', loincMatchType: 'exact' });
    expect(results.filter((r) => r.loincMatchType === 'not_found')).toEqual([]);
  });
});

describe('labcorp-parse README (labcorp-parse-readme-tabular.txt)', () => {
  const [header, ...rows] = transcription('labcorp-parse-readme-tabular.txt');
  const starts = ['Test', 'Result', 'Flag', 'Units', 'Reference Interval', 'Lab'].map((h) => header!.indexOf(h));
  const printed: PrintedRow[] = rows.map((line) => {
    const cell = (i: number) => line.slice(starts[i], starts[i + 1]).trim();
    return { name: cell(0), value: cell(1), flag: cell(2), unit: cell(3), range: cell(4), lab: cell(5) };
  });

  it('reads flags as words, spaced ranges and rows without a lab code', async () => {
    const pdf = await render((writer) => {
      legacyHeader(writer, ['2019-09-24', '2019-09-24', '2019-09-26']);
      writer.text('Comp. Metabolic Panel (14)', LEGACY.name, 624, 9, true);
      for (const [i, row] of printed.entries()) writer.line(612 - i * 11, legacyCells(row), 'line');
    });
    const { classification, extraction } = await parse(pdf);
    expect(classification).toMatchObject({ collectionDate: '2019-09-24' });
    const got = extraction.panels.flatMap((p) => p.panelResults);
    expect(got.map(asPrinted)).toEqual(printed.map((r) => ({ ...r, lab: '' })));
    expect(got.find((r) => r.biomarker === 'Carbon Dioxide, Total')).toMatchObject({ flag: 'L', minRefRangeValue: 20, maxRefRangeValue: 29, referenceRangeText: '20 - 29' });
    expect(got.find((r) => r.biomarker === 'HDL Cholesterol')).toMatchObject({ flag: 'L', minRefRangeValue: 39, referenceRangeText: '>39' });
    expect(got.find((r) => r.biomarker === 'LDL Cholesterol Calc')).toMatchObject({ flag: 'H', loincCode: '13457-7' });
  });
});

describe('Quest line shapes (quest-report-structure-lines-from-parser.txt)', () => {
  const lines = transcription('quest-report-structure-lines-from-parser.txt');
  const section = (title: string) => {
    const start = lines.indexOf(`## ${title}`) + 1;
    const end = lines.findIndex((l, i) => i >= start && l.startsWith('## '));
    return lines.slice(start, end < 0 ? undefined : end).map((l) => l.replace(/\s{2,}\(.*\)$/, '').trim());
  };
  const headers = section('Column headers seen (three variants)');
  const headerBlock = section('Header block labels');
  const furniture = section('Page furniture');
  const interpretive = section('Interpretive text that is NOT a result');
  const Q = { name: 36, row: 48, comment: 66, value: 250, outOfRange: 305, range: 375, lab: 545 };

  function headerCells(variant: string): Cell[] {
    const columns: Array<[string, number]> = [
      ['Test Name', Q.name],
      ['Test', Q.name],
      ['In Range', Q.value],
      ['Result', Q.value],
      ['Out Of Range', Q.outOfRange],
      ['Reference Range', Q.range],
      ['Lab', Q.lab],
    ];
    const cells: Cell[] = [];
    let rest = variant;
    while (rest !== '') {
      const [label, x] = columns.find(([label]) => rest.startsWith(label))!;
      cells.push({ text: label, x, bold: true });
      rest = rest.slice(label.length).trim();
    }
    return cells;
  }

  it.each(headers)('keeps only the results under the header "%s"', async (variant) => {
    const pdf = await render((writer) => {
      writer.text('Quest Diagnostics', 36, 770, 14, true);
      for (const [i, line] of headerBlock.entries()) writer.text(line, 36, 752 - i * 9, 7);
      let y = 752 - headerBlock.length * 9 - 12;
      writer.line(y, headerCells(variant), 'cell');
      y -= 16;
      writer.line(y, [{ text: 'COMPREHENSIVE METABOLIC', x: Q.name, bold: true, size: 9 }, { text: 'NL1', x: Q.lab }], 'cell');
      y -= 11;
      writer.text('PANEL', Q.name, y, 9, true);
      y -= 13;
      writer.line(y, [{ text: 'GLUCOSE', x: Q.row }, { text: '92', x: Q.value }, { text: '65-99 mg/dL', x: Q.range }, { text: 'NL1', x: Q.lab }], 'cell');
      y -= 11;
      for (const line of interpretive) {
        writer.text(line, Q.comment, y, 7);
        y -= 9;
      }
      writer.line(y, [{ text: 'CREATININE', x: Q.row }, { text: '1.31 H', x: variant.includes('Out Of Range') ? Q.outOfRange : Q.value }, { text: '0.60-1.26 mg/dL', x: Q.range }, { text: 'NL1', x: Q.lab }], 'cell');
      y -= 14;
      for (const line of furniture) {
        writer.text(line, 36, y, 7);
        y -= 9;
      }
    });
    const { extraction } = await parse(pdf);
    expect(extraction.panels.map((p) => p.panelName)).toEqual(['COMPREHENSIVE METABOLIC PANEL']);
    const got = extraction.panels.flatMap((p) => p.panelResults).map((r) => [r.biomarker, r.resultValue, r.flag ?? null]);
    expect(got).toEqual([
      ['GLUCOSE', '92', null],
      ['CREATININE', '1.31', 'H'],
    ]);
  });
});
