import { findFurniture } from '../../../../functions/lab/parsers/furniture';
import { pageLines } from '../../../../functions/lab/parsers/layout';
import { readTables } from '../../../../functions/lab/parsers/table';
import { type SyntheticLine, syntheticPage } from './synthetic-page';

/** Page furniture found by repetition across pages (docs/research/generic-table-reading.md §3), not by a list of known banners. */

const Q = { name: 36, row: 48, value: 250, range: 330 };
const header: SyntheticLine = [700, [[Q.name, 'Test Name'], [Q.value, 'Result'], [Q.range, 'Reference Range']]];

function page(n: number, panel: string, rows: Array<[string, string, string]>): ReturnType<typeof syntheticPage> {
  return syntheticPage(n, [
    [760, [[36, 'NORTHSIDE MEDICAL GROUP PATIENT COPY']]],
    [746, [[36, `Printed 03/16/2025 10:3${n} sheet ${n} of 3`]]],
    header,
    [684, [[Q.name, panel]]],
    ...rows.map(([name, value, range], i): SyntheticLine => [672 - i * 12, [[Q.row, name], [Q.value, value], [Q.range, range]]]),
    [40, [[36, `ACCESSION 00${n}11 CONFIDENTIAL`]]],
    [24, [[36, `Page ${n} of 3`]]],
  ]);
}

describe('page furniture', () => {
  const pages = [
    page(1, 'LIPID PANEL', [['CHOLESTEROL, TOTAL', '185', '<200 mg/dL']]),
    page(2, 'CBC', [['HEMOGLOBIN', '13.9', '13.2-17.1 g/dL']]),
    page(3, 'TSH', [['TSH', '1.92', '0.40-4.50 mIU/L']]),
  ];

  it('is what repeats at the same height on most pages, digits aside', () => {
    const lines = pages.map(pageLines);
    const furniture = findFurniture(lines);
    const texts = [...furniture].map((l) => l.text);
    expect(texts.filter((t) => t.startsWith('NORTHSIDE'))).toHaveLength(3);
    expect(texts.filter((t) => t.startsWith('Printed'))).toHaveLength(3);
    expect(texts.filter((t) => t.startsWith('ACCESSION'))).toHaveLength(3);
    expect(texts.filter((t) => t.startsWith('Page'))).toHaveLength(3);
    expect(texts.some((t) => /LIPID|CBC|TSH|HEMOGLOBIN/.test(t))).toBe(false);
  });

  it('never becomes a panel title or a result', () => {
    const read = readTables(pages).panels.map((p) => [p.name, p.results.map((r) => r.biomarker)]);
    expect(read).toEqual([
      ['LIPID PANEL', ['CHOLESTEROL, TOTAL']],
      ['CBC', ['HEMOGLOBIN']],
      ['TSH', ['TSH']],
    ]);
  });

  it('does not take the same test printed at the same height on two pages for furniture when its values differ', () => {
    const twice = [page(1, 'CBC', [['HEMOGLOBIN', '13.9', '13.2-17.1 g/dL']]), page(2, 'CBC', [['HEMOGLOBIN', '14.2', '13.2-17.1 g/dL']])];
    const furniture = findFurniture(twice.map(pageLines), (line) => /\d/.test(line.text) && line.text.startsWith('HEMOGLOBIN'));
    expect([...furniture].some((l) => l.text.startsWith('HEMOGLOBIN'))).toBe(false);
  });

  it('asks whether a line is a row only of lines that repeat at one height with other digits (the question costs a reading)', () => {
    const asked: string[] = [];
    findFurniture(pages.map(pageLines), (line) => {
      asked.push(line.text);
      return false;
    });
    // NORTHSIDE repeats exactly; the panels and rows do not repeat; the header is the same line on every
    // page; `Page n of 3` is a furniture pattern of the vocabulary.
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((t) => t.startsWith('Printed') || t.startsWith('ACCESSION'))).toBe(true);
  });

  it('is never the second line of a wrapped name that stands at one height on every page, between rows', () => {
    // Each page continues a panel, its first row's name printed over two lines (`Protein,` / `Total`).
    const continued = (n: number, first: string, rows: Array<[string, string, string]>) =>
      syntheticPage(n, [
        [760, [[36, 'NORTHSIDE MEDICAL GROUP PATIENT COPY']]],
        header,
        [684, [[Q.name, 'COMPREHENSIVE METABOLIC PANEL']]],
        [672, [[Q.row, `${first},`], [Q.value, rows[0]![1]], [Q.range, rows[0]![2]]]],
        [662, [[Q.row, 'Total']]],
        ...rows.slice(1).map(([name, value, range], i): SyntheticLine => [650 - i * 12, [[Q.row, name], [Q.value, value], [Q.range, range]]]),
        [24, [[36, `Page ${n} of 2`]]],
      ]);
    const wrapped = [
      continued(1, 'Protein', [['', '6.1', '6.0-8.5 g/dL'], ['ALBUMIN', '4.5', '3.6-5.1 g/dL']]),
      continued(2, 'Bilirubin', [['', '0.8', '0.2-1.2 mg/dL'], ['CALCIUM', '9.4', '8.6-10.3 mg/dL']]),
    ];
    expect(readTables(wrapped).panels.flatMap((p) => p.results.map((r) => r.biomarker))).toEqual(['Protein, Total', 'ALBUMIN', 'Bilirubin, Total', 'CALCIUM']);
  });

  describe('on recognised pages', () => {
    /** The page as OCR gives it: every word with a confidence, the banner read differently each time. */
    const recognised = (n: number, banner: string, panel: string, rows: Array<[string, string, string]>) => {
      const drawn = page(n, panel, rows);
      const items = drawn.items.map((item) => (item.str.startsWith('NORTHSIDE') ? { ...item, str: banner } : item));
      return { ...drawn, source: 'ocr' as const, items: items.map((item) => ({ ...item, confidence: 0.9 })) };
    };
    const scans = [
      recognised(1, 'NORTHS1DE MEDICAL GR0UP PATlENT COPY', 'Basic Metabolic Panel (8)', [['Glucose', '88', '65-99 mg/dL']]),
      recognised(2, 'ab NORTHSIDE MEDlCAL GROUP PATIENT C0PY', 'Comp. Metabolic Panel (14)', [['Glucose', '95', '65-99 mg/dL']]),
      recognised(3, 'NORTH SIDE MEDICAL GROUP PAT1ENT C0PY', 'CBC', [['HEMOGLOBIN', '13.9', '13.2-17.1 g/dL']]),
    ];

    it('finds a banner OCR read differently on every page', () => {
      // Result rows are never alike furniture (the reader asks rowOf; here, the rows are those of a value).
      const texts = [...findFurniture(scans.map(pageLines), (line) => /^(Glucose|HEMOGLOBIN) \d/.test(line.text))].map((l) => l.text);
      expect(texts.filter((t) => /NORTH/.test(t))).toHaveLength(3);
      // Titles alike at one height are no banner: they share too few letter pairs.
      expect(texts.some((t) => /Panel|CBC|Glucose|HEMOGLOBIN/.test(t))).toBe(false);
      expect(readTables(scans).panels.map((p) => p.name)).toEqual(['Basic Metabolic Panel (8)', 'Comp. Metabolic Panel (14)', 'CBC']);
    });

    it('leaves titles whose shared stamp is most of their letters, at one height on every page', () => {
      const stamped = ['HS CRP', 'URIC ACID', 'HEMOGLOBIN A1c'].map((title, i) => {
        const drawn = recognised(i + 1, 'NORTHSIDE MEDICAL GROUP PATIENT COPY', 'CBC', [['HEMOGLOBIN', '13.9', '13.2-17.1 g/dL']]);
        const items = drawn.items.map((item) => (item.str === 'CBC' ? { ...item, str: `${title} Collected: 11/10/24 10:51 ET Received: 11/10/24 13:58 ET` } : item));
        return { ...drawn, items };
      });
      const texts = [...findFurniture(stamped.map(pageLines), (line) => /^HEMOGLOBIN \d/.test(line.text))].map((l) => l.text);
      expect(texts.filter((t) => /NORTH/.test(t))).toHaveLength(3);
      expect(texts.some((t) => /Collected/.test(t))).toBe(false);
    });

    it('leaves lines alike but not the same on pages read from their text layer', () => {
      const texts = scans.map(({ source: _source, ...p }) => ({ ...p, items: p.items.map(({ confidence: _c, ...item }) => item) }));
      expect([...findFurniture(texts.map(pageLines))].some((l) => /NORTH/.test(l.text))).toBe(false);
    });
  });
});
